# Sourced by the packaging scripts (build-wheel.sh, build-sdist.sh, build-npm.sh, build-nuget.sh,
# bindings/java/build.sh) and Tests/install; they set $here (the
# repository root) first.

# The version has one source, include/jump.h; a package that says another stops the build.
#   check_package_version SCRIPT-NAME PACKAGE-FILE PACKAGE-VERSION   sets $version, or exits 1 saying what differs
check_package_version() {
    local script=$1 file=$2 package_version=$3
    version=$(sed -n 's/^#define JUMP_VERSION "\(.*\)"/\1/p' "$here/include/jump.h")
    if [ -z "$version" ] || [ "$version" != "$package_version" ]; then
        echo "$script: include/jump.h says JUMP_VERSION \"$version\" but $file says \"$package_version\"; make them agree" >&2
        exit 1
    fi
}

# The Python package as it ships, copied into DIR (DIR/jump/ and the project files): only what the wheel and
# the sdist hold, so no tests, __pycache__ or egg-info can end up in them.
#   stage_python_package DIR
stage_python_package() {
    local dir=$1
    mkdir -p "$dir/jump"
    cp "$here/bindings/python/pyproject.toml" "$here/bindings/python/setup.py" "$here/bindings/python/README.md" \
       "$here/LICENSE" "$here/NOTICE" "$dir/"
    cp "$here"/bindings/python/jump/*.py "$here/bindings/python/jump/py.typed" "$dir/jump/"
}

# The libraries a package's native files may need from the system: the C library's own (glibc: libc, libm,
# libdl, libpthread, librt, libresolv, libutil, the loader) and libgcc_s. Everything else they need (libcurl,
# its TLS library and the rest of its tree, jansson) travels in the package (bundle_native_libraries).
C_LIBRARY_OWN_RE='^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libresolv\.so\.2|libutil\.so\.1|libgcc_s\.so\.1|ld-linux[-a-z0-9_]*\.so\.[0-9]+|linux-vdso\.so\.1)$'

# Bundles what the ELF files FILE... (in DIR, e.g. libjump.so.1 and jump.node) need beyond the C library's own,
# as auditwheel does for the wheel: every library of their tree (ldd: libcurl, OpenSSL, GnuTLS, Kerberos,
# nghttp2, jansson...) is copied into DIR under a name hashed from its content (libcurl.so.4 ->
# libcurl-1a2b3c4d.so.4: no clash with a system copy another part of the process loaded by its own name), its
# soname set to that name; every NEEDED entry of FILE... and of the copies is rewritten to the new names and
# every RUNPATH set to $ORIGIN (patchelf), so each finds the others beside it. A library already in DIR
# (libjump.so.1, which jump.node or libjumpjni.so needs) stays as it is.
# Prints the bundled files' names (one a line, in no particular order); stops when patchelf is missing or a
# dependency is not found. --keep-names bundles them under their own sonames (libcurl.so.4), NEEDED entries
# unchanged: a loader that copies only some of the files out of the package (the jar's) then still finds the
# rest on the system, through the same names.
#   bundle_native_libraries [--keep-names] DIR FILE...
bundle_native_libraries() {
    local keep_names=false
    [ "$1" = "--keep-names" ] && { keep_names=true; shift; }
    local dir=$1 file name path hash base rest new
    shift
    command -v patchelf >/dev/null || { echo "patchelf is needed (Debian: patchelf; scripts/ensure-deps.sh --package ...)" >&2; return 1; }
    local -A renamed=()
    local -a bundled=()
    for file in "$@"; do
        # "name => path (address)" lines; the loader and the vDSO have no "=>".
        while read -r name path; do
            [[ $name =~ $C_LIBRARY_OWN_RE ]] && continue
            [ -n "${renamed[$name]:-}" ] && continue
            if [ "$path" = "not" ]; then echo "bundle: $file needs $name, which is not found" >&2; return 1; fi
            [ -e "$dir/$name" ] && continue
            hash=$(sha256sum "$path" | cut -c1-8)
            base=${name%%.so*}
            rest=${name#"$base"}
            new=$base-$hash$rest
            $keep_names && new=$name
            install -m 0755 "$path" "$dir/$new"
            $keep_names || patchelf --set-soname "$new" "$dir/$new"
            renamed[$name]=$new
            bundled+=("$new")
        done < <(cd "$dir" && ldd "./$file" | sed -n 's/^[[:space:]]*\([^ ]*\) => \([^ ]*\).*/\1 \2/p')
    done
    local -a args
    for file in "$@" "${bundled[@]}"; do
        args=()
        while read -r name; do
            [ -n "${renamed[$name]:-}" ] && [ "${renamed[$name]}" != "$name" ] &&
                args+=(--replace-needed "$name" "${renamed[$name]}")
        done < <(patchelf --print-needed "$dir/$file")
        ((${#args[@]})) && patchelf "${args[@]}" "$dir/$file"
        patchelf --set-rpath '$ORIGIN' "$dir/$file"
    done
    printf '%s\n' "${bundled[@]}"
}

# What the ELF files in DIR (every *.so* and *.node, recursively through one another) need that is neither the
# C library's own nor a file in DIR: one "file: NEEDED" line each; prints nothing when the package is
# self-contained. (readelf -d, the NEEDED entries as written; no search path is consulted.)
#   native_needs_outside DIR
native_needs_outside() {
    local dir=$1 file name
    for file in "$dir"/*.so "$dir"/*.so.* "$dir"/*.node; do
        [ -f "$file" ] || continue
        while read -r name; do
            [[ $name =~ $C_LIBRARY_OWN_RE ]] && continue
            [ -f "$dir/$name" ] || echo "$(basename "$file"): $name"
        done < <(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    done
}
