#!/usr/bin/env bash
# The Rust conformance runner as a fixed command (Tests/conformance/runners/rust.json), for
# `python3 Tests/conformance/run.py rust`: builds it when needed (Debian's cargo if there is one, into
# build/rust/conformance; quiet, so that stdout holds only the outcome line), then runs it with run.py's
# arguments. The suite (make test-rust) runs the runner it built itself instead.
set -euo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
library=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
export JUMP_LIB_DIR=${JUMP_LIB_DIR:-$(cd "$(dirname "$library")" && pwd)}
if [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ]; then
    cargo=/usr/bin/cargo
    export RUSTC=/usr/bin/rustc
else
    cargo=cargo
fi
export CARGO_TARGET_DIR=$here/build/rust/conformance
# one build at a time: run.py may be run for several bindings at once, each scenario a process
flock "$here/bindings/rust/conformance/runner.sh" \
    "$cargo" build --offline --quiet --manifest-path "$here/bindings/rust/Cargo.toml" --example conformance_runner >&2
exec "$CARGO_TARGET_DIR/debug/examples/conformance_runner" "$@"
