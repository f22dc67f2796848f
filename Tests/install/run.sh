#!/usr/bin/env bash
# Installs libjump the way a distribution package would (make install DESTDIR=<tmp> PREFIX=/usr), then checks
# what a C developer relies on: the link chain and soname, a stripped library whose debug info is apart and
# linked, jump.pc, a program built with `pkg-config --cflags --libs jump` and linked (not dlopen'ed) against it,
# the README's C program built with pkg-config and with CMake (find_package(jump), jump::jump), a man page name
# for every function, the Python sdist built against the installed library, the NuGet package restored and
# used by a Mono project (Tests/install/nuget.sh), the npm package, the NuGet package and the jar self-contained
# (their native files need only the C library's own; their quickstarts run where the system's libcurl,
# libssl, libcrypto and libjansson cannot be read: Tests/install/packages.sh), and make uninstall.
# Ends with "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
passed=0
failed=0
check() { # check "what" command...
    local what=$1
    shift
    if "$@" >/dev/null 2>&1; then
        echo "PASS $what"
        passed=$((passed + 1))
    else
        echo "FAIL $what"
        failed=$((failed + 1))
    fi
}

version=$(sed -n 's/^#define JUMP_VERSION "\(.*\)"/\1/p' include/jump.h)
abi=$(sed -n 's/^#define JUMP_ABI_VERSION \([0-9]*\)/\1/p' include/jump.h)
lib=$stage/usr/lib
if ! make --no-print-directory install DESTDIR="$stage" PREFIX=/usr >"$stage/install.log" 2>&1; then
    cat "$stage/install.log"
    echo "FAIL make install"
    echo "0 passed, 1 failed"
    exit 1
fi

check "libjump.so.$version is the real file" test -f "$lib/libjump.so.$version" -a ! -L "$lib/libjump.so.$version"
check "libjump.so.$abi -> libjump.so.$version (the soname link)" test "$(readlink "$lib/libjump.so.$abi")" = "libjump.so.$version"
check "libjump.so -> libjump.so.$abi (the development link)" test "$(readlink "$lib/libjump.so")" = "libjump.so.$abi"
check "the soname is libjump.so.$abi" sh -c "readelf -d '$lib/libjump.so.$version' | grep -q 'SONAME.*\[libjump.so.$abi\]'"
check "the installed library is stripped (no .debug_info)" sh -c "! readelf -S '$lib/libjump.so.$version' | grep -q '\.debug_info'"
check "its debug info is apart, linked by .gnu_debuglink" sh -c \
    "readelf -S '$lib/libjump.so.$version' | grep -q '\.gnu_debuglink' && readelf -S '$lib/libjump.so.$version.debug' | grep -q '\.debug_info'"
check "jump.h is installed" cmp include/jump.h "$stage/usr/include/jump.h"
check "jump_api.json is installed next to it" cmp include/jump_api.json "$stage/usr/include/jump_api.json"

export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage
check "pkg-config knows jump $version" test "$(pkg-config --modversion jump)" = "$version"
# No Requires.private: building against the shared library needs no jansson or libcurl -dev package (their .pc
# files are out of reach here: PKG_CONFIG_LIBDIR is the installed tree's alone).
check "jump.pc has no Requires.private" test -z "$(pkg-config --print-requires-private jump)"
check "pkg-config --cflags --libs jump works with no jansson.pc or libcurl.pc around" sh -c \
    "PKG_CONFIG_LIBDIR='$lib/pkgconfig' pkg-config --cflags --libs jump | grep -q -- '-ljump'"

cat >"$stage/hello.c" <<'C'
#include <jump.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    /* A program built against the header refuses a library of another ABI (jump.h says so). */
    if (jump_abi_version() != JUMP_ABI_VERSION) return 2;
    printf("%s %s\n", jump_version(), jump_status_str(JUMP_E_STORAGE));
    return strcmp(jump_version(), JUMP_VERSION) == 0 ? 0 : 1;
}
C
# shellcheck disable=SC2046
check "a program builds with pkg-config --cflags --libs jump" \
    ${CC:-cc} -std=c99 -Wall -Werror -o "$stage/hello" "$stage/hello.c" $(pkg-config --cflags --libs jump)
check "it needs libjump.so.$abi and runs against the installed library" sh -c \
    "readelf -d '$stage/hello' | grep -q 'NEEDED.*\[libjump.so.$abi\]' && LD_LIBRARY_PATH='$lib' '$stage/hello' | grep -q '^$version '"

# gdb finds the debug info through .gnu_debuglink and resolves a symbol of the stripped library to its source.
# (An internal function: only the debug file knows it, and where in the sources it is.)
check "gdb resolves a symbol of the stripped library through its debug file" sh -c \
    "gdb -nx -batch -ex 'info functions socialSignInLoopback' '$lib/libjump.so.$version' 2>/dev/null \
       | grep -q '^File .*JumpClient+SocialSignIn\.swift:'"

