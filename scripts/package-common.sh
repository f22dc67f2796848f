# Sourced by the packaging scripts (build-wheel.sh, build-sdist.sh, build-npm.sh); they set $here (the
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
