"""The conformance suite (Tests/conformance): every scenario of scenarios.json played by this binding's runner
(conformance_runner.py) through Tests/conformance/run.py, one test per scenario. run.py starts its own
emulator and compares each outcome with the scenario's "expect"; its output is saved in
build/conformance/python.jsonl for Tests/conformance/check.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict

import pytest

ROOT = Path(__file__).resolve().parents[3]
CONFORMANCE = ROOT / "Tests" / "conformance"
NAMES = [s["name"] for s in json.loads((CONFORMANCE / "scenarios.json").read_text())["scenarios"]]


@pytest.fixture(scope="module")
def verdicts() -> Dict[str, str]:
    """run.py's PASS/FAIL line of each scenario (one run, one emulator, for the whole module)."""
    done = subprocess.run(
        [sys.executable, str(CONFORMANCE / "run.py"), "python", "--out", str(ROOT / "build" / "conformance" / "python.jsonl"),
         "--", sys.executable, str(Path(__file__).with_name("conformance_runner.py"))],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    found = {}
    for line in done.stdout.splitlines():
        match = re.match(r"^(PASS|FAIL) (\S+)", line)
        if match:
            found[match.group(2)] = line
    assert found, f"run.py printed no verdict (exit {done.returncode}):\n{done.stdout}\n{done.stderr[-4000:]}"
    found["_stderr"] = done.stderr
    return found


@pytest.mark.parametrize("scenario", NAMES)
def test_conformance(verdicts: Dict[str, str], scenario: str) -> None:
    line = verdicts.get(scenario, f"FAIL {scenario}: no verdict from run.py")
    assert line.startswith("PASS "), f"{line}\nrunner stderr:\n{verdicts['_stderr'][-4000:]}"
