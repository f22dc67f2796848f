#!/usr/bin/env bash
# Builds the Rust binding (bindings/rust: jump-sys and jump) with every Rust toolchain the machine has, and
# runs its tests with each: the crate's unit tests, then the suite (jump/tests/suite, its own harness)
# against a jump-emulator it starts itself, which also runs the examples (examples/rust) and the
# conformance scenarios. Toolchains: Debian's (/usr/bin/cargo + /usr/bin/rustc 1.63, the oldest this
# binding supports) and the `cargo` on PATH when it is another one (rustup's); JUMP_RUST_CARGO=PATH
# picks one cargo alone. Build output goes to build/rust/<toolchain> (CARGO_TARGET_DIR), never into the
# tree. libjump is linked from the directory of $JUMP_LIBRARY_PATH (default build/lib), found at run time
# there too (LD_LIBRARY_PATH). Ends with "N passed, N failed" (scripts/run-tests.sh reads it).
# Usage: run-tests.sh [SUITE-FILTER]
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
library=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
manifest=$here/bindings/rust/Cargo.toml
export JUMP_EMULATOR=${JUMP_EMULATOR:-$here/build/bin/jump-emulator}

fail() {
    echo "$1" >&2
    echo "0 passed, 1 failed"
    exit 1
}
[ -f "$library" ] || fail "$library is missing: build the library first (make lib)"
[ -x "$JUMP_EMULATOR" ] || fail "$JUMP_EMULATOR is missing: build the emulator first (make emulator)"
libdir=$(cd "$(dirname "$library")" && pwd)
[ -e "$libdir/libjump.so.1" ] || fail "$libdir/libjump.so.1 is missing (the soname the binaries load)"
export JUMP_LIB_DIR=$libdir
export JUMP_LIBRARY_PATH="$libdir/$(basename "$library")" # absolute, for Tests/conformance/run.py
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# "label cargo rustc rustdoc" per toolchain (rustc and rustdoc empty: the cargo's own, through rustup).
toolchains=()
if [ -n "${JUMP_RUST_CARGO:-}" ]; then
    # with $RUSTC set, the rustdoc beside it (doc tests must use the same compiler)
    if [ -n "${RUSTC:-}" ]; then
        toolchains+=("custom $JUMP_RUST_CARGO $RUSTC ${RUSTDOC:-$(dirname "$RUSTC")/rustdoc}")
    else
        toolchains+=("custom $JUMP_RUST_CARGO - -")
    fi
else
    # Debian's cargo runs whatever rustc is first on PATH unless told: pin Debian's own.
    [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ] && toolchains+=("debian /usr/bin/cargo /usr/bin/rustc /usr/bin/rustdoc")
    other=$(command -v cargo || true)
    if [ -n "$other" ] && [ "$(readlink -f "$other")" != "$(readlink -f /usr/bin/cargo 2>/dev/null)" ]; then
        toolchains+=("path $other - -")
    fi
fi
((${#toolchains[@]})) || fail "no cargo: run scripts/ensure-deps.sh --test rust (Debian's cargo and rustc)"

passed=0
failed=0
skipped=0
for entry in "${toolchains[@]}"; do
    read -r label cargo rustc rustdoc <<<"$entry"
    env=(CARGO_TARGET_DIR="$here/build/rust/$label")
    [ "$rustc" != - ] && env+=(RUSTC="$rustc" RUSTDOC="$rustdoc")
    version=$(env "${env[@]}" "$cargo" --version 2>/dev/null)
    echo "=== Rust binding with $label toolchain: $version, $(env "${env[@]}" "${rustc/#-/rustc}" --version 2>/dev/null) ==="
    log=$(mktemp)
    # --all-targets builds the examples the suite runs (JUMP_RUST_EXAMPLES) and the bench program too.
    if ! env "${env[@]}" "$cargo" build --offline --quiet --manifest-path "$manifest" --all-targets; then
        echo "$label: the build failed"
        failed=$((failed + 1))
        continue
    fi
    JUMP_RUST_EXAMPLES="$here/build/rust/$label/debug/examples" env "${env[@]}" \
        "$cargo" test --offline --quiet --manifest-path "$manifest" -- "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    # libtest's "test result: ok. 3 passed; 0 failed; ..." lines and the suite's "N passed, N failed".
    # The suite's line may add ", N skipped" (the conformance scenarios, where Tests/conformance is absent).
    sum() { sed -nE "s/^test result: [a-zA-Z]+\. ([0-9]+) passed; ([0-9]+) failed; ([0-9]+) ignored.*/\\$1/p; s/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\\$2/p" "$log" |
        awk '{ s += $1 } END { print s + 0 }'; }
    p=$(sum 1 1)
    f=$(sum 2 2)
    k=$(sum 3 4)
    grep -qE "^[0-9]+ passed, [0-9]+ failed" "$log" || { echo "$label: the suite did not finish"; f=$((${f:-0} + 1)); }
    [ "$rc" != 0 ] && [ "${f:-0}" = 0 ] && f=1
    passed=$((passed + ${p:-0}))
    skipped=$((skipped + ${k:-0}))
    failed=$((failed + ${f:-0}))
    rm -f "$log"
done
if [ "$skipped" != 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
[ "$failed" = 0 ]
