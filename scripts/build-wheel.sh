#!/usr/bin/env bash
# Usage: build-wheel.sh [LIBRARY] [OUTDIR]     (what `make wheel` runs; defaults: build/lib/libjump.so, build/wheels)
#
# Builds the Python package (distribution "libjump", import name "jump") as a manylinux wheel with libjump.so
# inside it (jump/libjump.so, where the binding looks first after $JUMP_LIBRARY_PATH) and the libraries it
# needs bundled, e.g. OUTDIR/libjump-0.1.0-py3-none-manylinux_2_34_x86_64.whl, and prints its path.
#
# - The build runs in a staging copy of bindings/python holding only what the wheel ships (the package's .py
#   files, py.typed, pyproject.toml, setup.py, README.md, LICENSE and NOTICE) plus the library, stripped of
#   its debug info (as make install strips it): no __pycache__, tests, build/ or egg-info can end up in the
#   wheel, and the source tree is left as it was.
# - setup.py tags the wheel py3-none-linux_<arch>: the binding is ctypes only (any Python 3), the library is
#   for this OS and CPU. auditwheel repair (pip: auditwheel; it runs patchelf, from Debian) then copies what
#   libjump.so needs beyond the manylinux set (libcurl, jansson, OpenSSL and their own libraries) into
#   libjump.libs/ under hashed names, rewrites libjump.so's NEEDED entries to them and its rpath to
#   $ORIGIN/../libjump.libs, and tags the wheel with the oldest manylinux_2_X its symbols allow (as the
#   cryptography and pygit2 wheels bundle theirs): installed anywhere with that glibc, it needs nothing else.
# - The version is the one of include/jump.h; the build stops when the package says another.
# - pip builds with the installed setuptools when it is recent enough (>= 77, offline), else in pip's
#   isolated build environment (which fetches setuptools from the package index).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
library=${1:-$here/build/lib/libjump.so}
outdir=${2:-$here/build/wheels}
python=${PYTHON:-python3}

[ -f "$library" ] || { echo "build-wheel: no library at $library (make lib builds it)" >&2; exit 1; }
source "$here/scripts/package-common.sh"
check_package_version build-wheel bindings/python/jump/__init__.py "$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$here/bindings/python/jump/__init__.py")"

stage=$(mktemp -d -t jump-wheel.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$outdir"
stage_python_package "$stage"
if command -v strip >/dev/null; then
    strip --strip-unneeded -o "$stage/jump/libjump.so" "$library"
else
    cp "$library" "$stage/jump/libjump.so"
fi
chmod 0755 "$stage/jump/libjump.so"

isolation=(--no-build-isolation)
"$python" -c 'import setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' 2>/dev/null ||
    isolation=()
"$python" -m pip wheel --quiet --no-deps "${isolation[@]}" --wheel-dir "$stage/dist" "$stage" >&2
wheels=("$stage"/dist/libjump-"$version"-*.whl)
[ -f "${wheels[0]}" ] || { echo "build-wheel: pip made no libjump-$version wheel" >&2; exit 1; }

# manylinux: auditwheel picks the policy (the oldest manylinux_2_X within whose symbol versions libjump.so and
# its dependencies stay) and bundles every library outside it.
if ! "$python" -m auditwheel --version >/dev/null 2>&1 || ! command -v patchelf >/dev/null; then
    echo "build-wheel: auditwheel (pip) and patchelf (apt) are needed; scripts/ensure-deps.sh --package wheel" \
         "installs them" >&2
    exit 1
fi
"$python" -m auditwheel repair --wheel-dir "$stage/repaired" "${wheels[0]}" >&2
wheels=("$stage"/repaired/libjump-"$version"-py3-none-manylinux_*.whl)
[ -f "${wheels[0]}" ] || { echo "build-wheel: auditwheel made no manylinux wheel" >&2; exit 1; }
name=$(basename "${wheels[0]}")
mv -f "${wheels[0]}" "$outdir/$name.tmp" && mv -f "$outdir/$name.tmp" "$outdir/$name"
echo "$outdir/$name"
