#!/usr/bin/env bash
# Builds and runs the libjump C tests (Tests/c/test_*.c) into build/tests/.
#   bash Tests/c/run.sh                 every test program
#   bash Tests/c/run.sh test_async      one program (more names: more programs)
#   bash Tests/c/run.sh test_async cancel_during_slow_request   one test of one program
# Each program loads $JUMP_LIBRARY_PATH (default build/lib/libjump.so) with dlopen and starts its own
# emulator ($JUMP_EMULATOR, else build/bin/jump-emulator, else .build-emu/debug/jump-emulator).
# Ends with "N passed, N failed" over all programs; exits non-zero when anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
CC=${CC:-cc}
out=build/tests
mkdir -p "$out"
export JUMP_LIBRARY_PATH=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}

cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -D_POSIX_C_SOURCE=200809L -g -Iinclude -ITests/c)
libs=(-ldl -lpthread -lcurl -ljansson)
common=(Tests/c/jump_loader.c Tests/c/emulator.c Tests/c/support.c)
# A group of programs may share helpers of its own: test_<group>_*.c also gets Tests/c/<group>_support.c
# (test_social_browser.c and the other test_social_* programs: social_support.c).
group_support() {
    local group=${1#test_}
    group=${group%%_*}
    [ -f "Tests/c/${group}_support.c" ] && echo "Tests/c/${group}_support.c"
}

programs=()
filter=()
if (($#)); then
    for arg in "$@"; do
        if [ -f "Tests/c/$arg.c" ] && [[ $arg == test_* ]]; then programs+=("$arg"); else filter+=("$arg"); fi
    done
else
    for f in Tests/c/test_*.c; do programs+=("$(basename "$f" .c)"); done
fi

total_passed=0
total_failed=0
status=0
for program in "${programs[@]}"; do
    echo "--- $program"
    extra=()
    support=$(group_support "$program") && extra=("$support")
    if ! "$CC" "${cflags[@]}" -o "$out/$program" "Tests/c/$program.c" "${common[@]}" "${extra[@]}" "${libs[@]}"; then
        echo "FAIL $program (does not compile)"
        echo "0 passed, 1 failed"
        total_failed=$((total_failed + 1))
        status=1
        continue
    fi
    log=$(mktemp)
    # JUMP_TEST_PRELOAD: libraries the test programs (not the compiler or this shell) load first: make sanitize's runtime.
    # JUMP_TEST_WRAPPER: a command the programs run under (make valgrind's memcheck).
    env ${JUMP_TEST_PRELOAD:+LD_PRELOAD="$JUMP_TEST_PRELOAD"} ${JUMP_TEST_WRAPPER:-} "$out/$program" "${filter[@]}" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
    passed=$(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line")
    failed=$(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed$/\1/p' <<<"$line")
    passed=${passed:-0}
    failed=${failed:-0}
    if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
        echo "FAIL $program (exited with status $rc without reporting a failure)"
        failed=1
    fi
    [ "$rc" != 0 ] && status=1
    total_passed=$((total_passed + passed))
    total_failed=$((total_failed + failed))
    rm -f "$log"
done
# The fibers' register switch on its own, here and for aarch64 under qemu-user (when no test was named).
if ((${#filter[@]} == 0)) && { (($# == 0)) || [[ " $* " == *" switch_test "* ]]; }; then
    echo "--- switch_test"
    log=$(mktemp)
    bash Tests/fiber/run.sh 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
    total_passed=$((total_passed + $(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line")))
    total_failed=$((total_failed + $(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed$/\1/p' <<<"$line")))
    [ "$rc" != 0 ] && status=1
    rm -f "$log"
fi
echo
echo "$total_passed passed, $total_failed failed"
exit $status
