# Sourced by run-tests.sh and bench.sh: Go's environment for building bindings/go against this source tree.
# cgo's `#cgo pkg-config: jump` finds the jump.pc written to build/go/pkgconfig, naming include/ and the
# directory of $JUMP_LIBRARY_PATH (default build/lib) with an rpath, so the binaries load that libjump.so.
# Nothing is downloaded (GOPROXY=off: the binding uses the standard library only); Go's caches live under
# build/go, so the tree stays clean. Sets: root, lib, out.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lib=${JUMP_LIBRARY_PATH:-$root/build/lib/libjump.so}
out=$root/build/go
go_env_ready() {
    command -v go >/dev/null || { echo "go is missing: scripts/ensure-deps.sh --test go (Debian's golang-go)"; return 1; }
    [ -f "$lib" ] || { echo "$lib is missing (make lib)"; return 1; }
    local libdir version
    libdir=$(cd "$(dirname "$lib")" && pwd)
    mkdir -p "$out/pkgconfig" "$out/bin"
    version=$(sed -n 's/^#define JUMP_VERSION "\(.*\)"/\1/p' "$root/include/jump.h")
    sed -e "s|@PREFIX@|$root|" -e "s|@LIBDIR@|$libdir|" -e "s|@INCLUDEDIR@|$root/include|" -e "s|@VERSION@|$version|" \
        -e 's|^Libs: .*|Libs: -L${libdir} -ljump -Wl,-rpath,${libdir}|' "$root/scripts/jump.pc.in" >"$out/pkgconfig/jump.pc"
    export PKG_CONFIG_PATH=$out/pkgconfig GOCACHE=$out/cache GOPATH=$out/path GOPROXY=off GOFLAGS=-mod=mod \
        GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=1
}
