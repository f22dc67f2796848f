#!/usr/bin/env bash
# The Go binding's suite: go vet, then `go test` of bindings/go against a real jump-emulator, which the tests
# start ($JUMP_EMULATOR, default build/bin/jump-emulator; they also build and run the examples of examples/go),
# then the conformance scenarios (Tests/conformance/run.py with the Go runner, bindings/go/conformance).
# Ends with "N passed, N failed[, N skipped]" (the top-level tests of `go test -v` plus one per scenario), which
# scripts/run-tests.sh reads. Builds against the source tree (env.sh says how).
set -uo pipefail
. "$(dirname "$0")/env.sh"
export JUMP_EMULATOR=${JUMP_EMULATOR:-$root/build/bin/jump-emulator} JUMP_LIBRARY_PATH=$lib
go_env_ready || { echo "0 passed, 1 failed"; exit 1; }
cd "$root/bindings/go"
log=$out/test.log
status=0
go vet ./... && (cd "$root/examples/go" && go vet ./...) || status=1
# -race: the binding's own state (handles, counters, event queues) is shared with libjump's threads, and the
# tests drive it from 1 000 goroutines; the detector fails the run on any data race. -p 1: one test binary
# at a time (the machine is shared).
go test -race -v -count=1 -p 1 -timeout 900s ./... 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
passed=$(grep -cE '^--- PASS' "$log")
failed=$(grep -cE '^--- FAIL' "$log")
skipped=$(grep -cE '^--- SKIP' "$log")

# The conformance suite (JUMP_CONFORMANCE_DIR: another checkout's Tests/conformance, to try it before a merge).
conformance=${JUMP_CONFORMANCE_DIR:-$root/Tests/conformance}
if [ -f "$conformance/run.py" ]; then
    echo "=== conformance (Go runner) ==="
    if go build -o "$out/bin/jump-conformance" ./conformance; then
        # The outcomes are saved for Tests/conformance/check.py, as the other bindings' hooks save theirs.
        mkdir -p "$root/build/conformance"
        python3 "$conformance/run.py" go --out "$root/build/conformance/go.jsonl" -- "$out/bin/jump-conformance" 2>&1 |
            tee "$out/conformance.log"
        [ "${PIPESTATUS[0]}" = 0 ] || status=1
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/conformance.log" | tail -1)
        passed=$((passed + $(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line" | grep . || echo 0)))
        failed=$((failed + $(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/p' <<<"$line" | grep . || echo 1)))
    else
        status=1
        failed=$((failed + 1))
    fi
else
    echo "SKIP conformance: $conformance/run.py is not in this checkout"
    skipped=$((skipped + 1))
fi
[ "$status" != 0 ] && [ "$failed" = 0 ] && failed=1  # a vet failure, a build failure or a crash
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
