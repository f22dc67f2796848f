"""How the ABI checkers that also run alone (check_generated.py, check_coverage.py) print their results: a
PASS/FAIL line each (a failure's detail indented below it), then "N passed, N failed", as check_abi.py does."""


def print_results(results):
    """results: [(ok, label, detail)]. Returns the exit status (0 when all passed)."""
    for ok, label, detail in results:
        print(("PASS " if ok else "FAIL ") + label + ((": " + detail) if ok and detail else ""))
        if detail and not ok:
            print("\n".join("    " + line for line in detail.splitlines()))
    passed = sum(1 for ok, _, _ in results if ok)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1
