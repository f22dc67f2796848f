#!/usr/bin/env bash
# Per-call overhead of the Go binding: Client.IsSignedIn vs a cgo call of a static C no-op in the same package
# (bench_test.go), 11 rounds of BENCH_GO_CALLS calls each (default 2 000 000); prints the median ns per call:
#   Noop <ns> ns/call
#   Raw <ns> ns/call         (jump_client_is_signed_in called straight through cgo, no wrapper)
#   IsSignedIn <ns> ns/call
# Run by benchmarks/run.sh (`make bench`). Builds against the source tree (env.sh).
set -euo pipefail
. "$(dirname "$0")/env.sh"
go_env_ready >&2
cd "$root/bindings/go"
# One test binary, run 11 times: each run measures both, so the rounds of the two interleave and a change in
# the machine's load falls on both alike.
go test -c -o "$out/bin/jump-go.test" .
results=$(for round in $(seq 11); do
    JUMP_GO_NO_EMULATOR=1 "$out/bin/jump-go.test" -test.run '^$' -test.bench '^Benchmark(IsSignedIn|Raw|Noop)$' \
        -test.benchtime "${BENCH_GO_CALLS:-2000000}x"
done | awk '/^Benchmark/ { sub(/^Benchmark/, "", $1); sub(/-[0-9]+$/, "", $1); print $1, $3 }')
for name in Noop Raw IsSignedIn; do
    median=$(awk -v n="$name" '$1 == n { print $2 }' <<<"$results" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
    [ -n "$median" ] || { echo "bench.sh: no $name figure" >&2; exit 1; }
    echo "$name $median ns/call"
done
