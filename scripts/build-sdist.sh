#!/usr/bin/env bash
# Usage: build-sdist.sh [OUTDIR]     (what `make sdist` runs; default: build/wheels)
#
# Builds the Python package's sdist, OUTDIR/libjump-<version>.tar.gz, and prints its path. It holds the
# Python code only (jump/*.py, py.typed, pyproject.toml, setup.py, README.md, LICENSE, NOTICE), no libjump.so:
# building a wheel from it (pip install libjump-<version>.tar.gz) uses the libjump installed on that machine,
# found through $JUMP_LIBRARY_PATH or pkg-config (setup.py), and stops saying where it looked when there is none.
#
# Built in a staging copy of bindings/python (no tests, __pycache__ or egg-info can end up in it) with
# `python -m build --sdist` (pip: build): without build isolation when the installed setuptools is >= 77
# (offline), else in an isolated environment (which fetches setuptools from the package index).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
outdir=${1:-$here/build/wheels}
python=${PYTHON:-python3}

source "$here/scripts/package-common.sh"
check_package_version build-sdist bindings/python/jump/__init__.py "$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$here/bindings/python/jump/__init__.py")"
(cd / && "$python" -c 'import build') 2>/dev/null || {
    echo "build-sdist: the build package is needed ($python -m pip install build; scripts/ensure-deps.sh --package wheel)" >&2
    exit 1
}

stage=$(mktemp -d -t jump-sdist.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$outdir"
stage_python_package "$stage/src"

isolation=(--no-isolation)
"$python" -c 'import setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' 2>/dev/null ||
    isolation=()
(cd "$stage" && "$python" -m build --sdist "${isolation[@]}" --outdir "$stage/dist" "$stage/src" >"$stage/build.log" 2>&1) || {
    cat "$stage/build.log" >&2
    exit 1
}
sdist=$stage/dist/libjump-$version.tar.gz
[ -f "$sdist" ] || { echo "build-sdist: no libjump-$version.tar.gz was made" >&2; exit 1; }
mv -f "$sdist" "$outdir/libjump-$version.tar.gz.tmp" && mv -f "$outdir/libjump-$version.tar.gz.tmp" "$outdir/libjump-$version.tar.gz"
echo "$outdir/libjump-$version.tar.gz"
