#!/usr/bin/env bash
# Usage: build-npm.sh [LIBRARY] [OUTDIR]     (what `make npm` runs; defaults: build/lib/libjump.so, build/dist)
#
# Builds the npm package of bindings/node, OUTDIR/libjump-<version>.tgz, and prints its path:
# - the addon (jump.node) is built by node-gyp from bindings/node/binding.gyp against the Node.js headers
#   installed here (--nodedir=/usr: /usr/include/node; nothing is downloaded): Debian's node-gyp, else the
#   one npm bundles (a Node.js that is not Debian's, e.g. nodesource's, cannot have Debian's node-gyp);
# - libjump.so.1 (LIBRARY, stripped of its debug info) is next to it; the addon's rpath is $ORIGIN, so it is
#   found there with no LD_LIBRARY_PATH;
# - what libjump.so.1 needs beyond the C library's own (libcurl, its TLS library and the rest of its tree,
#   jansson) is bundled beside it under hashed names, every RUNPATH $ORIGIN (bundle_native_libraries in
#   scripts/package-common.sh, as auditwheel does for the wheel): the package needs no libcurl, OpenSSL or
#   jansson on the machine;
# - the package has no dependencies, so `npm install --offline ./libjump-<version>.tgz` needs no registry;
#   `require('libjump')` and `import ... from 'libjump'` (index.mjs, through the exports map) both work.
# Built in a staging directory holding only what the package ships; the source tree is left as it was. The
# version is the one of include/jump.h; the build stops when bindings/node/package.json says another.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
library=${1:-$here/build/lib/libjump.so}
outdir=${2:-$here/build/dist}
nodedir=${NODE_DIR:-/usr}

[ -f "$library" ] || { echo "build-npm: no library at $library (make lib builds it)" >&2; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "build-npm: node and npm are needed" >&2; exit 1; }
[ -f "$nodedir/include/node/node_api.h" ] || {
    echo "build-npm: no Node.js headers in $nodedir/include/node (Debian: libnode-dev; or set NODE_DIR)" >&2
    exit 1
}
source "$here/scripts/package-common.sh"
check_package_version build-npm bindings/node/package.json "$(node -p 'require(process.argv[1]).version' "$here/bindings/node/package.json")"
if command -v node-gyp >/dev/null; then
    node_gyp=(node-gyp)
else
    bundled=$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js
    [ -f "$bundled" ] || {
        echo "build-npm: node-gyp is needed (Debian: apt-get install node-gyp; scripts/ensure-deps.sh --package npm)" >&2
        exit 1
    }
    node_gyp=(node "$bundled")
fi

stage=$(mktemp -d -t jump-npm.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/addon/src" "$stage/lib" "$stage/package/lib" "$stage/package/types" "$outdir"
if command -v strip >/dev/null; then
    strip --strip-unneeded -o "$stage/lib/libjump.so" "$library"
else
    cp "$library" "$stage/lib/libjump.so"
fi

# The addon, linked against the stripped library (its soname, libjump.so.1, is what the addon will need).
cp "$here/bindings/node/binding.gyp" "$stage/addon/"
cp "$here"/bindings/node/src/*.c "$here"/bindings/node/src/*.h "$stage/addon/src/"
(
    cd "$stage/addon"
    export npm_config_nodedir=$nodedir npm_config_devdir=$stage/gyp-devdir
    "${node_gyp[@]}" configure --nodedir="$nodedir" --devdir="$stage/gyp-devdir" -- \
        -Djump_include="$here/include" -Djump_libdir="$stage/lib"
    "${node_gyp[@]}" build --jobs "$(nproc)"
) >"$stage/node-gyp.log" 2>&1 || { cat "$stage/node-gyp.log" >&2; echo "build-npm: node-gyp failed" >&2; exit 1; }
addon=$stage/addon/build/Release/jump.node
readelf -d "$addon" | grep -q 'R.*PATH.*\[\$ORIGIN\]' || { echo "build-npm: $addon has no rpath \$ORIGIN" >&2; exit 1; }
readelf -d "$addon" | grep -q 'NEEDED.*\[libjump\.so\.1\]' || { echo "build-npm: $addon does not need libjump.so.1" >&2; exit 1; }

# The package: the JavaScript, the types, the addon and libjump.so.1 side by side, README, LICENSE, NOTICE.
package=$stage/package
cp "$here/bindings/node/index.js" "$here/bindings/node/index.mjs" "$here/bindings/node/index.d.ts" \
   "$here/bindings/node/README.md" "$here/LICENSE" "$here/NOTICE" "$package/"
cp "$here"/bindings/node/lib/*.js "$package/lib/"
cp "$here"/bindings/node/types/*.d.ts "$package/types/"
install -m 0755 "$addon" "$package/jump.node"
install -m 0755 "$stage/lib/libjump.so" "$package/libjump.so.1"
bundle_native_libraries "$package" jump.node libjump.so.1 >"$stage/bundled.txt"
outside=$(native_needs_outside "$package")
[ -z "$outside" ] || { echo "build-npm: the package's native files still need from the system: $outside" >&2; exit 1; }
# package.json with os and cpu of this machine (the addon and the library are built for it).
cp "$here/bindings/node/package.json" "$package/package.json"
node -e '
const fs = require("node:fs");
const file = process.argv[1];
const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
pkg.os = [process.platform];
pkg.cpu = [process.arch];
delete pkg.scripts; // the tests are not in the package
// the bundled libraries (libcurl-<hash>.so.4...), beside libjump.so.1
const bundled = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean).sort();
pkg.files = pkg.files.concat(bundled);
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$package/package.json" "$stage/bundled.txt"
(cd "$package" && npm pack --offline --silent --pack-destination "$stage" >"$stage/pack.log" 2>&1) || {
    cat "$stage/pack.log" >&2
    exit 1
}
tarball=$stage/libjump-$version.tgz
[ -f "$tarball" ] || { echo "build-npm: npm pack made no libjump-$version.tgz" >&2; exit 1; }
mv -f "$tarball" "$outdir/libjump-$version.tgz.tmp" && mv -f "$outdir/libjump-$version.tgz.tmp" "$outdir/libjump-$version.tgz"
echo "$outdir/libjump-$version.tgz"
