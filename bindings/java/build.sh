#!/usr/bin/env bash
# Builds the Java binding with javac, cc and jar only (no Maven or Gradle):
#   build/java/classes            the io.libjump classes
#   build/java/native/libjumpjni.so   the JNI glue, linked to libjump.so.1 (found by its rpath $ORIGIN, the
#                                 dynamic linker's path, or already loaded by Loader)
#   build/java/test-classes, build/java/examples   the tests and examples (unless --jar)
#   build/dist/jump-<version>.jar (classes, native/linux-<arch>/{libjumpjni.so,libjump.so.1},
#          META-INF/maven/io.libjump/jump/pom.xml) and build/dist/jump-<version>.pom
# Needs JDK 17 (javac, jar) and $JUMP_LIBRARY_PATH (default build/lib/libjump.so) to link against.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
library=${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}
out=$here/build/java
version=$(sed -n 's/^#define JUMP_VERSION "\(.*\)"/\1/p' include/jump.h)
jar_only=false
[ "${1:-}" = "--jar" ] && jar_only=true

if ! command -v javac >/dev/null || ! command -v jar >/dev/null; then
    echo "javac and jar (JDK 17) are missing; run: scripts/ensure-deps.sh --test java (openjdk-17-jdk-headless)" >&2
    exit 1
fi
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
if [ ! -f "$library" ]; then
    echo "$library is missing: the JNI glue links against it (make lib, or set JUMP_LIBRARY_PATH)" >&2
    exit 1
fi
libdir=$(cd "$(dirname "$library")" && pwd)

rm -rf "$out/classes" && mkdir -p "$out/classes" "$out/native"
javac --release 17 -Xlint:all -Werror -d "$out/classes" bindings/java/src/io/libjump/*.java
# -l:libjump.so: the file given; its soname (libjump.so.1) becomes the glue's NEEDED.
"${CC:-cc}" -std=c99 -O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
    -Iinclude -I"$java_home/include" -I"$java_home/include/linux" -Ibindings/java/native \
    -o "$out/native/libjumpjni.so" bindings/java/native/*.c \
    -L"$libdir" -l:"$(basename "$library")" -Wl,-rpath,'$ORIGIN' -Wl,--no-undefined -lpthread

if ! $jar_only; then
    rm -rf "$out/test-classes" "$out/examples" && mkdir -p "$out/test-classes" "$out/examples"
    javac --release 17 -Xlint:all -Werror -cp "$out/classes" -d "$out/test-classes" \
        $(find bindings/java/tests -name '*.java')
    javac --release 17 -Xlint:all -Werror -cp "$out/classes" -d "$out/examples" examples/java/*.java
fi

# The jar: what an app puts on its class path; Loader extracts the .so files from it.
arch=$(uname -m)
stage=$out/jar-stage
rm -rf "$stage" && mkdir -p "$stage/native/linux-$arch" "$stage/META-INF/maven/io.libjump/jump" "$here/build/dist"
cp -r "$out/classes/." "$stage/"
cp "$out/native/libjumpjni.so" "$stage/native/linux-$arch/"
# stripped, as make install installs it (the debug info stays with build/lib)
strip --strip-unneeded -o "$stage/native/linux-$arch/libjump.so.1" "$library" 2>/dev/null ||
    cp -L "$library" "$stage/native/linux-$arch/libjump.so.1"
sed "s/@VERSION@/$version/" bindings/java/pom.xml.in >"$here/build/dist/jump-$version.pom"
cp "$here/build/dist/jump-$version.pom" "$stage/META-INF/maven/io.libjump/jump/pom.xml"
printf 'groupId=io.libjump\nartifactId=jump\nversion=%s\n' "$version" >"$stage/META-INF/maven/io.libjump/jump/pom.properties"
printf 'Implementation-Title: jump\nImplementation-Version: %s\nAutomatic-Module-Name: io.libjump\n' "$version" \
    >"$out/manifest.txt"
jar --create --file "$here/build/dist/jump-$version.jar" --manifest "$out/manifest.txt" -C "$stage" .
echo "built build/dist/jump-$version.jar"
