#!/usr/bin/env bash
# Builds the Java binding (build.sh: classes, JNI glue, tests, examples, the jar) and runs its tests against
# a jump-emulator the test program starts itself ($JUMP_EMULATOR). Ends with "N passed, N failed" (the
# line scripts/run-tests.sh counts). Usage: run-tests.sh [NAME-FILTER]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
export JUMP_LIBRARY_PATH=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
export JUMP_EMULATOR=${JUMP_EMULATOR:-$here/build/bin/jump-emulator}
out=$here/build/java
if ! command -v java >/dev/null || ! command -v javac >/dev/null; then
    echo "java and javac (JDK 17) are missing; run: scripts/ensure-deps.sh --test java" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
if ! bash bindings/java/build.sh; then
    echo "0 passed, 1 failed"
    exit 1
fi
version=$(sed -n 's/^#define JUMP_VERSION "\(.*\)"/\1/p' include/jump.h)
export JUMP_JAVA_JAR=$here/build/dist/jump-$version.jar
libdir=$(cd "$(dirname "$JUMP_LIBRARY_PATH")" && pwd)
# -Xcheck:jni: the JVM checks every JNI call the glue makes (and warns on misuse)
exec java -Xcheck:jni -cp "$out/classes:$out/test-classes:$out/examples" \
    -Djava.library.path="$out/native:$libdir" -Djump.test.classes="$out/test-classes" -Djump.examples="$out/examples" \
    -Djump.sources="$here/bindings/java/src:$here/bindings/java/generated" \
    io.libjump.TestRunner "$@"
