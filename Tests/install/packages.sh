# The npm package, the NuGet package and the jar are self-contained: sourced by Tests/install/run.sh after
# Tests/install/nuget.sh (its check, with_installed_emulator, $stage, $version; nuget.sh's $nupkg, $nuget_rid
# and the C# quickstart it built against the restored package, $nuget_app/bin).
# - Each package's native files (every .so and .node in its native folder, recursively through the libraries
#   bundled beside libjump) need nothing but the C library's own (readelf -d, NEEDED): libcurl, its TLS
#   library and the rest of its tree, and jansson, travel in the package, every RUNPATH $ORIGIN.
# - The Node.js, C# and Java quickstarts run from their packages, against the installed emulator, in a private
#   mount namespace (unshare -m, as root) where the system's libcurl, libssl, libcrypto and libjansson are
#   empty files (bind mounts over each file ldconfig -p names): what a machine without them would see.
#   Skipped, saying why, only when unshare is not permitted here.
# The Java quickstart runs with the jar itself on the class path: the binding's Loader copies libjump.so.1,
# libjumpjni.so and the libraries listed in native/<os>-<arch>/bundled-libraries.txt out of it.

source "$here/scripts/package-common.sh"
packages_arch=$(uname -m)

# The ELF files of DIR need only the C library's own, each NEEDED entry beyond it a file in DIR, found there
# through RUNPATH $ORIGIN; libcurl and jansson are among those files. Says what is missing on stderr.
self_contained() {
    local dir=$1 file name outside needs_bundled
    outside=$(native_needs_outside "$dir")
    [ -z "$outside" ] || { echo "needed from the system: $outside" >&2; return 1; }
    for file in "$dir"/*.so "$dir"/*.so.* "$dir"/*.node; do
        [ -f "$file" ] || continue
        needs_bundled=false
        while read -r name; do
            [[ $name =~ $C_LIBRARY_OWN_RE ]] || needs_bundled=true
        done < <(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
        if $needs_bundled && ! readelf -d "$file" | grep -q 'RUNPATH.*\[\$ORIGIN\]'; then
            echo "$(basename "$file") has no RUNPATH \$ORIGIN" >&2
            return 1
        fi
    done
    ls "$dir" | grep -q '^libcurl[-.]' && ls "$dir" | grep -q '^libjansson[-.]'
}

# The system's libraries a self-contained package must do without: every file ldconfig -p names for them.
masked_libraries=$(ldconfig -p | awk '$1 ~ /^lib(curl|ssl|crypto|jansson)[-.0-9a-z]*\.so/ {print $NF}' |
    while read -r f; do readlink -f "$f"; done | sort -u)
: >"$stage/empty"
# Runs "$@" in a private mount namespace where each of $masked_libraries is an empty file; its status.
without_system_libraries() {
    # shellcheck disable=SC2016
    unshare -m --propagation private bash -c '
        empty=$1; shift
        for f in $MASKED; do mount --bind "$empty" "$f" || exit 97; done
        for f in $MASKED; do [ ! -s "$f" ] || exit 98; done
        exec "$@"' _ "$stage/empty" "$@"
}
export MASKED=$masked_libraries
unshare_reason=
if [ "$(id -u)" != 0 ]; then
    unshare_reason="not root"
elif ! unshare -m --propagation private bash -c "mount --bind '$stage/empty' '$stage/empty'" 2>"$stage/unshare.err"; then
    unshare_reason="unshare -m is not permitted here ($(head -1 "$stage/unshare.err"))"
elif [ -z "$masked_libraries" ]; then
    unshare_reason="ldconfig -p names no libcurl, libssl, libcrypto or libjansson"
fi
packages_skipped=0
check_without_system_libraries() { # check_without_system_libraries "what" command...
    if [ -n "$unshare_reason" ]; then
        echo "SKIP $1 ($unshare_reason)"
        packages_skipped=$((packages_skipped + 1))
        return 0
    fi
    check "$@"
}

# The packages: the npm package and the jar built as make npm and make jar build them (the NuGet package is
# nuget.sh's), each unpacked.
npm_dir=$stage/npm
if bash scripts/build-npm.sh "${JUMP_LIBRARY_PATH:-$here/build/lib/libjump.so}" "$npm_dir" >"$stage/npm.log" 2>&1; then
    tarball=$(tail -1 "$stage/npm.log")
    mkdir -p "$npm_dir/unpacked" && tar -C "$npm_dir/unpacked" -xzf "$tarball"
else
    cat "$stage/npm.log"
    tarball=
fi
check "make npm builds the npm package" test -n "$tarball"
jar_file=build/dist/jump-$version.jar
make --no-print-directory jar >"$stage/jar.log" 2>&1 || cat "$stage/jar.log"
check "make jar builds the jar, its sources jar and its Javadoc jar" sh -c \
    "test -f '$jar_file' && unzip -l build/dist/jump-$version-sources.jar | grep -q 'io/libjump/Client.java' && \
     unzip -l build/dist/jump-$version-javadoc.jar | grep -q 'io/libjump/Client.html'"
jar_dir=$stage/jar
mkdir -p "$jar_dir/classes" && (cd "$jar_dir/classes" && jar -xf "$here/$jar_file") 2>/dev/null
jar_natives=$jar_dir/classes/native/linux-$packages_arch
mv "$jar_natives" "$jar_dir/natives" 2>/dev/null && rm -rf "$jar_dir/classes/native"
nuget_dir=$stage/nuget-native
mkdir -p "$nuget_dir" && unzip -q -j -o "${nupkg:-missing}" "runtimes/$nuget_rid/native/*" -d "$nuget_dir" 2>/dev/null

check "the npm package's jump.node and libjump.so.1 need only the C library's own (libcurl, jansson... bundled)" \
    self_contained "$npm_dir/unpacked/package"
check "the NuGet package's runtimes/$nuget_rid/native needs only the C library's own (libcurl, jansson... bundled)" \
    self_contained "$nuget_dir"
check "the jar's native/linux-$packages_arch needs only the C library's own (libcurl, jansson... bundled)" \
    self_contained "$jar_dir/natives"
check "... and lists the bundled libraries in bundled-libraries.txt" sh -c \
    "cd '$jar_dir/natives' && test -s bundled-libraries.txt && \
     test \"\$(cat bundled-libraries.txt)\" = \"\$(ls | grep -v -e '^libjump\.so\.1\$' -e '^libjumpjni\.so\$' -e '^bundled-libraries\.txt\$' | sort)\""

# Node.js: the quickstart next to node_modules/libjump (npm install --offline of the package), so its
# require('libjump') is the package's.
node_quickstart() {
    local app=$stage/npm-app
    mkdir -p "$app" && echo '{"name":"app","version":"1.0.0","private":true}' >"$app/package.json" &&
        (cd "$app" && npm install --offline --no-audit --no-fund --cache "$stage/npm-cache" \
            --registry http://127.0.0.1:9/ "$tarball") >"$stage/npm-install.log" 2>&1 || return 1
    cp examples/node/quickstart.js "$app/quickstart.js" || return 1
    (cd "$app" && with_installed_emulator without_system_libraries \
        env -u LD_LIBRARY_PATH -u JUMP_LIBRARY_PATH -u JUMP_NODE_ADDON -u NODE_PATH node quickstart.js) \
        >"$stage/npm-quickstart.out" 2>&1 && tail -1 "$stage/npm-quickstart.out" | grep -q '^quickstart OK$'
}
csharp_quickstart() {
    test -f "$nuget_app/bin/Quickstart.exe" || return 1
    (cd "$nuget_app" && with_installed_emulator without_system_libraries env -u LD_LIBRARY_PATH -u JUMP_LIBRARY_PATH \
        mono bin/Quickstart.exe) >"$stage/nuget-bare.out" 2>&1 &&
        grep -q '^still signed in after restart as .*; aboutMe: Written by the C# quickstart$' "$stage/nuget-bare.out"
}
java_quickstart() {
    mkdir -p "$jar_dir/app" && javac -d "$jar_dir/app" -cp "$jar_dir/classes" examples/java/Quickstart.java || return 1
    (cd "$jar_dir/app" && with_installed_emulator without_system_libraries env -u LD_LIBRARY_PATH -u JUMP_LIBRARY_PATH \
        java -cp "$here/$jar_file:." Quickstart) >"$stage/jar-bare.out" 2>&1 &&
        grep -q '^after restart: signed in true, aboutMe ' "$stage/jar-bare.out"
}
check_without_system_libraries "the Node.js quickstart runs from the npm package with the system's libcurl, libssl, libcrypto and libjansson unreadable" \
    node_quickstart
check_without_system_libraries "the C# quickstart runs from the NuGet package with the system's libcurl, libssl, libcrypto and libjansson unreadable" \
    csharp_quickstart
check_without_system_libraries "the Java quickstart runs from the jar on the class path with the system's libcurl, libssl, libcrypto and libjansson unreadable" \
    java_quickstart
