#!/usr/bin/env bash
# The Go binding's suite: go vet, then `go test` of bindings/go (against a real jump-emulator, which the tests
# start: $JUMP_EMULATOR, default build/bin/jump-emulator) and of the examples (examples/go, run by the tests).
# Ends with "N passed, N failed" (top-level tests of `go test -v`), which scripts/run-tests.sh reads.
#
# Builds against the source tree, not an installed libjump: cgo's `#cgo pkg-config: jump` finds the jump.pc
# written here to build/go/pkgconfig, naming include/ and the directory of $JUMP_LIBRARY_PATH (default
# build/lib) with an rpath, so the test binaries load that libjump.so. Nothing is downloaded (GOPROXY=off: the
# binding uses the standard library only); Go's caches live under build/go, so the tree stays clean.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=${JUMP_LIBRARY_PATH:-$root/build/lib/libjump.so}
export JUMP_EMULATOR=${JUMP_EMULATOR:-$root/build/bin/jump-emulator}
command -v go >/dev/null || { echo "go is missing: scripts/ensure-deps.sh --test go (Debian's golang-go)"; echo "0 passed, 1 failed"; exit 1; }
[ -f "$lib" ] || { echo "$lib is missing (make lib)"; echo "0 passed, 1 failed"; exit 1; }
libdir=$(cd "$(dirname "$lib")" && pwd)
out=$root/build/go
mkdir -p "$out/pkgconfig"
version=$(sed -n 's/^#define JUMP_VERSION "\(.*\)"/\1/p' "$root/include/jump.h")
sed -e "s|@PREFIX@|$root|" -e "s|@LIBDIR@|$libdir|" -e "s|@INCLUDEDIR@|$root/include|" -e "s|@VERSION@|$version|" \
    -e 's|^Libs: .*|Libs: -L${libdir} -ljump -Wl,-rpath,${libdir}|' "$root/scripts/jump.pc.in" >"$out/pkgconfig/jump.pc"
export PKG_CONFIG_PATH=$out/pkgconfig GOCACHE=$out/cache GOPATH=$out/path GOPROXY=off GOFLAGS=-mod=mod \
    GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=1

cd "$root/bindings/go"
log=$out/test.log
status=0
go vet ./... || status=1
# -p 1: one test binary at a time (the machine is shared); the tests take about a minute.
go test -v -count=1 -p 1 -timeout 900s ./... 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
passed=$(grep -cE '^--- PASS' "$log")
failed=$(grep -cE '^--- FAIL' "$log")
[ "$status" != 0 ] && [ "$failed" = 0 ] && failed=1  # a vet failure, a build failure or a crash
echo "$passed passed, $failed failed"
exit $status
