#!/usr/bin/env bash
# The fiber register switch (Sources/CFiber/switch.h) on its own: built and run for this machine, and for
# aarch64 under qemu-user when aarch64-linux-gnu-gcc and qemu-aarch64 are installed (scripts/ensure-deps.sh
# --test c installs them). Ends with "N passed, N failed" over both.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
out=build/tests
mkdir -p "$out"
passed=0
failed=0
run() {  # name, command...
    local name=$1 log
    shift
    log=$("$@" 2>&1)
    local rc=$?
    echo "$log" | sed "s/^/[$name] /"
    local line p f
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' <<<"$log" | tail -1)
    p=$(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line")
    f=$(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed$/\1/p' <<<"$line")
    [ "$rc" != 0 ] && [ "${f:-0}" = 0 ] && f=1
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
}
cflags=(-std=c11 -O2 -Wall -Wextra -Werror)
if ${CC:-cc} "${cflags[@]}" -o "$out/switch_test" Tests/fiber/switch_test.c; then
    run native "$out/switch_test"
else
    echo "FAIL switch_test (does not compile)"; failed=$((failed + 1))
fi
# fiber.c's stacks (zeroed when freed, kept, trimmed): native only, as mincore under qemu-user is the host's.
if ${CC:-cc} "${cflags[@]}" -ISources/CFiber/include -o "$out/stack_test" Tests/fiber/stack_test.c Sources/CFiber/fiber.c; then
    run stacks "$out/stack_test"
else
    echo "FAIL stack_test (does not compile)"; failed=$((failed + 1))
fi
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
    if aarch64-linux-gnu-gcc "${cflags[@]}" -static -o "$out/switch_test.aarch64" Tests/fiber/switch_test.c; then
        run aarch64 qemu-aarch64 "$out/switch_test.aarch64"
    else
        echo "FAIL switch_test for aarch64 (does not compile)"; failed=$((failed + 1))
    fi
else
    echo "FAIL the aarch64 switch is untested: install gcc-aarch64-linux-gnu and qemu-user (scripts/ensure-deps.sh --test c)"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
