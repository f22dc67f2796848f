#!/usr/bin/env bash
# Per-call overhead of the Rust binding vs a Rust FFI call of a C no-op (overhead.rs), for benchmarks/run.sh
# (`make bench`), or alone. Builds optimised with Debian's cargo (Rust 1.63) when there is one, else the cargo
# on PATH. Needs build/lib/libjump.so and a C compiler.
set -euo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
library=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
libdir=$(cd "$(dirname "$library")" && pwd)
mkdir -p "$here/build/bench"
# The same no-op library benchmarks/bench_ffi.py and the C# row measure against.
"${CC:-cc}" -O2 -shared -fPIC -o "$here/build/bench/libnoop.so" "$here/benchmarks/noop.c"
if [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ]; then
    cargo=/usr/bin/cargo
    export RUSTC=/usr/bin/rustc
else
    cargo=cargo
fi
export CARGO_TARGET_DIR=$here/build/rust/bench JUMP_LIB_DIR=$libdir
"$cargo" build --offline --quiet --release --manifest-path "$here/bindings/rust/Cargo.toml" --example overhead
echo "$("$cargo" --version), $("${RUSTC:-rustc}" --version)"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$CARGO_TARGET_DIR/release/examples/overhead" "$here/build/bench/libnoop.so" "${BENCH_RUST_CALLS:-2000000}"
