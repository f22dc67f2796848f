#!/usr/bin/env bash
# make sanitize: libjump built with AddressSanitizer, then with ThreadSanitizer (swift build --sanitize=...,
# debug, each in its own scratch directory), each running the C suite (its thread-race tests included) and a
# quick `make torture`. UndefinedBehaviorSanitizer is not among them: swiftc refuses -sanitize=undefined on
# Linux, and what it checks in C (overflow, bounds, misaligned access) Swift checks itself, as traps, in the
# debug build these runs use (which the no-trap rule makes failures here too). Not part of `make test`: the two builds and runs take about
# SANITIZE_MINUTES on 2 cores (docs/testing.md, "Sanitizers").
#   bash scripts/sanitize.sh [address|thread]...   (default: both)
# The C tests and the torture driver are plain C programs that dlopen libjump, so the sanitizer's runtime is
# preloaded into them (JUMP_TEST_PRELOAD, TORTURE_PRELOAD: LD_PRELOAD of those programs alone, where it must
# come first); the emulator runs unpreloaded (a wrapper drops it).
# Every report stops the process (halt_on_error), so a report is a failed test. Ends with "N passed, N failed"
# over the runs (one run = one suite under one sanitizer).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
modes=("$@")
((${#modes[@]})) || modes=(address thread)
swift_bin=$(readlink -f "$(command -v swift)")
runtime_dir=$(ls -d "$(dirname "$(dirname "$swift_bin")")"/lib/clang/*/lib/linux 2>/dev/null | head -1)
[ -d "$runtime_dir" ] || { echo "no clang runtime directory next to $swift_bin" >&2; echo "0 passed, 1 failed"; exit 1; }
emulator=${JUMP_EMULATOR:-$here/build/bin/jump-emulator}
[ -x "$emulator" ] || { echo "build the emulator first (make emulator)" >&2; echo "0 passed, 1 failed"; exit 1; }
out=$here/build/sanitize
mkdir -p "$out"
# The emulator is not what is checked: it runs without the preloaded runtime.
cat > "$out/emulator-unpreloaded" <<WRAP
#!/bin/sh
unset LD_PRELOAD
exec "$emulator" "\$@"
WRAP
chmod +x "$out/emulator-unpreloaded"
mkdir -p build/gen/static-cxx
ln -sf "$(${CC:-cc} -print-file-name=libstdc++.a)" build/gen/static-cxx/libstdc++.a

passed=0
failed=0
summary=()
run() { # run NAME command...
    local name=$1
    shift
    echo "=== $name"
    if "$@"; then passed=$((passed + 1)); summary+=("PASS $name"); else failed=$((failed + 1)); summary+=("FAIL $name"); fi
}

for mode in "${modes[@]}"; do
    case "$mode" in
        address) flags=(--sanitize=address) runtime=$runtime_dir/libclang_rt.asan-x86_64.so ;;
        # The toolchain's TSan runtime intercepts libdispatch too, so it needs libdispatch's symbols in the process.
        thread) flags=(--sanitize=thread)
                runtime="$runtime_dir/libclang_rt.tsan-x86_64.so $(dirname "$(dirname "$swift_bin")")/lib/swift/linux/libdispatch.so" ;;
        *) echo "unknown sanitizer '$mode' (address or thread)" >&2; exit 2 ;;
    esac
    echo "=== building libjump with ${flags[*]}"
    if ! swift build -c debug --product jump --scratch-path ".build-$mode" "${flags[@]}"; then
        failed=$((failed + 1)); summary+=("FAIL build ($mode)"); continue
    fi
    mkdir -p "$out/$mode"
    cp ".build-$mode/debug/libjump.so" "$out/$mode/libjump.so"
    ln -sf libjump.so "$out/$mode/libjump.so.1"
    export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1:detect_stack_use_after_return=0"
    # die_after_fork=0: the fork tests' children use libjump after fork(), which is what they check.
    export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:die_after_fork=0:report_signal_unsafe=0:suppressions=$here/scripts/tsan-suppressions.txt"
    # The small-stack tests at 1 MiB: the sanitizers' frames are several times larger than release frames,
    # and the 128 KiB promise is checked by the ordinary suite.
    run "C suite under $mode" env JUMP_TEST_PRELOAD="$runtime" JUMP_TEST_SMALL_STACK_KIB=1024 JUMP_LIBRARY_PATH="$out/$mode/libjump.so" \
        JUMP_EMULATOR="$out/emulator-unpreloaded" HARNESS_TIMEOUT=240 bash Tests/c/run.sh
    run "quick torture under $mode" env TORTURE_PRELOAD="$runtime" JUMP_LIBRARY_PATH="$out/$mode/libjump.so" \
        JUMP_EMULATOR="$emulator" TORTURE_KILLS=${SANITIZE_TORTURE_KILLS:-40} TORTURE_FAULTS=${SANITIZE_TORTURE_FAULTS:-10} \
        TORTURE_TIME_LIMIT=${SANITIZE_TORTURE_SECONDS:-120} bash Tests/torture/run.sh
done
echo
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
((failed == 0))
