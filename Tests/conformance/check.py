#!/usr/bin/env python3
"""Checks saved conformance outcomes (run.py --out FILE, one file per binding) against scenarios.json's
"expect", and, given several files, that the bindings agree with each other.

    python3 Tests/conformance/check.py build/conformance/python.jsonl build/conformance/node.jsonl ...

One line per scenario and file ("PASS"/"FAIL"), one per scenario where the files disagree ("DIFFER"), then
"N passed, N failed" counting scenarios: a scenario passes when every file has its outcome, every outcome
matches "expect" and all of them agree. A file that does not exist counts as one without any outcome. Exits
non-zero on any difference or missing scenario."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Set

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import differences, expected, load_scenarios, parse_outcome_lines, scenario_names, \
    stale_status_list, verdict  # noqa: E402


def main(paths: List[str]) -> int:
    if not paths:
        print(__doc__)
        return 2
    document = load_scenarios()
    problems = 0
    stale = stale_status_list(document)
    if stale:
        print(f"FAIL scenarios.json: {stale}")
        problems += 1
    names = scenario_names(document)
    expect = expected(document)
    outcomes: Dict[str, Dict[str, Dict[str, Any]]] = {}
    failed: Set[str] = set()
    for path in paths:
        if not Path(path).is_file():
            print(f"FAIL [{path}]: no such file (that binding saved no outcomes)")
        outcomes[path] = parse_outcome_lines(Path(path).read_text(encoding="utf-8")) if Path(path).is_file() else {}
        for name in names:
            why = verdict(name, expect[name], outcomes[path].get(name))
            problems += bool(why)
            if why:
                failed.add(name)
            print(f"{'FAIL' if why else 'PASS'} {name} [{path}]" + (": " + "; ".join(why) if why else ""))
        for extra in sorted(set(outcomes[path]) - set(names)):
            print(f"FAIL {extra} [{path}]: not a scenario of scenarios.json")
            problems += 1
    # Agreement: the same facts from every binding (also where all of them differ from "expect" alike).
    first = paths[0]
    for other in paths[1:]:
        for name in names:
            a, b = outcomes[first].get(name), outcomes[other].get(name)
            if a is None or b is None:
                continue  # already reported as missing
            disagree = differences(a.get("outcome", a.get("error")), b.get("outcome", b.get("error")))
            if disagree:
                problems += 1
                failed.add(name)
                print(f"DIFFER {name} [{first} vs {other}]: " + "; ".join(disagree))
    print(f"{'ok' if not problems else str(problems) + ' problem(s)'}: {len(paths)} file(s), {len(names)} scenarios")
    print(f"{len(names) - len(failed)} passed, {len(failed)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
