#!/usr/bin/env bash
# Usage: with-emulator.sh PROGRAM [ARGS...]
# Starts build/bin/jump-emulator on a free loopback port with a temporary database, exports its base URL as
# JUMP_EMULATOR_URL, runs PROGRAM, then stops the emulator. Exits with PROGRAM's status.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
emulator=${JUMP_EMULATOR:-$here/build/bin/jump-emulator}
workdir=$(mktemp -d -t jump-emulator.XXXXXX)
cleanup() {
    if [ -n "${emu_pid:-}" ] && kill -0 "$emu_pid" 2>/dev/null; then
        kill -TERM "$emu_pid" 2>/dev/null || true
        wait "$emu_pid" 2>/dev/null || true
    fi
    rm -rf "$workdir"
}
trap cleanup EXIT
mkfifo "$workdir/out"
"$emulator" --port 0 --db "$workdir/emulator.sqlite" ${JUMP_EMULATOR_ARGS:-} >"$workdir/out" 2>"$workdir/emulator.log" &
emu_pid=$!
exec 3<"$workdir/out"
if ! IFS= read -r -t 60 url <&3; then
    echo "jump-emulator did not start; its log:" >&2
    cat "$workdir/emulator.log" >&2
    exit 1
fi
# Keep draining the emulator's stdout so it never blocks on a full pipe.
cat <&3 >/dev/null &
export JUMP_EMULATOR_URL="$url"
export JUMP_LIBRARY_PATH=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
status=0
"$@" || status=$?
exit $status
