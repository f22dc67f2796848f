"""What run.py and check.py share: reading scenarios.json and outcome lines, and saying how an outcome differs
from the expected one (exactly: a missing or extra key is a difference, lists compare in order)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCENARIOS = HERE / "scenarios.json"


def load_scenarios() -> Dict[str, Any]:
    with open(SCENARIOS, encoding="utf-8") as f:
        return json.load(f)


def scenario_names(document: Dict[str, Any]) -> List[str]:
    return [s["name"] for s in document["scenarios"]]


def expected(document: Dict[str, Any]) -> Dict[str, Any]:
    return {s["name"]: s["expect"] for s in document["scenarios"]}


def stale_status_list(document: Dict[str, Any]) -> Optional[str]:
    """status_errors must list every failure status of include/jump_api.json: say so when it no longer does."""
    with open(ROOT / "include" / "jump_api.json", encoding="utf-8") as f:
        api = json.load(f)
    wanted = [{"name": s["name"], "code": s["value"]} for s in api["statuses"] if s["value"] < 0]
    for scenario in document["scenarios"]:
        if scenario["name"] == "status_errors":
            if scenario["input"]["statuses"] != wanted:
                return "status_errors' input.statuses differs from the failure statuses of include/jump_api.json"
            if scenario["expect"]["names"] != [s["name"] for s in wanted]:
                return "status_errors' expect.names differs from its input.statuses"
    return None


def _same_number(a: Any, b: Any) -> bool:
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b


def differences(expect: Any, actual: Any, path: str = "") -> List[str]:
    """Every place where actual differs from expect, as "path: expected X, got Y" lines."""
    where = path or "outcome"
    if isinstance(expect, dict) and isinstance(actual, dict):
        found: List[str] = []
        for key in expect:
            if key not in actual:
                found.append(f"{path}.{key}: missing (expected {json.dumps(expect[key])})".lstrip("."))
            else:
                found.extend(differences(expect[key], actual[key], f"{path}.{key}".lstrip(".")))
        for key in actual:
            if key not in expect:
                found.append(f"{path}.{key}: not expected (got {json.dumps(actual[key])})".lstrip("."))
        return found
    if isinstance(expect, list) and isinstance(actual, list) and len(expect) == len(actual):
        found = []
        for index, (e, a) in enumerate(zip(expect, actual)):
            found.extend(differences(e, a, f"{path}[{index}]"))
        return found
    if isinstance(expect, bool) or isinstance(actual, bool):
        same = type(expect) is type(actual) and expect == actual
    else:
        same = _same_number(expect, actual) or (type(expect) is type(actual) and expect == actual)
    return [] if same else [f"{where}: expected {json.dumps(expect)}, got {json.dumps(actual)}"]


def parse_outcome_lines(text: str) -> Dict[str, Dict[str, Any]]:
    """The {"scenario", "outcome"|"error"} lines of a runner's stdout (or an --out file), by scenario name.
    Other lines are ignored (a runner may not print them, but a stray line must not hide the others)."""
    found: Dict[str, Dict[str, Any]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("scenario"), str):
            found[value["scenario"]] = value
    return found


def verdict(name: str, expect: Any, line: Optional[Dict[str, Any]]) -> List[str]:
    """Why the runner's line for scenario name does not match expect ([] when it does)."""
    if line is None:
        return ["no outcome line"]
    if "error" in line:
        return [f"runner error: {line['error']}"]
    if "outcome" not in line:
        return ["the line has no \"outcome\""]
    return differences(expect, line["outcome"])