# The emulator: standalone (no Swift library, runs with no toolchain on PATH or LD_LIBRARY_PATH), stripped.
emu=$stage/usr/bin/jump-emulator
check "jump-emulator is installed, stripped" sh -c "test -x '$emu' && ! readelf -S '$emu' | grep -q '\.debug_info'"
check "ldd of jump-emulator and libjump names no Swift library" sh -c \
    "! ldd '$emu' '$lib/libjump.so.$version' | grep -qi 'swift\|libFoundation\|libdispatch\|not found'"
check "the installed emulator starts with no Swift toolchain around" sh -c \
    "env -i PATH=/usr/bin:/bin '$emu' --port 0 --db :memory: > '$stage/emu.out' 2>&1 & pid=\$!; \
     for i in \$(seq 50); do grep -q '^http://127.0.0.1:' '$stage/emu.out' && break; sleep 0.1; done; \
     url=\$(grep -m1 '^http://' '$stage/emu.out'); kill \$pid; test -n \"\$url\""

# The README's C program, built from the installed tree alone (pkg-config), run against the installed emulator
# with no Swift toolchain around: what a C developer does after `make install`.
awk '/^```c$/{on=1; next} /^```$/{on=0} on' README.md >"$stage/readme.c"
check "the README's C program builds with pkg-config --cflags --libs jump" sh -c \
    "${CC:-cc} -std=c99 -Wall -Werror -o '$stage/readme' '$stage/readme.c' \$(pkg-config --cflags --libs jump)"
check "... and runs against the installed emulator" sh -c \
    "env -i PATH=/usr/bin:/bin '$emu' --port 0 --db :memory: > '$stage/emu2.out' 2>/dev/null & pid=\$!; \
     for i in \$(seq 50); do grep -q '^http://127.0.0.1:' '$stage/emu2.out' && break; sleep 0.1; done; \
     url=\$(grep -m1 '^http://' '$stage/emu2.out'); \
     env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH='$lib' JUMP_EMULATOR_URL=\"\$url\" '$stage/readme' > '$stage/readme.out' 2>&1; \
     rc=\$?; kill \$pid; test \$rc = 0 && grep -q 'synced {\"changed\":\[\"/aboutMe\"\]' '$stage/readme.out'"

# Runs "$@" with JUMP_EMULATOR_URL naming a fresh installed emulator (no Swift toolchain around); its status.
with_installed_emulator() {
    local out pid url rc
    out=$(mktemp -p "$stage" emu.XXXXXX)
    env -i PATH=/usr/bin:/bin "$emu" --port 0 --db :memory: >"$out" 2>/dev/null &
    pid=$!
    for _ in $(seq 50); do grep -q '^http://127.0.0.1:' "$out" && break; sleep 0.1; done
    url=$(grep -m1 '^http://' "$out")
    JUMP_EMULATOR_URL=$url "$@"
    rc=$?
    kill "$pid"
    wait "$pid" 2>/dev/null
    return "$rc"
}

