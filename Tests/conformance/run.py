#!/usr/bin/env python3
"""Plays one binding's conformance runner against a real jump-emulator (see README.md, the runner contract).

    python3 Tests/conformance/run.py BINDING [--scenario NAME]... [--out FILE] [-- COMMAND ARG...]

One emulator per run, reset before each scenario; the runner runs once per scenario (the name as its last
argument) and prints one outcome line, which is compared with the scenario's "expect"."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import HERE, ROOT, SCENARIOS, expected, load_scenarios, parse_outcome_lines, scenario_names, \
    stale_status_list, verdict  # noqa: E402

RUNNER_TIMEOUT = 120


class Emulator:
    """A jump-emulator on a free loopback port with its own database (as the bindings' test suites start one)."""

    def __init__(self, binary: Path) -> None:
        self.workdir = tempfile.mkdtemp(prefix="jump-conformance-emu-")
        self.log = open(os.path.join(self.workdir, "emulator.log"), "wb")
        self.process = subprocess.Popen(
            [str(binary), "--port", "0", "--db", os.path.join(self.workdir, "emu.sqlite"), "--password-hash-cost", "4"],
            stdout=subprocess.PIPE, stderr=self.log)
        box: Dict[str, str] = {}
        started = threading.Event()

        def read_first_line() -> None:
            assert self.process.stdout is not None
            box["url"] = self.process.stdout.readline().decode("utf-8").strip()
            started.set()
            for _ in self.process.stdout:  # keep draining so that the emulator never blocks on a full pipe
                pass

        threading.Thread(target=read_first_line, daemon=True).start()
        started.wait(60)
        self.url = box.get("url", "").rstrip("/")
        if not self.url.startswith("http"):
            self.stop()
            raise SystemExit(f"jump-emulator did not print its URL; log: {self.log_tail()}")

    def admin(self, method: str, path: str) -> None:
        request = urllib.request.Request(self.url + path, method=method, data=b"" if method == "POST" else None)
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()

    def reset(self) -> None:
        self.admin("POST", "/emulator/reset")
        self.admin("DELETE", "/emulator/faults")
        self.admin("DELETE", "/emulator/counters")

    def log_tail(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-2000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.workdir, ignore_errors=True)


def runner_command(binding: str, given: List[str]) -> List[str]:
    if given:
        return given
    spec = HERE / "runners" / f"{binding}.json"
    if not spec.exists():
        raise SystemExit(f"no runner command for '{binding}': pass it after --, or add {spec.relative_to(ROOT)}")
    with open(spec, encoding="utf-8") as f:
        return list(json.load(f)["command"])


def play(command: List[str], name: str, emulator: Emulator) -> Dict[str, Any]:
    """Runs the runner for one scenario; its outcome line, or {"scenario", "error"} saying why there is none."""
    tmp = tempfile.mkdtemp(prefix=f"jump-conformance-{name}-")
    os.mkdir(os.path.join(tmp, "storage"))
    env = dict(os.environ, JUMP_EMULATOR_URL=emulator.url, JUMP_CONFORMANCE_SCENARIOS=str(SCENARIOS),
               JUMP_CONFORMANCE_TMP=tmp)
    # The library's directory first on the loader's path: Mono's dllmap (libjump.so.1), cgo and Rust find it there.
    library_dir = os.path.dirname(os.environ["JUMP_LIBRARY_PATH"])
    env["LD_LIBRARY_PATH"] = library_dir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env.pop("JUMP_EMULATOR_HOST", None)
    try:
        done = subprocess.run(command + [name], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=RUNNER_TIMEOUT)
    except subprocess.TimeoutExpired as timeout:
        sys.stderr.write((timeout.stderr or b"").decode("utf-8", "replace"))
        return {"scenario": name, "error": f"the runner did not finish within {RUNNER_TIMEOUT} s"}
    except OSError as exc:
        return {"scenario": name, "error": f"could not start the runner {command}: {exc}"}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    stderr = done.stderr.decode("utf-8", "replace")
    line = parse_outcome_lines(done.stdout.decode("utf-8", "replace")).get(name)
    if done.returncode != 0 or line is None:
        sys.stderr.write(stderr[-4000:])
        why = f"the runner exited with status {done.returncode}" if done.returncode != 0 else "no outcome line"
        return {"scenario": name, "error": why if line is None else f"{why}; its line: {json.dumps(line)}"}
    if stderr.strip():
        sys.stderr.write(stderr[-4000:])
    return line


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    given: List[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, given = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binding")
    parser.add_argument("--scenario", action="append", default=[])
    parser.add_argument("--out")
    args = parser.parse_args(argv)

    document = load_scenarios()
    stale = stale_status_list(document)
    if stale:
        print(f"scenarios.json is stale: {stale}")
        return 1
    names = scenario_names(document)
    unknown = [n for n in args.scenario if n not in names]
    if unknown:
        print(f"unknown scenario(s): {', '.join(unknown)} (known: {', '.join(names)})")
        return 2
    wanted = args.scenario or names
    command = runner_command(args.binding, given)
    os.environ.setdefault("JUMP_LIBRARY_PATH", str(ROOT / "build" / "lib" / "libjump.so"))
    os.environ["JUMP_LIBRARY_PATH"] = os.path.abspath(os.environ["JUMP_LIBRARY_PATH"])
    binary = Path(os.environ.get("JUMP_EMULATOR") or ROOT / "build" / "bin" / "jump-emulator")
    if not binary.exists():
        print(f"jump-emulator not found at {binary} (set JUMP_EMULATOR)")
        return 2

    expect = expected(document)
    emulator = Emulator(binary)
    lines: List[Dict[str, Any]] = []
    failed = 0
    try:
        for name in wanted:
            emulator.reset()
            started = time.monotonic()
            line = play(command, name, emulator)
            lines.append(line)
            problems = verdict(name, expect[name], line)
            took = f"({time.monotonic() - started:.1f} s)"
            if problems:
                failed += 1
                print(f"FAIL {name} {took}: " + "; ".join(problems), flush=True)
            else:
                print(f"PASS {name} {took}", flush=True)
    finally:
        emulator.stop()
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, sort_keys=True) + "\n")
    print(f"{len(wanted) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
