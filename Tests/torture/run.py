#!/usr/bin/env python3
"""make torture: kill -9 and storage-fault testing of libjump's session store (see README.md).

Knobs (environment): TORTURE_KILLS (default 1000), TORTURE_FAULTS (default 150), TORTURE_SEED (default: from
the clock; printed), TORTURE_TIME_LIMIT seconds (default 270: no new iteration starts after it),
TORTURE_REFRESH_GRACE (the emulator's capture_refresh_grace_seconds; default: the emulator's own), TORTURE_PRELOAD (a
sanitizer runtime every driver loads first: make sanitize).
"""
import ctypes
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402
import judge_selftest  # noqa: E402
from emulator import PASSWORD, Emulator, EmulatorError, email  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DRIVER = os.path.join(ROOT, "build", "torture", "driver")
SHIM = os.path.join(ROOT, "build", "torture", "faultshim.so")
# A sanitizer runtime the drivers load first (make sanitize sets it; the fault shim comes after it).
PRELOAD = os.environ.get("TORTURE_PRELOAD", "").strip()
LOGS = os.path.join(ROOT, "build", "torture-logs")
REPORT = os.path.join(ROOT, "build", "torture-report.txt")
SCENARIOS = ["signin", "edits", "sync", "refresh", "signout", "switch", "appends"]
FAULT_OPS = ["open_creat", "write", "fsync", "rename", "unlink", "rodir"]
CHILD_TIMEOUT = 60      # seconds; a child past it is killed and counted as hung
KEPT_LOGS = 25          # iterations with violations whose ledger and check output are kept


