"""Judges one torture iteration: the child's ledger (what libjump acknowledged), the check's report (what a
restart restored) and the server's records. Returns violation counts per category (see README.md)."""
import json
import re

CATEGORIES = [
    ("foreign", "foreign edits"),
    ("lost", "lost acknowledged edits"),
    ("dead", "dead sessions"),
    ("wrong_session", "wrong session restored"),
    ("conflict", "spurious conflicts"),
    ("unreadable", "unreadable stores"),
    ("orphans", "orphaned temp files"),
    ("duplicated", "duplicated elements"),
]

JUMP_OK = 0
JUMP_E_EXPIRED = -12
JUMP_E_CONFLICT = -18

KEY = re.compile(r"^([AB])-(\d+)-(\d+)$")


def normal(path):
    """Each user has one profiles element (ids may differ per user): compare paths without the id."""
    return re.sub(r"#\d+", "#", path)


def parse_key(value):
    """("A", iteration, seq) for a value the driver wrote (padding after '~' ignored), else None."""
    if not isinstance(value, str):
        return None
    match = KEY.match(value.split("~", 1)[0])
    return (match.group(1), int(match.group(2)), int(match.group(3))) if match else None


class Model:
    """Replays the ledger. An acknowledged edit is `owed` until a completed sync covers it (then it is
    `synced`: it must be on the server) or a completed sign-out of its user drops it. Signing in over a
    session (same user or another) drops nothing: that user's edits must be back when it signs in again."""

    def __init__(self, lines):
        self.session = None         # who libjump acknowledged as signed in
        self.before = self.target = None  # either side of a sign-in or sign-out in flight
        self.in_flight = None       # the op of a BEGIN without its answer
        self.last_user = None
        self.signing_out = None     # the user whose sign-out is in flight: its owed edits may go
        self.erase_failed = set()   # users whose sign-out could not erase the store (it may come back)
        self.owed = {}              # (user, path) -> seq
        # Appended elements (their value is their key): owed until a completed sync, then on the server.
        self.appends_owed = {}      # seq -> user
        self.appends_synced = {}    # seq -> user
        self.appends_covered = {}
        self.synced = {}            # (user, path) -> seq
        self.covered = {}           # owed of the syncing user when the sync began
        self.refreshed = set()      # users with a refresh begun (only a refresh retires a token)
        # A sign-in or refresh acknowledged with "storage_error" in the state (the save failed, as jump.h
        # allows: it works in memory and says so): the store may hold what was there before it.
        self.unsaved_fallbacks = set()
        self.unsaved_refresh = set()
        self.steps = 0
        for line in lines:
            self.apply(line.split())

    def apply(self, f):
        if len(f) < 2:
            return
        kind, op = f[1], (f[2] if len(f) > 2 else "")
        if kind == "BEGIN":
            self.steps += 1
            self.in_flight, self.before = op, self.session
            if op == "signin":
                self.target = f[3]
                self.in_flight = "switch" if self.session not in (None, f[3]) else "signin"
            elif op == "signout":
                self.target, self.signing_out = None, self.session
            elif op == "refresh":
                self.refreshed.add(f[3])
            elif op == "sync":
                self.covered = {k: s for k, s in self.owed.items() if k[0] == f[3]}
                self.appends_covered = {s: u for s, u in self.appends_owed.items() if u == f[3]}
            return
        if kind == "UNSAVED":
            if op == "signin":
                self.unsaved_fallbacks |= {self.before, None}
            elif op == "refresh":
                self.unsaved_refresh.add(f[3])
            return
        if kind not in ("OK", "ERR"):
            return
        self.in_flight = None
        if op == "signin" and kind == "OK":
            self.session = self.last_user = f[3]
        elif op == "signout":
            # Completed: the edits are meant to be gone. Failed: gone from memory, maybe still stored.
            self.owed = {k: s for k, s in self.owed.items() if k[0] != self.signing_out}
            self.appends_owed = {s: u for s, u in self.appends_owed.items() if u != self.signing_out}
            if kind == "ERR" and self.signing_out:
                self.erase_failed.add(self.signing_out)
            self.session = self.signing_out = None
        elif op == "edit" and kind == "OK":
            self.owed[(f[3], normal(f[4]))] = parse_key(f[5])[2]
        elif op == "append" and kind == "OK":
            self.appends_owed[parse_key(f[5])[2]] = f[3]
        elif op == "sync" and kind == "OK":
            for seq, user in self.appends_covered.items():
                self.appends_synced[seq] = user
                self.appends_owed.pop(seq, None)
            for k, seq in self.covered.items():
                self.synced[k] = seq
                if self.owed.get(k) == seq:
                    del self.owed[k]

    def phase(self):
        if self.in_flight:
            return self.in_flight
        return "startup" if self.steps == 0 else "between steps"

    def allowed_sessions(self):
        """Who a restart may find signed in: the acknowledged session, either side of a sign-in or
        sign-out in flight, and a user whose sign-out could not erase the store."""
        allowed = {self.session} | self.erase_failed | self.unsaved_fallbacks
        if self.in_flight in ("signin", "switch", "signout"):
            allowed |= {self.before, self.target}
        return allowed

    def required(self, user):
        """path -> the lowest seq a session of `user` may hold there: synced values and owed edits."""
        need = {p: s for (u, p), s in self.synced.items() if u == user}
        if user != self.signing_out:
            for (u, p), s in self.owed.items():
                if u == user:
                    need[p] = max(s, need.get(p, -1))
        return need


