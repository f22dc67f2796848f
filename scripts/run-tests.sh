#!/usr/bin/env bash
# Runs the test suites (default: all of swift, c, python, node, csharp, go, java, rust, conformance, abi, install, docs) against the built
# libjump.so and jump-emulator, prints each suite's own output, then one summary line per suite and a total.
# A summary line counts the suite's skipped tests and, when there are any, names why (the runner's own reasons):
#   python   285 passed, 0 failed, 2 skipped (selenium is not installed; mypy is not installed)
# After the suites, "hygiene" compares `git status` with a snapshot taken before them: a file the run left behind
# (untracked and not ignored, or changed) fails it, by name (Tests/abi/check_hygiene.py).
# The last line is "total: N passed, N failed, N skipped". `make test` installs what the tests need first
# (scripts/ensure-deps.sh --test), so that nothing is skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
export JUMP_LIBRARY_PATH=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
export JUMP_EMULATOR=${JUMP_EMULATOR:-$here/build/bin/jump-emulator}
logs=$here/build/test-logs
mkdir -p "$logs"
suites=("$@")
((${#suites[@]})) || suites=(swift c python node csharp go java rust conformance abi install docs)
# The conformance suite reuses the outcome files the binding suites of this run saved (newer than this stamp).
touch "$logs/run-started"
export JUMP_CONFORMANCE_SINCE=$logs/run-started

ensure_pytest() {
    python3 -c "import pytest" 2>/dev/null && return 0
    if [ "$(id -u)" = 0 ]; then
        python3 -m pip install -q pytest >/dev/null && return 0
    fi
    echo "pytest is missing; run: python3 -m pip install pytest" >&2
    return 1
}

# The node suite needs Node.js and its headers (node_api.h, uv.h): `scripts/ensure-deps.sh --test` installs them.
ensure_node() {
    command -v node >/dev/null && [ -f "${NODE_INCLUDE:-/usr/include/node}/node_api.h" ] && return 0
    echo "Node.js (>= 18, with its headers in ${NODE_INCLUDE:-/usr/include/node}) is missing; run scripts/ensure-deps.sh --test (nodejs, libnode-dev)" >&2
    return 1
}

run_suite() {
    case "$1" in
        swift) swift test 2>&1 ;;
        c) bash Tests/c/run.sh ;;
        # Tests/emulator: the emulator's own HTTP tests (no libjump); Tests/serverapi: the owner API driven by
        # janrain-python-api (fetched by ensure-deps.sh --test).
        # -rs: a "SKIPPED [N] file:line: reason" line per skip, which skip_reasons reads.
        python) ensure_pytest && python3 -m pytest -q -rs -p no:cacheprovider bindings/python/tests Tests/emulator Tests/serverapi ;;
        # The Node.js binding: builds its addon (make rule, plain cc), then Node's own runner (no npm packages);
        # each test file starts its own emulator. TAP output, whose "# pass N" / "# fail N" count_suite reads.
        node) ensure_node && make --no-print-directory -s build/node/jump.node &&
              node --test --test-reporter=tap --test-timeout=60000 bindings/node/test/*.test.js ;;
        abi) python3 Tests/abi/check_abi.py ;;
        install) bash Tests/install/run.sh ;;
        # The C# binding under Mono; ends with "N passed, N failed" like c and abi.
        csharp) bash bindings/csharp/run-tests.sh ;;
        hygiene) python3 Tests/abi/check_hygiene.py compare "$logs/tree-before.json" ;;
        # README.md against the tree (its tables of make targets, bindings and folders, its length, its links,
        # and a self-test of each check); builds nothing. Ends with "N passed, N failed".
        docs) python3 scripts/check-docs.py ;;
        # The Rust binding with each Rust toolchain there is; ends with "N passed, N failed" too.
        rust) bash bindings/rust/run-tests.sh ;;
        # The Java binding (javac + the JNI glue built with cc); ends with "N passed, N failed" too.
        java) bash bindings/java/run-tests.sh ;;
        # The Go binding (cgo, go test against the emulator, examples/go, the conformance scenarios); ends with
        # "N passed, N failed, N skipped".
        go) bash bindings/go/run-tests.sh ;;
        # Tests/conformance across the six bindings: their outcome files (this run's, else a fresh run of each
        # runner), then check.py; ends with "N passed, N failed", one per scenario that every binding played
        # alike and as expected.
        conformance) bash Tests/conformance/all.sh ;;
        *) echo "unknown suite '$1'"; return 2 ;;
    esac
}

# "passed failed skipped" counts read from a suite's own closing lines.
count_suite() {
    local suite=$1 log=$2 passed=0 failed=0 skipped=0 line
    case "$suite" in
        swift)
            # swift-testing counts a skipped test (".enabled(if:)" false, ".disabled") in "Test run with N tests"
            # and prints "Test name() skipped[: "reason"]" for it.
            line=$(grep -E "Test run with [0-9]+ tests?" "$log" | tail -1)
            local total=$(sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p' <<<"$line")
            failed=$(grep -E "^✘ Test " "$log" | grep -vE "^✘ Test run with " | grep -E " failed after " | wc -l)
            skipped=$(grep -cE "^.{0,4}(Test|Suite) .+ skipped(: \".*\")?\.?$" "$log")
            passed=$(( ${total:-0} - failed - $(grep -cE "^.{0,4}Test .+ skipped(: \".*\")?\.?$" "$log") ))
            ;;
        python)
            # pytest's closing line, e.g. "285 passed, 2 skipped, 1 error in 40.1s"
            line=$(grep -E "^(=+ )?[0-9]+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?)\b.* in [0-9.]+s" "$log" | tail -1)
            passed=$(grep -oE "[0-9]+ passed" <<<"$line" | grep -oE "[0-9]+" || echo 0)
            failed=$(( $(grep -oE "[0-9]+ failed" <<<"$line" | grep -oE "[0-9]+" || echo 0) + $(grep -oE "[0-9]+ errors?" <<<"$line" | grep -oE "[0-9]+" || echo 0) ))
            skipped=$(grep -oE "[0-9]+ skipped" <<<"$line" | grep -oE "[0-9]+" || echo 0)
            ;;
        node)
            passed=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$log" | tail -1)
            failed=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$log" | tail -1)
            # tests stopped by --test-timeout are "cancelled", not "fail": they failed all the same
            failed=$(( ${failed:-0} + $(sed -nE 's/^# cancelled ([0-9]+)$/\1/p' "$log" | tail -1 | grep . || echo 0) ))
            skipped=$(sed -nE 's/^# skip(ped)? ([0-9]+)$/\2/p' "$log" | tail -1)  # "# skipped N" since Node.js 20
            ;;
        *)
            # c, abi, install, csharp, go, java, rust, conformance, docs and hygiene end with "N passed, N failed" (go's adds
            # ", N skipped"; the others' runners cannot skip a test).
            line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
            passed=$(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line")
            failed=$(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/p' <<<"$line")
            skipped=$(sed -nE 's/^[0-9]+ passed, [0-9]+ failed, ([0-9]+) skipped.*/\1/p' <<<"$line")
            ;;
    esac
    echo "${passed:-0} ${failed:-0} ${skipped:-0}"
}

