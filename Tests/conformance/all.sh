#!/usr/bin/env bash
# The conformance suite across every binding (`make conformance`, and the `conformance` suite of
# scripts/run-tests.sh): each binding's runner plays every scenario of scenarios.json (run.py, one emulator per
# binding), saving build/conformance/<binding>.jsonl, then check.py compares the six files with "expect" and
# with each other. Exits non-zero when a scenario fails anywhere, two bindings disagree, or a binding has no
# outcome for a scenario. Ends with check.py's "N passed, N failed" (per scenario: passed when every binding
# has it, matches "expect" and agrees with the others).
#
# Fresh outcomes only: a binding's file is reused only when it is newer than $JUMP_CONFORMANCE_SINCE, a stamp
# file that scripts/run-tests.sh touches when it starts (its binding suites save these files through their
# conformance hooks, so `make test` does not play the scenarios twice); otherwise, and always under
# `make conformance`, the binding's runner is built (as its suite builds it) and played again.
#   Usage: Tests/conformance/all.sh [BINDING...]     (default: python node csharp go java rust)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
export JUMP_LIBRARY_PATH=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
export JUMP_EMULATOR=${JUMP_EMULATOR:-$here/build/bin/jump-emulator}
out=$here/build/conformance
mkdir -p "$out"
bindings=("$@")
((${#bindings[@]})) || bindings=(python node csharp go java rust)
since=${JUMP_CONFORMANCE_SINCE:-}

# Builds what a binding's runner command (runners/<binding>.json) needs; go and rust build in their command.
prepare() {
    case "$1" in
        # the addon only (-o: never rebuild libjump here)
        node) make --no-print-directory -s -o "$JUMP_LIBRARY_PATH" build/node/jump.node ;;
        csharp) bash bindings/csharp/build.sh >&2 ;;
        java) bash bindings/java/build.sh >&2 ;;
        *) true ;;
    esac
}

files=()
status=0
for binding in "${bindings[@]}"; do
    file=$out/$binding.jsonl
    files+=("$file")
    if [ -n "$since" ] && [ -f "$since" ] && [ "$file" -nt "$since" ]; then
        echo "=== conformance: $binding (its suite's outcomes of this run: ${file#$here/}) ==="
        continue
    fi
    echo "=== conformance: $binding (fresh run) ==="
    rm -f "$file" # a failed build must not leave an older file to compare
    if ! prepare "$binding"; then
        echo "could not build the $binding runner"
        status=1
        continue
    fi
    python3 Tests/conformance/run.py "$binding" --out "$file" || status=1
done
echo "=== conformance: comparison (check.py) ==="
python3 Tests/conformance/check.py "${files[@]}" || status=1
exit $status