def env_int(name, default):
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def read_lines(path):
    """The ledger's lines; none when the child was killed before it created the file."""
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def drop_dac_capabilities():
    """preexec_fn for the read-only-directory case: root ignores 0500, so the child (and what it execs)
    loses CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_FOWNER from its bounding set."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2, 3):
        libc.prctl(24, capability, 0, 0, 0)  # PR_CAPBSET_DROP


class Torture:
    def __init__(self):
        self.kills_wanted = env_int("TORTURE_KILLS", 1000)
        self.faults_wanted = env_int("TORTURE_FAULTS", 150)
        self.seed = env_int("TORTURE_SEED", int(time.time()) % 1000000)
        self.time_limit = env_int("TORTURE_TIME_LIMIT", 270)
        # The emulator replays a refresh repeated within capture_refresh_grace_seconds (default 30); 0 plays
        # a server without that grace, where a refresh cut short by a kill can only end the session.
        self.refresh_grace = os.environ.get("TORTURE_REFRESH_GRACE", "").strip()
        self.rng = random.Random(self.seed)
        self.library = os.environ.get("JUMP_LIBRARY_PATH") or os.path.join(ROOT, "build", "lib", "libjump.so")
        self.emulator_binary = os.environ.get("JUMP_EMULATOR") or os.path.join(ROOT, "build", "bin", "jump-emulator")
        self.kills = self.fault_runs = self.injected = self.hung = self.iterations = 0
        self.dropped_answer_runs = 0  # appends runs whose server dropped answers (lost_answer)
        self.table = {}           # phase -> {"runs": n, category: n}
        self.kept = 0
        self.durations = {}       # scenario -> typical run time (s), to aim kills across the whole run

    # ---- one child run ----

    def child(self, it, workdir, scenario, users, extra_env=None, extra_args=(), preexec=None):
        store, ledger = os.path.join(workdir, "store"), os.path.join(workdir, "ledger")
        args = [DRIVER, "run", f"url={self.emu.url}", f"store={store}", f"ledger={ledger}",
                f"scenario={scenario}", f"seed={self.seed * 100003 + it}", f"iter={it}",
                f"a={email('A')}", f"b={email('B')}", f"ida={users['A'][1]}", f"idb={users['B'][1]}",
                f"password={PASSWORD}", *extra_args]
        env = dict(os.environ, JUMP_LIBRARY_PATH=self.library, **(extra_env or {}))
        preload = " ".join(p for p in (PRELOAD, (extra_env or {}).get("LD_PRELOAD")) if p)
        if preload:
            env["LD_PRELOAD"] = preload
        with open(os.path.join(workdir, "stderr"), "wb") as stderr:  # a file: a full pipe would block the child
            return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=stderr,
                                    preexec_fn=preexec, cwd=ROOT)

    def finish(self, process, deadline):
        try:
            process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            self.hung += 1

    def check(self, workdir, users, model, scenario):
        """Runs the driver in check mode on the store; returns its parsed report."""
        last = model.session or (model.target if model.in_flight in ("signin", "switch") else None)
        if last is None:  # signed out: the next sign-in, as the scenario would make it
            last = model.last_user or "A"
            if scenario == "switch":
                last = "B" if last == "A" else "A"
        args = [DRIVER, "check", f"url={self.emu.url}", f"store={os.path.join(workdir, 'store')}",
                f"a={email('A')}", f"b={email('B')}", f"ida={users['A'][1]}", f"idb={users['B'][1]}",
                f"password={PASSWORD}", f"signin={last.lower()}", "then=1"]
        env = dict(os.environ, JUMP_LIBRARY_PATH=self.library)
        env.pop("LD_PRELOAD", None)
        if PRELOAD:
            env["LD_PRELOAD"] = PRELOAD
        try:
            out = subprocess.run(args, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT, cwd=ROOT)
            text = out.stdout
        except subprocess.TimeoutExpired as timeout:
            self.hung += 1
            text = (timeout.stdout or b"").decode(errors="replace") if isinstance(timeout.stdout, bytes) else ""
        report = judge.parse_check(text)
        report["signin_as"] = last
        report["raw"] = text
        return report

    # ---- iterations ----

    def iteration(self, kind):
        it = self.iterations = self.iterations + 1
        workdir = tempfile.mkdtemp(prefix=f"it{it}-", dir=self.tmp)
        users = self.emu.fresh_users()
        scenario = self.rng.choice(SCENARIOS)
        started = time.monotonic()
        fault_note = ""
        if kind == "fault":
            op = self.rng.choice(FAULT_OPS)
            fault_log = os.path.join(workdir, "faults")
            if op == "rodir":
                process = self.child(it, workdir, scenario, users, extra_args=[f"rodir={self.rng.randint(0, 5)}"],
                                     preexec=drop_dac_capabilities if os.geteuid() == 0 else None)
                fault_note = "rodir"
            else:
                fault_env = {"LD_PRELOAD": SHIM, "FAULT_OP": op,
                             "FAULT_ERRNO": self.rng.choice(["ENOSPC", "EROFS", "EIO"]),
                             "FAULT_AFTER": str(self.rng.randint(0, 20)),
                             "FAULT_COUNT": self.rng.choice(["1", "-1"]),
                             "FAULT_PATH_SUBSTR": os.path.join(workdir, "store"), "FAULT_LOG": fault_log}
                process = self.child(it, workdir, scenario, users, extra_env=fault_env)
                fault_note = " ".join(f"{k}={v}" for k, v in fault_env.items() if k.startswith("FAULT_") and k != "FAULT_LOG")
            self.finish(process, started + CHILD_TIMEOUT)
            if os.path.isdir(os.path.join(workdir, "store")):
                os.chmod(os.path.join(workdir, "store"), 0o700)  # the check restarts with a writable store
            injected = len(read_lines(fault_log))
            if op == "rodir":
                injected = int(any(" READONLY" in line for line in read_lines(os.path.join(workdir, "ledger"))))
            self.injected += injected
            self.fault_runs += 1
            phase = f"fault {op}"
        else:
            typical = self.durations.get(scenario, 0.1)
            delay = self.rng.uniform(0.0, typical * 1.05)
            if scenario == "appends" and self.rng.random() < 0.5:
                # Answers dropped after the server applied the update (a flaky network): with or without a kill,
                # the next sync must find those elements on the server, not send them again.
                dropped = self.rng.randint(1, 3)
                self.emu.admin("POST", "/emulator/faults", {"kind": "lost_answer", "path": "/entity.update",
                                                            "count": dropped})
                fault_note = f"lost_answer x{dropped} on /entity.update"
            process = self.child(it, workdir, scenario, users)
            try:
                process.wait(delay)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGKILL)
            process.wait()
            killed = process.returncode == -signal.SIGKILL
            if killed:
                self.kills += 1
            else:  # it finished first: learn how long a whole run takes, to aim later kills inside it
                self.durations[scenario] = 0.7 * typical + 0.3 * (time.monotonic() - started)
            phase = None if killed else ("no kill, answers dropped" if fault_note else "no kill (completed)")
            if fault_note:
                self.emu.admin("DELETE", "/emulator/faults")  # the check runs with a faultless server
                self.dropped_answer_runs += 1
        self.assess(it, workdir, users, scenario, phase, fault_note)

    def calibrate(self):
        """One uninterrupted run per scenario: its duration aims the kills, and a clean run must count 0."""
        for scenario in SCENARIOS:
            it = self.iterations = self.iterations + 1
            workdir = tempfile.mkdtemp(prefix=f"cal{it}-", dir=self.tmp)
            users = self.emu.fresh_users()
            started = time.monotonic()
            process = self.child(it, workdir, scenario, users)
            self.finish(process, started + CHILD_TIMEOUT)
            self.durations[scenario] = time.monotonic() - started
            self.assess(it, workdir, users, scenario, "no kill (calibration)")

    def assess(self, it, workdir, users, scenario, phase=None, fault_note=""):
        """Restarts on the store (check mode), judges it against the ledger and the server, records the
        counts under the phase (for kills: the step in flight), then removes the run's directory."""
        model = judge.Model(read_lines(os.path.join(workdir, "ledger")))
        phase = phase or f"kill: {model.phase()}"
        # The server before the check too: the check's sync makes the local record win, and would delete an
        # element the run added twice before the judge could see it.
        server_before = {name: self.emu.user(uuid)[0] for name, (uuid, _) in users.items()}
        report = self.check(workdir, users, model, scenario)
        server = {name: self.emu.user(uuid)[0] for name, (uuid, _) in users.items()}
        counts, notes = judge.judge(model, report, server, users, it, self.emu, server_before)
        self.record(phase, counts)
        if any(counts.values()):
            self.keep_logs(it, workdir, scenario, phase, fault_note, notes, report)
        shutil.rmtree(workdir, ignore_errors=True)

    def record(self, phase, counts):
        row = self.table.setdefault(phase, {"runs": 0, **{c: 0 for c, _ in judge.CATEGORIES}})
        row["runs"] += 1
        for category, n in counts.items():
            row[category] += n

    def keep_logs(self, it, workdir, scenario, phase, fault_note, notes, report):
        if self.kept >= KEPT_LOGS:
            return
        self.kept += 1
        target = os.path.join(LOGS, f"iter-{it}")
        os.makedirs(target, exist_ok=True)
        with open(os.path.join(target, "ledger"), "w") as f:
            f.write("\n".join(read_lines(os.path.join(workdir, "ledger"))) + "\n")
        stderr = os.path.join(workdir, "stderr")
        if os.path.exists(stderr) and os.path.getsize(stderr) > 0:
            shutil.copy(stderr, os.path.join(target, "stderr"))
        with open(os.path.join(target, "check.txt"), "w") as f:
            f.write(report["raw"])
        with open(os.path.join(target, "notes.txt"), "w") as f:
            f.write(f"scenario {scenario}\nphase {phase}\nseed {self.seed}\n{fault_note}\n" + "\n".join(notes) + "\n")

    # ---- the whole run ----

    def run(self):
        started = time.monotonic()
        shutil.rmtree(LOGS, ignore_errors=True)
        self.tmp = tempfile.mkdtemp(prefix="jump-torture-")
        try:
            self.emu = Emulator(self.emulator_binary, self.tmp)
            try:
                if self.refresh_grace:
                    self.emu.admin("POST", "/emulator/settings",
                                   {"capture_refresh_grace_seconds": int(self.refresh_grace)})
                print(f"torture: seed {self.seed}, {self.kills_wanted} kills, {self.faults_wanted} fault runs, "
                      f"emulator {self.emu.url}", flush=True)
                self.calibrate()
                budget = 3 * (self.kills_wanted + self.faults_wanted) + 10  # bounded even if kills keep missing
                while (self.kills < self.kills_wanted or self.fault_runs < self.faults_wanted) and budget > 0:
                    if time.monotonic() - started > self.time_limit:
                        print(f"torture: time limit {self.time_limit}s reached; stopping early", flush=True)
                        break
                    budget -= 1
                    kills_left = max(0, self.kills_wanted - self.kills)
                    faults_left = max(0, self.faults_wanted - self.fault_runs)
                    kind = "fault" if self.rng.random() * (kills_left + faults_left) < faults_left else "kill"
                    self.iteration(kind)
                    if self.iterations % 50 == 0:
                        print(f"  ... {self.iterations} runs, {self.kills} kills, {self.fault_runs} fault runs, "
                              f"{self.violations()} violations, {time.monotonic() - started:.0f}s", flush=True)
            finally:
                self.emu.stop()
        finally:
            for path, dirs, _ in os.walk(self.tmp):  # a read-only store left behind must not stop the cleanup
                for d in dirs:
                    os.chmod(os.path.join(path, d), 0o700)
            shutil.rmtree(self.tmp, ignore_errors=True)
        return self.report(time.monotonic() - started)

    def violations(self):
        return sum(row[c] for row in self.table.values() for c, _ in judge.CATEGORIES)

    def report(self, elapsed):
        heads = [("runs", "runs")] + [(c, c.replace("_", " ")) for c, _ in judge.CATEGORIES]
        width = max(len(p) for p in self.table) + 2 if self.table else 10
        lines = ["phase".ljust(width) + "".join(h.rjust(max(len(h), 5) + 2) for _, h in heads)]
        total = {c: 0 for c, _ in heads}
        order = sorted(self.table, key=lambda p: (p.startswith("fault"), p.startswith("no kill"), p))
        for phase in order:
            row = self.table[phase]
            lines.append(phase.ljust(width) + "".join(str(row[c]).rjust(max(len(h), 5) + 2) for c, h in heads))
            for c, _ in heads:
                total[c] += row[c]
        lines.append("total".ljust(width) + "".join(str(total[c]).rjust(max(len(h), 5) + 2) for c, h in heads))
        lines.append("")
        for c, name in judge.CATEGORIES:
            lines.append(f"{name:28} {total[c]}")
        lines.append("")
        lines.append(f"runs {self.iterations} (kills {self.kills}, fault runs {self.fault_runs} with "
                     f"{self.injected} injected failures, hung children {self.hung}; {self.dropped_answer_runs} appends "
                     f"runs with entity.update answers dropped), elapsed {elapsed:.0f}s, "
                     f"seed {self.seed} (TORTURE_SEED={self.seed} repeats the choices)")
        if self.kept:
            lines.append(f"ledgers and check output of {self.kept} failing runs: {os.path.relpath(LOGS, ROOT)}/")
        problems = self.violations() + self.hung
        if self.fault_runs > 0 and self.injected == 0:
            lines.append("the fault shim injected nothing: it does not intercept libjump's calls")
            problems += 1
        lines.append(f"torture: {self.kills} kills, {self.fault_runs} faults, {self.violations()} violations")
        text = "\n".join(lines) + "\n"
        print(text, end="")
        os.makedirs(os.path.dirname(REPORT), exist_ok=True)
        with open(REPORT, "w") as f:
            f.write(text)
        return 1 if problems else 0


def main():
    for binary in (DRIVER, SHIM):
        if not os.path.exists(binary):
            sys.exit(f"torture: {binary} is missing (run through Tests/torture/run.sh)")
    problems = judge_selftest.selftest()  # the judge must count fabricated violations before it judges
    if problems:
        sys.exit("\n".join(problems))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the cleanup in `finally`
    try:
        sys.exit(Torture().run())
    except EmulatorError as error:
        sys.exit(f"torture: {error}")


if __name__ == "__main__":
    main()
