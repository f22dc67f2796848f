#!/usr/bin/env bash
# Builds the C# binding (build.sh) and runs its tests with Mono against a jump-emulator the test program
# starts itself. The library is found the way an app finds it: Jump.dll.config maps "jump" to
# libjump.so.1, and dlopen looks on LD_LIBRARY_PATH, set here to the directory of $JUMP_LIBRARY_PATH
# (default build/lib). Ends with "N passed, N failed". Usage: run-tests.sh [NAME-FILTER]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
library=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
out=${JUMP_CSHARP_OUT:-$here/build/csharp}
if ! command -v mono >/dev/null || ! command -v mcs >/dev/null; then
    echo "mono and mcs are missing; run: scripts/ensure-deps.sh --test (or apt-get install -y mono-complete)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
if [ ! -e "$(dirname "$library")/libjump.so.1" ]; then
    echo "$(dirname "$library")/libjump.so.1 is missing (the dllmap loads the soname); build the library first" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
bash "$here/bindings/csharp/build.sh"
export LD_LIBRARY_PATH="$(cd "$(dirname "$library")" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export JUMP_ROOT="$here"
export JUMP_EMULATOR=${JUMP_EMULATOR:-$here/build/bin/jump-emulator}
export JUMP_QUICKSTART_EXE="$out/Quickstart.exe"
# The other examples (LoopbackSignIn.exe, SignInTokenSession.exe) are in the same directory.
export JUMP_EXAMPLES_DIR="$out"
# --debug: file and line numbers in the stack traces of failures.
exec mono --debug "$out/JumpTests.exe" "$@"
