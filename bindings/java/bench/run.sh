#!/usr/bin/env bash
# Per-call overhead of the Java binding vs a no-op JNI call through the same glue (Overhead.java); the row of
# `make bench` (benchmarks/run.sh). Needs build/lib/libjump.so, a JDK 17 and a C compiler. Usage: run.sh [CALLS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
out=$here/build/java
bash "$here/bindings/java/build.sh" --jar >/dev/null
mkdir -p "$out/bench"
# in package io.libjump: it calls the package's native methods directly for the raw row
# (NativeBench.java, the floor, is benchmark code too: the jar does not hold it)
rm -rf "$out/bench" && mkdir -p "$out/bench"
javac --release 17 -Xlint:all -Werror -cp "$out/classes" -d "$out/bench" "$here/bindings/java/bench/Overhead.java" \
    "$here/bindings/java/bench/NativeBench.java"
libdir=$(cd "$(dirname "${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}")" && pwd)
exec java -cp "$out/classes:$out/bench" -Djava.library.path="$out/native:$libdir" io.libjump.Overhead "$@"
