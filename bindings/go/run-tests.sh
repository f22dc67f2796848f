#!/usr/bin/env bash
# The Go binding's suite: go vet, then `go test` of bindings/go against a real jump-emulator, which the tests
# start ($JUMP_EMULATOR, default build/bin/jump-emulator); they also build and run the examples (examples/go).
# Ends with "N passed, N failed" (the top-level tests of `go test -v`), which scripts/run-tests.sh reads.
# Builds against the source tree (env.sh says how).
set -uo pipefail
. "$(dirname "$0")/env.sh"
export JUMP_EMULATOR=${JUMP_EMULATOR:-$root/build/bin/jump-emulator}
go_env_ready || { echo "0 passed, 1 failed"; exit 1; }
cd "$root/bindings/go"
log=$out/test.log
status=0
go vet ./... && (cd "$root/examples/go" && go vet ./...) || status=1
# -p 1: one test binary at a time (the machine is shared).
go test -v -count=1 -p 1 -timeout 900s ./... 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
passed=$(grep -cE '^--- PASS' "$log")
failed=$(grep -cE '^--- FAIL' "$log")
[ "$status" != 0 ] && [ "$failed" = 0 ] && failed=1  # a vet failure, a build failure or a crash
echo "$passed passed, $failed failed"
exit $status