# The same program built with CMake from the installed package config alone: find_package(jump) gives the
# imported target jump::jump (include directory and library).
mkdir -p "$stage/cmake-app"
cp "$stage/readme.c" "$stage/cmake-app/readme.c"
cat >"$stage/cmake-app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(readme C)
find_package(jump 0.1 REQUIRED)
add_executable(readme readme.c)
set_target_properties(readme PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_options(readme PRIVATE -Wall -Werror)
target_link_libraries(readme PRIVATE jump::jump)
CMAKE
check "the README's C program builds with CMake (find_package(jump), target jump::jump)" sh -c \
    "cmake -S '$stage/cmake-app' -B '$stage/cmake-build' -DCMAKE_PREFIX_PATH='$stage/usr' >'$stage/cmake.log' 2>&1 && \
     cmake --build '$stage/cmake-build' >>'$stage/cmake.log' 2>&1"
check "... needs libjump.so.$abi and runs against the installed emulator" with_installed_emulator sh -c \
    "readelf -d '$stage/cmake-build/readme' | grep -q 'NEEDED.*\[libjump.so.$abi\]' && \
     env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH='$lib' JUMP_EMULATOR_URL=\"\$JUMP_EMULATOR_URL\" '$stage/cmake-build/readme' \
       >'$stage/cmake-readme.out' 2>&1 && grep -q 'synced {\"changed\":\[\"/aboutMe\"\]' '$stage/cmake-readme.out'"
sed -i 's/find_package(jump 0.1 REQUIRED)/find_package(jump 99 REQUIRED)/' "$stage/cmake-app/CMakeLists.txt"
check "find_package(jump 99) refuses jump $version" sh -c \
    "! cmake -S '$stage/cmake-app' -B '$stage/cmake-build99' -DCMAKE_PREFIX_PATH='$stage/usr' >'$stage/cmake99.log' 2>&1 && \
     grep -q 'version: $version' '$stage/cmake99.log'"

# jump(3): made from jump.h, renders without warnings, lists every function and configuration key.
man3=$stage/usr/share/man/man3/jump.3
check "jump(3) is installed and renders without warnings" sh -c \
    "test -f '$man3' && test -z \"\$(groff -man -Tutf8 -ww -z '$man3' 2>&1)\""
check "jump(3) lists every function of jump.h" sh -c \
    "for f in \$(grep -oE '^[a-z_ ]*[ *]jump_[a-z0-9_]+\(' include/jump.h | grep -oE 'jump_[a-z0-9_]+\(' | tr -d '('); do \
       grep -q \"^\.B \$f\$\" '$man3' || exit 1; done"
check "jump(3) lists every configuration key of jump_api.json" sh -c \
    "for k in \$(python3 -c 'import json, sys; print(\" \".join(k[\"name\"] for k in json.load(open(sys.argv[1]))[\"config_keys\"]))' include/jump_api.json); do \
       grep -q \"^\.B \$k\$\" '$man3' || exit 1; done"

# man FUNCTION: every function of jump_api.json has a page name, a `.so` link to jump(3), which man-db follows
# (man -w names the page the link leads to).
mandir=$stage/usr/share/man
check "every function of jump_api.json has a man page name (.so man3/jump.3)" sh -c \
    "for f in \$(python3 -c 'import json, sys; print(\" \".join(f[\"name\"] for f in json.load(open(sys.argv[1]))[\"functions\"]))' include/jump_api.json); do \
       test \"\$(cat '$mandir/man3/'\$f.3)\" = '.so man3/jump.3' || exit 1; done"
check "man jump_client_sign_in finds and shows jump(3)" sh -c \
    "man -M '$mandir' -w jump_client_sign_in | grep -qE 'man3/jump(_client_sign_in)?\\.3\$' && \
     MANPAGER=cat MANWIDTH=100 man -M '$mandir' jump_client_sign_in 2>/dev/null | grep -q 'jump_client_sign_in' && \
     MANPAGER=cat MANWIDTH=100 man -M '$mandir' jump_client_sign_in 2>/dev/null | grep -q 'JUMP_E_'"

# The Python sdist (scripts/build-sdist.sh) built against the installed library, found through pkg-config
# (nothing set but PKG_CONFIG_PATH and its sysroot), installed into a fresh venv and used there with no
# LD_LIBRARY_PATH or JUMP_LIBRARY_PATH; and without an installed libjump its build stops saying so.
python_sdist() {
    local sdist venv isolation=(--no-build-isolation)
    sdist=$(bash scripts/build-sdist.sh "$stage/sdist") || return 1
    python3 -c 'import setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' || isolation=()
    env -u JUMP_LIBRARY_PATH python3 -m pip wheel --quiet --no-deps "${isolation[@]}" -w "$stage/sdist/wheel" "$sdist" \
        >"$stage/sdist.log" 2>&1 || return 1
    python3 -m venv "$stage/venv" && "$stage/venv/bin/pip" install --quiet --no-index "$stage"/sdist/wheel/libjump-*.whl || return 1
    (cd "$stage" && with_installed_emulator env -u LD_LIBRARY_PATH -u JUMP_LIBRARY_PATH -u PYTHONPATH \
        "$stage/venv/bin/python" "$here/examples/python/quickstart.py" >"$stage/sdist-quickstart.out" 2>&1) &&
        grep -q "from $stage/venv/lib/.*/site-packages/jump/libjump.so" "$stage/sdist-quickstart.out" &&
        tail -1 "$stage/sdist-quickstart.out" | grep -q 'quickstart OK'
}
python_sdist_without_libjump() {
    local sdist isolation=(--no-build-isolation)
    sdist=$(ls "$stage"/sdist/libjump-*.tar.gz) || return 1
    python3 -c 'import setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' || isolation=()
    ! env -u JUMP_LIBRARY_PATH PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$stage/nowhere" \
        python3 -m pip wheel --no-deps "${isolation[@]}" -w "$stage/sdist/nowheel" "$sdist" >"$stage/sdist-none.log" 2>&1 &&
        grep -q 'needs libjump installed, and none was found' "$stage/sdist-none.log"
}
check "the Python sdist builds against the installed libjump (pkg-config) and runs the quickstart" python_sdist
check "... and without one its build stops, saying where it looked" python_sdist_without_libjump

source Tests/install/nuget.sh
source Tests/install/packages.sh

# make dist: a tarball of exactly what install installs.
if make --no-print-directory dist >"$stage/dist.log" 2>&1; then
    tarball=$(tail -1 "$stage/dist.log")
    check "make dist holds exactly what make install installs" bash -c \
        "diff <(tar -tzf '$tarball' | grep -v '/\$' | sed 's|^usr/local/||' | sort) \
              <(cd '$stage/usr' && find . -type f -o -type l | sed 's|^\./||' | sort)"
else
    cat "$stage/dist.log"
    check "make dist" false
fi

make --no-print-directory uninstall DESTDIR="$stage" PREFIX=/usr >/dev/null 2>&1
check "make uninstall removes every installed file" sh -c "test -z \"\$(find '$stage/usr' -type f -o -type l)\""

echo
if [ "${packages_skipped:-0}" != 0 ]; then
    echo "$passed passed, $failed failed, $packages_skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ]
