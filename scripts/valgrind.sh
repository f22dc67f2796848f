#!/usr/bin/env bash
# make valgrind: C test programs (default: the asynchronous ones) under Valgrind's memcheck. Every error is
# reported and fails the run (--error-exitcode); leaks are not counted (a host process's libjump keeps its
# process-wide pools until exit). The library is a copy without its debug info: Debian's Valgrind 3.19 cannot
# read the DWARF 5 that Swift 6 writes.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
mkdir -p build/valgrind
strip --strip-debug -o build/valgrind/libjump.so build/lib/libjump.so
programs=("$@")
((${#programs[@]})) || programs=(test_async test_social_async)
export JUMP_LIBRARY_PATH=$here/build/valgrind/libjump.so
export JUMP_TEST_WRAPPER="valgrind --quiet --error-exitcode=99 --leak-check=no --track-origins=no --num-callers=30 --suppressions=$here/scripts/valgrind.supp"
bash Tests/c/run.sh "${programs[@]}"
