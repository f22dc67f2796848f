#!/usr/bin/env bash
# Builds the Java binding with javac, cc and jar only (no Maven or Gradle):
#   build/java/classes            the io.libjump classes and module-info.class (module io.libjump: the jar is a
#                                 named module on the module path and works unnamed on the class path)
#   build/java/native/libjumpjni.so   the JNI glue, linked to libjump.so.1 (found by its rpath $ORIGIN, the
#                                 dynamic linker's path, or already loaded by Loader)
#   build/java/test-classes, build/java/examples   the tests and examples (unless --jar)
#   build/dist/jump-<version>.jar (classes, native/linux-<arch>/{libjumpjni.so,libjump.so.1} and the libraries
#          libjump needs beyond the C library's own, bundled beside them with the list of their names in
#          native/linux-<arch>/bundled-libraries.txt, META-INF/maven/io.libjump/jump/pom.xml),
#   build/dist/jump-<version>.pom, build/dist/jump-<version>-sources.jar (the io.libjump sources) and
#   build/dist/jump-<version>-javadoc.jar (their Javadoc), as Maven Central wants them beside a jar.
# The bundled libraries (libcurl, its TLS library and the rest of its tree, jansson; bundle_native_libraries in
# scripts/package-common.sh, every RUNPATH $ORIGIN) keep their own sonames: a Loader that copies only
# libjump.so.1 and libjumpjni.so out of the jar still finds them on the system, and one that copies the files
# listed in bundled-libraries.txt beside them needs nothing from the system but the C library's own.
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
# src: the hand-written sources; generated: what scripts/generate-bindings.py writes (same package, io.libjump)
javac --release 17 -Xlint:all -Werror -d "$out/classes" bindings/java/src/module-info.java bindings/java/src/io/libjump/*.java \
    bindings/java/generated/io/libjump/*.java
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
source "$here/scripts/package-common.sh"
natives=$stage/native/linux-$arch
bundle_native_libraries --keep-names "$natives" libjump.so.1 libjumpjni.so | sort >"$out/bundled-libraries.txt"
outside=$(native_needs_outside "$natives")
[ -z "$outside" ] || { echo "build.sh: the jar's native files still need from the system: $outside" >&2; exit 1; }
cp "$out/bundled-libraries.txt" "$natives/bundled-libraries.txt"
sed "s/@VERSION@/$version/" bindings/java/pom.xml.in >"$here/build/dist/jump-$version.pom"
cp "$here/build/dist/jump-$version.pom" "$stage/META-INF/maven/io.libjump/jump/pom.xml"
printf 'groupId=io.libjump\nartifactId=jump\nversion=%s\n' "$version" >"$stage/META-INF/maven/io.libjump/jump/pom.properties"
# no Automatic-Module-Name: module-info.class names the module
printf 'Implementation-Title: jump\nImplementation-Version: %s\n' "$version" \
    >"$out/manifest.txt"
jar --create --file "$here/build/dist/jump-$version.jar" --manifest "$out/manifest.txt" -C "$stage" .

# The sources jar and the Javadoc jar (plain jar and javadoc; nothing is downloaded). The Javadoc is lint-free
# under -Xdoclint:all: the java suite's DocTests checks that, not this build.
# (the two source roots, src and generated, merged into one tree)
rm -rf "$out/sources-stage" && mkdir -p "$out/sources-stage"
cp -r bindings/java/src/. bindings/java/generated/. "$out/sources-stage/"
jar --create --file "$here/build/dist/jump-$version-sources.jar" --manifest "$out/manifest.txt" -C "$out/sources-stage" module-info.java -C "$out/sources-stage" io
rm -rf "$out/javadoc" && mkdir -p "$out/javadoc"
javadoc -quiet -Xdoclint:none --release 17 -d "$out/javadoc" -sourcepath bindings/java/src:bindings/java/generated \
    -doctitle "jump $version" -windowtitle "jump $version" --module io.libjump >"$out/javadoc.log" 2>&1 ||
    { cat "$out/javadoc.log" >&2; echo "build.sh: javadoc failed" >&2; exit 1; }
jar --create --file "$here/build/dist/jump-$version-javadoc.jar" --manifest "$out/manifest.txt" -C "$out/javadoc" .
echo "built build/dist/jump-$version.jar, jump-$version-sources.jar, jump-$version-javadoc.jar"