# Why a suite's tests were skipped, from its runner's own lines: each reason once, shortened to what comes
# before its first " (" or "; ", paths relative to the checkout (the full text, with the command that fixes it,
# is in the suite's output).
skip_reasons() {
    local suite=$1 log=$2
    case "$suite" in
        # "SKIPPED [2] bindings/python/tests/test_typing.py:27: mypy is not installed (python3 -m pip install mypy)"
        python) sed -nE 's/^SKIPPED \[[0-9]+\] [^ ]+: (.*)$/\1/p' "$log" ;;
        # TAP: "ok 3 - name # SKIP reason" (indented for subtests); a skip without a reason names the test.
        node) sed -nE 's/^ *ok [0-9]+ - (.*) # SKIP *$/\1, no reason given/p; s/^ *ok [0-9]+ - .* # SKIP +(.+)$/\1/p' "$log" ;;
        # "skip conformance: no Tests/conformance in this checkout (set JUMP_CONFORMANCE_DIR)"
        rust) sed -nE 's/^skip [^:]+: (.*)$/\1/p' "$log" ;;
        # "SKIP conformance: .../Tests/conformance/run.py is not in this checkout"; go test's own "--- SKIP" lines
        # are followed by the test's t.Skip text.
        go) sed -nE 's/^SKIP (.*)$/\1/p; /^--- SKIP/{n; s/^ +[^ ]+:[0-9]+: (.*)$/\1/p}' "$log" ;;
        swift) sed -nE 's/^.{0,4}(Test|Suite) .+ skipped: "(.*)"$/\2/p; s/^.{0,4}(Test|Suite) (.+) skipped\.$/\2, no reason given/p' "$log" ;;
        # "skip ConformanceTests.every_scenario_has_a_test: the conformance suite (...) is not in this checkout"
        java) sed -nE 's/^skip [^:]+: (.*)$/\1/p' "$log" ;;
    esac | sed -E "s/ \\(.*|; .*//; s|$here/||g" | awk 'NF && !seen[$0]++' | paste -sd ';' | sed 's/;/; /g'
}

total_passed=0
total_failed=0
total_skipped=0
summary=()
status=0
python3 Tests/abi/check_hygiene.py snapshot "$logs/tree-before.json"
for suite in "${suites[@]}" hygiene; do
    echo "=== $suite tests ==="
    log=$logs/$suite.log
    run_suite "$suite" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    read -r passed failed skipped <<<"$(count_suite "$suite" "$log")"
    if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi  # a suite that crashed counts as a failure
    [ "$rc" != 0 ] && status=1
    total_passed=$((total_passed + passed))
    total_failed=$((total_failed + failed))
    total_skipped=$((total_skipped + skipped))
    why=
    if [ "$skipped" != 0 ]; then
        why=$(skip_reasons "$suite" "$log")
        why=" (${why:-reasons in build/test-logs/$suite.log})"
    fi
    summary+=("$(printf '%-7s %4d passed, %d failed, %d skipped%s%s' "$suite" "$passed" "$failed" "$skipped" "$why" \
        "$([ "$rc" != 0 ] && echo " (exit $rc)")")")
done
echo
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
echo "total: $total_passed passed, $total_failed failed, $total_skipped skipped"
exit $status
