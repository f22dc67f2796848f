#!/usr/bin/env bash
# Per-call overhead of the Go binding: Client.IsSignedIn vs a cgo call of a static C no-op (bench/main.go, its
# own main package: the jump package ships no benchmark code), 11 interleaved rounds of BENCH_GO_CALLS calls
# each (default 2 000 000); prints the median ns per call:
#   Noop <ns> ns/call
#   Raw <ns> ns/call         (jump_client_is_signed_in called straight through cgo, no wrapper)
#   IsSignedIn <ns> ns/call
# Run by benchmarks/run.sh (`make bench`). Builds against the source tree (env.sh).
set -euo pipefail
. "$(dirname "$0")/env.sh"
go_env_ready >&2
cd "$root/bindings/go"
go build -o "$out/bin/jump-go-bench" ./bench
exec "$out/bin/jump-go-bench" -calls "${BENCH_GO_CALLS:-2000000}" -rounds 11