def parse_check(text):
    """The check's "key value" lines -> a dict; record values per section ("local", "signed-in", "then")."""
    report = {"local": {}, "signed-in": {}, "then": {}, "orphans": 0}
    for line in text.splitlines():
        key, _, rest = line.partition(" ")
        if key in ("local", "signed-in", "then"):
            path, _, value = rest.partition(" ")
            report[key][normal(path)] = value
        elif key == "orphans":
            report["orphans"] = int(rest.split()[0])
        elif key in ("state", "final-state"):
            report[key] = json.loads(rest) if rest != "null" else None
        elif key in ("fetch", "sync", "signin", "then-signin", "then-fetch", "then-sync"):
            status, _, detail = rest.partition(" ")
            report[key] = int(status)
            report[key + "-detail"] = detail
        elif key == "token":
            report["token"] = rest if not rest.startswith("-") else None
        elif key == "then-as":
            report["then_as"] = rest.strip().upper()
        elif key == "client_new":
            report["client_new"] = rest
    return report


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def flat(record, prefix=""):
    """(normal path, value) of every leaf of a server record."""
    for name, value in (record or {}).items():
        path = f"{prefix}/{name}"
        if isinstance(value, dict):
            yield from flat(value, path)
        elif isinstance(value, list):
            for element in value:
                if isinstance(element, dict):
                    yield from flat(element, path + "#")
        else:
            yield path, value


