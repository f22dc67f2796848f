#!/usr/bin/env bash
# Runs the test suites (default: all of swift, c, python, node, csharp, abi, install) against the built
# libjump.so and jump-emulator, prints each suite's own output, then one summary line per suite and a total.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
export JUMP_LIBRARY_PATH=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
export JUMP_EMULATOR=${JUMP_EMULATOR:-$here/build/bin/jump-emulator}
logs=$here/build/test-logs
mkdir -p "$logs"
suites=("$@")
((${#suites[@]})) || suites=(swift c python node csharp abi install)

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
        # Tests/serverapi: the owner API driven by janrain-python-api (fetched by ensure-deps.sh --test).
        python) ensure_pytest && python3 -m pytest -q -p no:cacheprovider bindings/python/tests Tests/serverapi ;;
        # The Node.js binding: builds its addon (make rule, plain cc), then Node's own runner (no npm packages);
        # each test file starts its own emulator. TAP output, whose "# pass N" / "# fail N" count_suite reads.
        node) ensure_node && make --no-print-directory -s build/node/jump.node &&
              node --test --test-reporter=tap --test-timeout=60000 bindings/node/test/*.test.js ;;
        abi) python3 Tests/abi/check_abi.py ;;
        install) bash Tests/install/run.sh ;;
        # The C# binding under Mono; ends with "N passed, N failed" like c and abi.
        csharp) bash bindings/csharp/run-tests.sh ;;
        *) echo "unknown suite '$1'"; return 2 ;;
    esac
}

# "passed failed" counts read from a suite's own closing lines.
count_suite() {
    local suite=$1 log=$2 passed=0 failed=0 line
    case "$suite" in
        swift)
            line=$(grep -E "Test run with [0-9]+ tests?" "$log" | tail -1)
            local total=$(sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p' <<<"$line")
            failed=$(grep -E "^✘ Test " "$log" | grep -E " failed after " | wc -l)
            passed=$(( ${total:-0} - failed ))
            ;;
        python)
            line=$(grep -E "[0-9]+ (passed|failed|error)" "$log" | tail -1)
            passed=$(grep -oE "[0-9]+ passed" <<<"$line" | grep -oE "[0-9]+" || echo 0)
            failed=$(( $(grep -oE "[0-9]+ failed" <<<"$line" | grep -oE "[0-9]+" || echo 0) + $(grep -oE "[0-9]+ errors?" <<<"$line" | grep -oE "[0-9]+" || echo 0) ))
            ;;
        node)
            passed=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$log" | tail -1)
            failed=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$log" | tail -1)
            # tests stopped by --test-timeout are "cancelled", not "fail": they failed all the same
            failed=$(( ${failed:-0} + $(sed -nE 's/^# cancelled ([0-9]+)$/\1/p' "$log" | tail -1 | grep . || echo 0) ))
            ;;
        *)
            line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
            passed=$(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line")
            failed=$(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/p' <<<"$line")
            ;;
    esac
    echo "${passed:-0} ${failed:-0}"
}

total_passed=0
total_failed=0
summary=()
status=0
for suite in "${suites[@]}"; do
    echo "=== $suite tests ==="
    log=$logs/$suite.log
    run_suite "$suite" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    read -r passed failed <<<"$(count_suite "$suite" "$log")"
    if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi  # a suite that crashed counts as a failure
    [ "$rc" != 0 ] && status=1
    total_passed=$((total_passed + passed))
    total_failed=$((total_failed + failed))
    summary+=("$(printf '%-7s %4d passed, %d failed%s' "$suite" "$passed" "$failed" "$([ "$rc" != 0 ] && echo " (exit $rc)")")")
done
echo
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
echo "total: $total_passed passed, $total_failed failed"
exit $status
