#!/usr/bin/env bash
# make fuzz: libFuzzer over every parser of outside input and over the whole C API (Tests/fuzz/README.md).
#  - Parser targets: the harness Sources/jump-fuzz (built only here: JUMP_FUZZ=1 adds it to Package.swift),
#    JumpCore under -sanitize=fuzzer,address, with the servers played by answers recorded from the emulator
#    (Tests/fuzz/answers) except the endpoint under test, which answers the fuzzer's bytes.
#  - The ABI target: Tests/fuzz/abi/abi_fuzz.c (its call table generated from include/jump_api.json) against
#    libjump built with ASan and libFuzzer's coverage, and a real emulator.
# Each target runs FUZZ_SECONDS (default 60) from its corpus in build/fuzz/corpus/<target> (seeded from the
# recorded answers the first time, kept between runs). A crash, sanitizer report, hang (-timeout), or
# contract deviation (the harnesses abort on one) fails the target; its input is kept in build/fuzz/findings.
# Ends with one line per target (runs, seconds) and "N passed, N failed". Not part of `make test`.
#   bash scripts/fuzz.sh [target...]     FUZZ_SECONDS=600 bash scripts/fuzz.sh abi
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
seconds=${FUZZ_SECONDS:-60}
out=$here/build/fuzz
mkdir -p "$out/corpus" "$out/findings" "$out/logs"
swift_bin=$(readlink -f "$(command -v swift)")
clang=$(dirname "$swift_bin")/clang
[ -x "$clang" ] || { echo "no clang next to $swift_bin (libFuzzer comes with the Swift toolchain's clang)" >&2; exit 1; }
mkdir -p build/gen/static-cxx
ln -sf "$(${CC:-cc} -print-file-name=libstdc++.a)" build/gen/static-cxx/libstdc++.a

echo "=== building the parser harness (JumpCore with -sanitize=fuzzer,address)"
JUMP_FUZZ=1 swift build -c debug --product jump-fuzz --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address \
    >"$out/logs/build-harness.log" 2>&1 || { tail -40 "$out/logs/build-harness.log"; echo "0 passed, 1 failed"; exit 1; }
harness=$here/.build-fuzz/debug/jump-fuzz

echo "=== building libjump with ASan and coverage, and the ABI harness"
swift build -c debug --product jump --scratch-path .build-fuzz-abi --sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table >"$out/logs/build-libjump.log" 2>&1 ||
    { tail -40 "$out/logs/build-libjump.log"; echo "0 passed, 1 failed"; exit 1; }
ln -sf libjump.so .build-fuzz-abi/debug/libjump.so.1
python3 Tests/fuzz/abi/gen_calls.py include/jump_api.json "$out" || { echo "0 passed, 1 failed"; exit 1; }
"$clang" -g -O1 -fsanitize=fuzzer,address -Wall -Wextra -Werror -Iinclude -ITests/c -I"$out" -o "$out/abi_fuzz" \
    Tests/fuzz/abi/abi_fuzz.c Tests/c/emulator.c -L.build-fuzz-abi/debug -ljump -Wl,-rpath,"$here/.build-fuzz-abi/debug" \
    -ljansson -lcurl -lpthread 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" || true
[ -x "$out/abi_fuzz" ] || { echo "the ABI harness did not build"; echo "0 passed, 1 failed"; exit 1; }

parser_targets=(config json record-path sign-in-answer entity-answer refresh-answer flow-answer engage-config-answer
                token-answer sign-in-token social-complete-url web-login saved-files)
targets=("$@")
((${#targets[@]})) || targets=("${parser_targets[@]}" abi)

export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0"
export JUMP_FUZZ_ANSWERS=$here/Tests/fuzz/answers
passed=0
failed=0
total_runs=0
total_seconds=0
report=()
for target in "${targets[@]}"; do
    corpus=$out/corpus/$target
    mkdir -p "$corpus"
    if [ "$target" = abi ]; then
        program=("$out/abi_fuzz")
        max_len=2048
    else
        program=(env JUMP_FUZZ_TARGET="$target" "$harness")
        max_len=16384
        if [ -z "$(ls -A "$corpus")" ]; then
            JUMP_FUZZ_WRITE_SEEDS=$corpus "${program[@]}" >/dev/null 2>&1
        fi
    fi
    log=$out/logs/$target.log
    echo "=== $target: ${seconds}s"
    # -timeout: an input that runs 20 s is a hang (every wait the harnesses make is far shorter).
    "${program[@]}" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=$max_len -len_control=0 \
        -print_final_stats=1 -artifact_prefix="$out/findings/$target-" "$corpus" >"$log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    spent=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    runs=${runs:-0}
    spent=${spent:-$seconds}
    total_runs=$((total_runs + runs))
    total_seconds=$((total_seconds + spent))
    if [ $status -eq 0 ]; then
        passed=$((passed + 1))
        report+=("$(printf 'PASS %-22s %10s runs %5ss  corpus %s' "$target" "$runs" "$spent" "$(ls "$corpus" | wc -l)")")
    else
        failed=$((failed + 1))
        finding=$(grep -o "$out/findings/$target-[a-z]*-[0-9a-f]*" "$log" | tail -1)
        report+=("$(printf 'FAIL %-22s %10s runs %5ss  %s' "$target" "$runs" "$spent" "${finding:-see $log}")")
        grep -m3 -E "CONTRACT DEVIATION|ERROR: AddressSanitizer|Fatal error|deadly signal|timeout" "$log" | sed 's/^/     /'
    fi
done
echo
printf '%s\n' "${report[@]}"
echo "total: $total_runs runs in $((total_seconds / 60)) CPU-minutes"
echo "$passed passed, $failed failed"
((failed == 0))