def judge(model, report, server, users, iteration, emulator, server_before=None):
    """Counts per category for one iteration, and notes saying why (kept for failing runs).
    server: {"A": record or None, ...} after the check; server_before: the same before it (duplicates are
    looked for in both); users: {"A": (uuid, element id), ...}."""
    counts = dict.fromkeys((c for c, _ in CATEGORIES), 0)
    notes = []
    state = report.get("state") or {}
    by_uuid = {uuid: name for name, (uuid, _) in users.items()}
    restored = by_uuid.get(state.get("uuid")) if state.get("signed_in") else None

    if "client_new" in report or state.get("restore_error"):
        counts["unreadable"] += 1
        notes.append(f"unreadable: {report.get('client_new') or state.get('restore_error')}")
    counts["orphans"] = report["orphans"]
    if report["orphans"]:
        notes.append(f"orphans: {report['orphans']} temp files after the store was opened")
    readable = counts["unreadable"] == 0

    if readable and restored not in model.allowed_sessions():
        counts["wrong_session"] += 1
        notes.append(f"restored {restored}, acknowledged session {model.session} (in flight: {model.in_flight})")

    # The sessions the check looked at: (user, its values, status of the sync that followed).
    first = restored or (report.get("signin_as") if report.get("signin") == JUMP_OK else None)
    examined = []
    if first and readable:
        examined.append((first, report["local"] if restored else report["signed-in"], report.get("sync")))
    if report.get("then-signin") == JUMP_OK:
        examined.append((report["then_as"], report["then"], report.get("then-sync")))

    # Foreign: a value written by one user in the other's local or server record.
    foreign = set()
    places = [(user, values.values()) for user, values, _ in examined]
    places += [(name, strings(record)) for name, record in server.items() if record is not None]
    for owner, values in places:
        for value in values:
            key = parse_key(value)
            if key and key[1] == iteration and key[0] != owner:
                foreign.add((owner, key))
    counts["foreign"] = len(foreign)
    notes += [f"foreign: {k[0]}-{k[1]}-{k[2]} in {owner}'s record" for owner, k in sorted(foreign)]

    # Lost: an acknowledged edit, not superseded, neither in the user's restored (or signed-in-again)
    # record nor on the server. Synced values must be on the server whoever is signed in.
    lost = {}
    for user in "AB":
        need_server = {p: s for (u, p), s in model.synced.items() if u == user}
        for who, values, sync_status in examined:
            if who != user:
                continue
            for path, seq in model.required(user).items():
                key = parse_key(values.get(path))
                if not key or key[0] != user or key[2] < seq:
                    lost[(user, path)] = f"{user} {path}: needs seq>={seq}, the session holds {values.get(path)}"
            if sync_status == JUMP_OK:
                need_server = model.required(user)
        values = dict(flat(server.get(user)))
        for path, seq in need_server.items():
            key = parse_key(values.get(path))
            if not key or key[0] != user or key[2] < seq:
                lost.setdefault((user, path), f"{user} {path}: needs seq>={seq} on the server, which has "
                                              f"{str(values.get(path))[:40]}")
    # Appends: an acknowledged element must be on the server after a completed sync (the run's, or the
    # check's when it synced that user), and any element only once: a value seen twice was applied twice.
    def appended(record):
        keys = [parse_key(v) for v in strings(record)]
        return [k[2] for k in keys if k and k[0] == user and k[1] == iteration]

    for user in "AB":
        seqs = appended(server.get(user))
        checked_sync = any(who == user and status == JUMP_OK for who, _, status in examined)
        need = {s for s, u in model.appends_synced.items() if u == user}
        if checked_sync:
            need |= {s for s, u in model.appends_owed.items() if u == user}
        for seq in sorted(need - set(seqs)):
            lost[(user, f"/photos {seq}")] = f"{user} appended {user}-{iteration}-{seq}, not on the server"
        for when, found in (("after", seqs), ("before", appended((server_before or {}).get(user)))):
            twice = sorted({s for s in found if found.count(s) > 1})
            counts["duplicated"] = max(counts["duplicated"], len(twice))
            notes += [f"duplicated: {user}-{iteration}-{s} is {found.count(s)} times in {user}'s server record "
                      f"{when} the check" for s in twice]
    counts["lost"] = len(lost)
    notes += [f"lost: {why}" for why in lost.values()]

    # Conflicts: nobody but this client ever writes these records, so any conflict is spurious.
    statuses = {k: report.get(k) for k in ("fetch", "sync", "then-fetch", "then-sync")}
    if JUMP_E_CONFLICT in statuses.values():
        counts["conflict"] += 1
        notes.append(f"conflict: {statuses} {report.get('fetch-detail', '')[:300]}")

    # Dead: the restored session answers EXPIRED, yet the server honours its successor: the token it
    # holds was retired by a refresh whose new token the store lost (only this client has the secret).
    if restored and JUMP_E_EXPIRED in (report.get("fetch"), report.get("sync")):
        token = report.get("token")
        if token is not None:
            dead = emulator.token_retired(token)
        else:  # EXPIRED already at restore (no token given): after a refresh, a live session of this
            # user is the successor the store lost
            dead = restored in model.refreshed and emulator.user(users[restored][0])[1] > 0
        if dead and restored in model.unsaved_refresh:
            notes.append(f"allowed: {restored}'s refresh was acknowledged with storage_error (not saved)")
        elif dead:
            counts["dead"] += 1
            notes.append(f"dead session: {restored} (token {'retired' if token else 'not given'}; the server "
                         "still honours its successor)")
    return counts, notes
