"""Fabricated runs with a known outcome, one per category, so the judge is shown to count each kind of
violation (and nothing in a clean run) whatever the library under test does. run.py runs it first."""
import json

import judge

UA, UB = "uuid-a", "uuid-b"
USERS = {"A": (UA, "1"), "B": (UB, "1")}


class FakeEmulator:
    def __init__(self, retired=False, live=0):
        self.retired, self.live = retired, live

    def token_retired(self, token):
        return self.retired

    def user(self, uuid):
        return None, self.live


def check_output(restored=None, local=None, fetch=0, sync=0, orphans=0, restore_error=None, token="t",
                 then=None, then_values=None):
    state = {"signed_in": restored is not None, "uuid": {"A": UA, "B": UB}.get(restored),
             "restore_error": restore_error}
    lines = [f"orphans {orphans}", "state " + json.dumps(state),
             f"token {token}" if token else "token - -12"]
    lines += [f"local {p} {v}" for p, v in (local or {}).items()]
    lines += [f"fetch {fetch} {{}}", f"sync {sync} {{}}"]
    if then:
        lines += [f"then-as {then.lower()}", "then-signin 0 {}", "then-fetch 0 {}", "then-sync 0 {}"]
        lines += [f"then {p} {v}" for p, v in (then_values or {}).items()]
    report = judge.parse_check("\n".join(lines))
    report["signin_as"] = restored
    return report


def run(ledger, report, server, emulator=None, server_before=None):
    model = judge.Model(ledger.strip().splitlines())
    counts, _ = judge.judge(model, report, server, USERS, 1, emulator or FakeEmulator(), server_before)
    return counts


SIGNED_IN_A = "1 BEGIN signin A\n2 OK signin A\n"
EDIT_A = "3 BEGIN edit A /aboutMe A-1-0 5\n4 OK edit A /aboutMe A-1-0\n"
SYNC_A = "5 BEGIN sync A\n6 OK sync A\n"
APPEND_A = "3 BEGIN append A /photos A-1-0\n4 OK append A /photos A-1-0\n"

CASES = [
    # (name, expected non-zero counts, ledger, report, server records)
    ("clean", {}, SIGNED_IN_A + EDIT_A + SYNC_A,
     check_output("A", {"/aboutMe": "A-1-0"}), {"A": {"aboutMe": "A-1-0"}, "B": {}}),
    ("foreign", {"foreign": 1}, SIGNED_IN_A + EDIT_A + "5 BEGIN signin B\n6 OK signin B\n",
     check_output("B", {"/aboutMe": "A-1-0"}, then="A", then_values={"/aboutMe": "A-1-0"}),
     {"A": {"aboutMe": "A-1-0"}, "B": {}}),
    ("lost locally", {"lost": 1}, SIGNED_IN_A + EDIT_A,
     check_output("A", {"/aboutMe": "null"}), {"A": {}, "B": {}}),
    ("lost on the server", {"lost": 1}, SIGNED_IN_A + EDIT_A + SYNC_A,
     check_output("A", {"/aboutMe": "A-1-0"}, sync=-5), {"A": {"aboutMe": None}, "B": {}}),
    ("lost across a switch", {"lost": 1}, SIGNED_IN_A + EDIT_A + "5 BEGIN signin B\n6 OK signin B\n",
     check_output("B", {}, then="A", then_values={"/aboutMe": "null"}), {"A": {}, "B": {}}),
    ("dropped by a sign-out", {}, SIGNED_IN_A + EDIT_A + "5 BEGIN signout A\n6 OK signout\n",
     check_output(None), {"A": {}, "B": {}}),
    ("wrong session", {"wrong_session": 1}, SIGNED_IN_A + "3 BEGIN signout A\n4 OK signout\n",
     check_output("A"), {"A": {}, "B": {}}),
    ("dead", {"dead": 1}, SIGNED_IN_A + "3 BEGIN refresh A\n4 OK refresh A\n",
     check_output("A", fetch=-12, sync=-12), {"A": {}, "B": {}}, FakeEmulator(retired=True)),
    ("expired, not dead", {}, SIGNED_IN_A, check_output("A", fetch=-12, sync=-12), {"A": {}, "B": {}}),
    ("conflict", {"conflict": 1}, SIGNED_IN_A + EDIT_A, check_output("A", {"/aboutMe": "A-1-0"}, fetch=-18),
     {"A": {"aboutMe": "A-1-0"}, "B": {}}),
    ("unreadable", {"unreadable": 1}, SIGNED_IN_A, check_output(None, restore_error={"status": -13}),
     {"A": {}, "B": {}}),
    ("orphans", {"orphans": 2}, SIGNED_IN_A, check_output("A", orphans=2), {"A": {}, "B": {}}),
    ("appended once", {}, SIGNED_IN_A + APPEND_A + SYNC_A, check_output("A"),
     {"A": {"photos": [{"value": "A-1-0"}]}, "B": {}}),
    ("appended twice", {"duplicated": 1}, SIGNED_IN_A + APPEND_A + SYNC_A, check_output("A"),
     {"A": {"photos": [{"value": "A-1-0"}, {"value": "A-1-0"}]}, "B": {}}),
    ("appended twice, then removed by the check's sync", {"duplicated": 1}, SIGNED_IN_A + APPEND_A + SYNC_A,
     check_output("A"), {"A": {"photos": [{"value": "A-1-0"}]}, "B": {}}, None,
     {"A": {"photos": [{"value": "A-1-0"}, {"value": "A-1-0"}]}, "B": {}}),
    ("append lost", {"lost": 1}, SIGNED_IN_A + APPEND_A + SYNC_A, check_output("A"), {"A": {"photos": []}, "B": {}}),
]


def selftest():
    """A list of failures (empty: the judge counts what it should)."""
    failures = []
    for name, expected, ledger, report, server, *rest in CASES:
        counts = run(ledger, report, server, *rest)
        got = {k: v for k, v in counts.items() if v}
        if got != expected:
            failures.append(f"judge self-test '{name}': expected {expected}, counted {got}")
    return failures


if __name__ == "__main__":
    problems = selftest()
    print("\n".join(problems) or f"judge self-test: {len(CASES)} cases pass")
    raise SystemExit(1 if problems else 0)
