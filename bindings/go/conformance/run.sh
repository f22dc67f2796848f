#!/usr/bin/env bash
# The Go conformance runner as one command (Tests/conformance/runners/go.json): builds it against this source
# tree (../env.sh; cached after the first build), then plays the scenario named by the last argument.
set -euo pipefail
. "$(dirname "$0")/../env.sh"
go_env_ready >&2
(cd "$root/bindings/go" && go build -o "$out/bin/jump-conformance" ./conformance) >&2
exec "$out/bin/jump-conformance" "$@"
