#!/usr/bin/env bash
# Usage: build-wheel.sh [LIBRARY] [OUTDIR]     (what `make wheel` runs; defaults: build/lib/libjump.so, build/wheels)
#
# Builds the Python package as a platform wheel with libjump.so inside it (jump/libjump.so, where the binding
# looks first after $JUMP_LIBRARY_PATH), e.g. OUTDIR/jump-0.1.0-py3-none-linux_x86_64.whl, and prints its path.
#
# - The build runs in a staging copy of bindings/python holding only what the wheel ships (the package's .py
#   files, py.typed, pyproject.toml, setup.py, LICENSE and NOTICE) plus the library, stripped of its debug
#   info (as make install strips it): no __pycache__, tests, build/ or egg-info can end up in the wheel, and
#   the source tree is left as it was.
# - setup.py tags the wheel py3-none-<platform>: the binding is ctypes only (any Python 3), the library is
#   for this OS and CPU. Not manylinux: libjump.so needs libcurl and libjansson from the system, and
#   auditwheel would copy them (and OpenSSL) into the wheel and tag it for this machine's glibc.
# - The version is the one of include/jump.h; the build stops when the package says another.
# - pip builds with the installed setuptools when it is recent enough (>= 70.1, offline), else in pip's
#   isolated build environment (which fetches setuptools from the package index).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
library=${1:-$here/build/lib/libjump.so}
outdir=${2:-$here/build/wheels}
python=${PYTHON:-python3}

[ -f "$library" ] || { echo "build-wheel: no library at $library (make lib builds it)" >&2; exit 1; }
version=$(sed -n 's/^#define JUMP_VERSION "\(.*\)"/\1/p' "$here/include/jump.h")
package_version=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$here/bindings/python/jump/__init__.py")
if [ -z "$version" ] || [ "$version" != "$package_version" ]; then
    echo "build-wheel: include/jump.h says JUMP_VERSION \"$version\" but bindings/python/jump/__init__.py says" \
         "__version__ = \"$package_version\"; make them agree" >&2
    exit 1
fi

stage=$(mktemp -d -t jump-wheel.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/jump" "$outdir"
cp "$here/bindings/python/pyproject.toml" "$here/bindings/python/setup.py" "$here/LICENSE" "$here/NOTICE" "$stage/"
cp "$here"/bindings/python/jump/*.py "$here/bindings/python/jump/py.typed" "$stage/jump/"
if command -v strip >/dev/null; then
    strip --strip-unneeded -o "$stage/jump/libjump.so" "$library"
else
    cp "$library" "$stage/jump/libjump.so"
fi
chmod 0755 "$stage/jump/libjump.so"

isolation=(--no-build-isolation)
"$python" -c 'import setuptools.command.bdist_wheel' 2>/dev/null || isolation=()
"$python" -m pip wheel --quiet --no-deps "${isolation[@]}" --wheel-dir "$stage/dist" "$stage" >&2
wheels=("$stage"/dist/jump-"$version"-*.whl)
[ -f "${wheels[0]}" ] || { echo "build-wheel: pip made no jump-$version wheel" >&2; exit 1; }
name=$(basename "${wheels[0]}")
mv -f "${wheels[0]}" "$outdir/$name.tmp" && mv -f "$outdir/$name.tmp" "$outdir/$name"
echo "$outdir/$name"
