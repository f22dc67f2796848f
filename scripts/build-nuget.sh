#!/usr/bin/env bash
# Usage: build-nuget.sh [LIBRARY] [OUTDIR]    (what `make nuget` runs; defaults: build/lib/libjump.so, build/dist)
#
# Builds the NuGet package of bindings/csharp, OUTDIR/Jump.<version>.nupkg, and prints its path. What it holds
# and why (bindings/csharp/Jump.nuspec says more):
# - lib/net472/Jump.dll, compiled here by mcs against the .NET Framework 4.7.2 reference assemblies
#   (-sdk:4.7.2-api), with its XML docs (Jump.xml) and Jump.dll.config (Mono's dllmap);
# - runtimes/linux-<arch>/native/libjump.so: LIBRARY, stripped of its debug info (make nuget passes the one
#   make install installs) with its NEEDED entries rewritten to what is bundled beside it: libcurl, its TLS
#   library and the rest of its tree, and jansson, under hashed names, every RUNPATH $ORIGIN
#   (bundle_native_libraries in scripts/package-common.sh, as auditwheel does for the wheel), so the package
#   needs nothing from the system but the C library's own;
# - build/net472/Jump.targets, which copies the library next to Jump.dll as libjump.so.1 for Mono (msbuild),
#   and the bundled libraries under their own names;
# - README.md (bindings/csharp's), LICENSE, NOTICE.
# Packed by Debian's nuget (NuGet 2.8.7, on Mono), which validates against its 2013 schema and refuses the
# license, repository and readme elements; it packs a copy of the nuspec without them, then the package gets
# the complete nuspec (plus the licenseUrl newer NuGets write for older clients next to a license
# expression). Built in a staging directory; the source tree is left as it was. The version is the one of
# include/jump.h; the build stops when Jump.nuspec says another.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
library=${1:-$here/build/lib/libjump.so}
outdir=${2:-$here/build/dist}

[ -f "$library" ] || { echo "build-nuget: no library at $library (make lib builds it)" >&2; exit 1; }
for tool in mcs nuget zip; do
    command -v "$tool" >/dev/null || {
        echo "build-nuget: $tool is needed (scripts/ensure-deps.sh --package nuget installs it)" >&2
        exit 1
    }
done
source "$here/scripts/package-common.sh"
nuspec=$here/bindings/csharp/Jump.nuspec
check_package_version build-nuget bindings/csharp/Jump.nuspec "$(sed -n 's|^ *<version>\(.*\)</version>|\1|p' "$nuspec")"
case "$(uname -m)" in
    x86_64) rid=linux-x64 ;;
    aarch64) rid=linux-arm64 ;;
    *) echo "build-nuget: no NuGet runtime identifier known for $(uname -m)" >&2; exit 1 ;;
esac

stage=$(mktemp -d -t jump-nuget.XXXXXX)
trap 'rm -rf "$stage"' EXIT
package=$stage/package
mkdir -p "$package/lib/net472" "$package/build/net472" "$package/runtimes/$rid/native" "$stage/out" "$outdir"

# -warnaserror as in build.sh, a public member without a doc comment (CS1591) included.
mcs -nologo -optimize+ -warnaserror -sdk:4.7.2-api -target:library \
    -out:"$package/lib/net472/Jump.dll" -doc:"$package/lib/net472/Jump.xml" "$here"/bindings/csharp/src/*.cs
cp "$here/bindings/csharp/Jump.dll.config" "$package/lib/net472/"
strip --strip-unneeded -o "$package/runtimes/$rid/native/libjump.so" "$library"
chmod 0755 "$package/runtimes/$rid/native/libjump.so"
native=$package/runtimes/$rid/native
bundle_native_libraries "$native" libjump.so >"$stage/bundled.txt"
outside=$(native_needs_outside "$native")
[ -z "$outside" ] || { echo "build-nuget: the package's native files still need from the system: $outside" >&2; exit 1; }
items=
while read -r name; do
    items+="    <None Include=\"\$(MSBuildThisFileDirectory)../../runtimes/$rid/native/$name\"><Link>$name</Link><CopyToOutputDirectory>PreserveNewest</CopyToOutputDirectory><Visible>false</Visible></None>\n"
done < <(sort "$stage/bundled.txt")
sed -e "s|@RID@|$rid|g" -e "s|^ *<!-- @BUNDLED@ -->\$|${items%\\n}|" "$here/bindings/csharp/Jump.targets" \
    >"$package/build/net472/Jump.targets"
cp "$here/bindings/csharp/README.md" "$here/LICENSE" "$here/NOTICE" "$package/"

# The nuspec NuGet 2.8.7 accepts: without the newer elements (each on a line of its own in Jump.nuspec).
sed -e '/^ *<license type=/d' -e '/^ *<repository /d' -e '/^ *<readme>/d' "$nuspec" >"$package/Jump.nuspec"
grep -qE '<(license|repository|readme)[ >]' "$package/Jump.nuspec" && {
    echo "build-nuget: Jump.nuspec: license, repository and readme must each be on a line of their own" >&2
    exit 1
}
# HOME apart: NuGet 2.8 reads and writes ~/.config/NuGet/NuGet.Config even to pack.
(cd "$package" && HOME=$stage/home nuget pack Jump.nuspec -OutputDirectory "$stage/out" -NonInteractive -NoPackageAnalysis) \
    >"$stage/pack.log" 2>&1 || { cat "$stage/pack.log" >&2; echo "build-nuget: nuget pack failed" >&2; exit 1; }
nupkg=$stage/out/Jump.$version.nupkg
[ -f "$nupkg" ] || { cat "$stage/pack.log" >&2; echo "build-nuget: nuget pack made no Jump.$version.nupkg" >&2; exit 1; }

# The complete nuspec replaces the packed one (same name, so [Content_Types].xml still holds), as a packer
# writes it: metadata only, no comment and no <files>.
mkdir -p "$stage/nuspec"
sed -e '/<!--/,/-->/d' -e '/<files>/,/<\/files>/d' \
    -e 's|^\( *\)\(<license type=.*\)$|\1\2\n\1<licenseUrl>https://aka.ms/deprecateLicenseUrl</licenseUrl>|' \
    "$nuspec" >"$stage/nuspec/Jump.nuspec"
(cd "$stage/nuspec" && zip -q "$nupkg" Jump.nuspec)
mv -f "$nupkg" "$outdir/Jump.$version.nupkg.tmp" && mv -f "$outdir/Jump.$version.nupkg.tmp" "$outdir/Jump.$version.nupkg"
echo "$outdir/Jump.$version.nupkg"
