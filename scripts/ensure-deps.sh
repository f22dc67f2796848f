#!/usr/bin/env bash
# Installs the system packages libjump builds against, or prints the exact commands when it cannot.
#   ensure-deps.sh                     what the build needs (make lib, make emulator)
#   ensure-deps.sh --test [SUITE...]   that and what the test suites need (all suites without names; the
#                                      names of scripts/run-tests.sh: swift c python node csharp go java rust abi install)
#   ensure-deps.sh --package KIND...   what packaging needs beyond the build: wheel (make wheel, make sdist:
#                                      patchelf from Debian; auditwheel and build from PyPI), npm (make npm:
#                                      node-gyp, Debian's when Node.js is Debian's, else the one npm bundles;
#                                      python3, make and g++ for it; Node.js and its headers), nuget (make
#                                      nuget: Debian's nuget, NuGet 2.8 on Mono; mono-complete for mcs; zip), jar
#                                      (make jar: a JDK 17, javac and jar)
# What the suites need beyond the build: python, Chromium and its driver (apt) and selenium (pip), for the
# headless-browser social sign-in test; gnome-keyring, libsecret-tools and dbus, for the Secret Service tests
# (a keyring daemon unlocked under dbus-run-session); mypy (pip), for the test that the Python package passes mypy --strict
# (bindings/python/tests/test_typing.py); pytest and requests (pip); python3-venv when python3 lacks venv (the
# wheel test); and the unmodified janrain-python-api 0.4.0 sdist in build/third_party/ for Tests/serverapi
# (its setup.py needs use_2to3, which modern setuptools lacks, so it is put on sys.path rather than
# installed); faketime and trustme (pip), for the clock-skew and TLS tests; and what make wheel needs (the
# wheel test builds one). node, Node.js and its headers, what
# make npm needs (the package test builds one), and TypeScript's tsc (Debian's node-typescript), for the test
# that index.d.ts compiles with --strict (bindings/node/test/typescript.test.js). csharp, mono-complete (mcs and mono). go,
# golang-go (Go 1.19; the binding uses no module). java, openjdk-17-jdk-headless (javac, jar, java, and jni.h for
# the glue). rust, Debian's cargo and rustc (1.63) when the machine has no cargo (the binding needs no crate:
# crates.io is not used). install, gdb and
# groff-base, cmake (the README's C program built with find_package(jump)), man-db (man jump_client_sign_in),
# what make sdist needs (the sdist is built against the installed tree) and what make nuget needs (the package
# is restored and built against).
# Installs as root, or through passwordless sudo; otherwise prints the commands to run (as root) and exits 1.
# pip installs into python3's environment; for Debian's own python3 (PEP 668, "externally managed") with
# --break-system-packages, which puts them in /usr/local, not over Debian's packages.
# Idempotent: nothing is fetched when all is there. make test and make test-SUITE run it first.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# One run at a time per checkout (make -j runs deps and test-deps side by side): a lock on this file.
exec 9<"${BASH_SOURCE[0]}"
flock 9

# The reference server-API client Tests/serverapi runs against the emulator: fetched once, checked
# against its PyPI sha256 before anything is extracted, unpacked as published.
fetch_janrain_python_api() {
    python3 - "$here/build/third_party" <<'PY'
import hashlib, io, os, sys, tarfile, tempfile, urllib.request
URL = ("https://files.pythonhosted.org/packages/8f/eb/64e694dd15bf3b102b55eb57ab1b36edb8232e2dfb20d4e02fc1f89e2fe6/"
       "janrain-python-api-0.4.0.tar.gz")
SHA256 = "fb3320f9eb0d80a471a7b7248a3919499d11c5bc974ec1b33473505c8f0ece5a"
dest = sys.argv[1]
root = os.path.join(dest, "janrain-python-api-0.4.0")
stamp = os.path.join(root, ".sha256")
if os.path.exists(stamp) and open(stamp).read().strip() == SHA256:
    sys.exit(0)
print("fetching janrain-python-api 0.4.0 (sdist, for Tests/serverapi)")
with urllib.request.urlopen(URL, timeout=60) as response:
    data = response.read()
digest = hashlib.sha256(data).hexdigest()
if digest != SHA256:
    sys.exit(f"janrain-python-api-0.4.0.tar.gz: sha256 {digest}, expected {SHA256}; not extracted")
os.makedirs(dest, exist_ok=True)
staging = tempfile.mkdtemp(prefix=".janrain-", dir=dest)
with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
    for member in archive.getmembers():
        if member.name.startswith("/") or ".." in member.name.split("/") or not (member.isfile() or member.isdir()):
            sys.exit(f"janrain-python-api sdist: refusing archive member {member.name!r}")
    archive.extractall(staging)
extracted = os.path.join(staging, "janrain-python-api-0.4.0")
with open(os.path.join(extracted, ".sha256"), "w") as out:
    out.write(SHA256 + "\n")
if os.path.exists(root):
    import shutil
    shutil.rmtree(root)
os.replace(extracted, root)
os.rmdir(staging)
PY
}

# binutils: objcopy, strip and readelf for make install (stripped library, debug info apart) and its tests.
# valgrind: its valgrind.h, with which the fibers' stacks are made known to Valgrind (Sources/CFiber).
packages=(libjansson-dev libcurl4-openssl-dev libssl-dev libsqlite3-dev pkg-config binutils g++ valgrind)
python_packages=()
what="The build needs"

# Packaging tools, for make wheel / make sdist (wheel) and make npm (npm).
packaging() {
    case "$1" in
        wheel)
            # auditwheel 6.8 wants patchelf >= 0.14.5; Debian 12 has 0.14.3, which 6.7 accepts.
            packages+=(patchelf)
            python3 -m auditwheel --version >/dev/null 2>&1 || python_packages+=("auditwheel>=6,<6.8")
            (cd / && python3 -c "import build") 2>/dev/null || python_packages+=(build)
            ;;
        npm)
            # node-gyp runs gyp (python3) and make; g++ is among the build's packages.
            packages+=(python3 make patchelf)
            command -v node >/dev/null && [ -f /usr/include/node/node_api.h ] || packages+=(nodejs libnode-dev)
            # Debian's node-gyp depends on Debian's nodejs; with another Node.js (nodesource's), the node-gyp
            # that npm bundles is used instead (scripts/build-npm.sh finds it).
            if ! command -v node-gyp >/dev/null && ! [ -f /usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js ] &&
                { ! command -v node >/dev/null || dpkg-query -W -f='${Version}' nodejs 2>/dev/null | grep -qv nodesource; }; then
                packages+=(node-gyp)
            fi
            ;;
        # nuget packs; mcs (mono-complete) builds Jump.dll against the 4.7.2 reference assemblies; zip puts
        # the complete nuspec into the package (scripts/build-nuget.sh says why).
        # patchelf bundles libcurl, its TLS library and jansson beside libjump (npm, nuget, jar).
        nuget) packages+=(nuget mono-complete zip patchelf) ;;
        # javac, jar and javadoc build the jar, its sources jar and its Javadoc jar; jni.h (in the JDK) the JNI glue.
        jar) packages+=(openjdk-17-jdk-headless patchelf) ;;
        *) echo "ensure-deps.sh: unknown package kind '$1' (wheel npm nuget jar)" >&2; exit 2 ;;
    esac
}
if [ "${1:-}" = "--package" ]; then
    shift
    what="Packaging (${*}) needs"
    for kind in "$@"; do packaging "$kind"; done
elif [ "${1:-}" = "--test" ]; then
    shift
    what="The tests${1:+ (${*})} need"
    suites=("$@")
    ((${#suites[@]})) || suites=(swift c python node csharp go java rust abi install)
    for suite in "${suites[@]}"; do
        case "$suite" in
            swift | abi) ;;  # the build's packages are all they need
            # Tests/fiber/run.sh (in the c suite) runs the aarch64 register switch under qemu-user.
            c) packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user) ;;
            python)
                packages+=(chromium chromium-driver)
                # The Secret Service tests (test_secret_service.py): a keyring daemon on a private session bus.
                packages+=(gnome-keyring libsecret-tools libsecret-1-0 dbus)
                # test_gdb_fibers.py: scripts/gdb-fibers.py lists a parked fiber in a live process.
                packages+=(gdb)
                python3 -c "import pytest" 2>/dev/null || python_packages+=(pytest)
                python3 -c "import selenium" 2>/dev/null || python_packages+=(selenium)
                python3 -c "import mypy" 2>/dev/null || python_packages+=(mypy)
                # requests is janrain-python-api's one dependency.
                python3 -c "import requests" 2>/dev/null || python_packages+=(requests)
                # Real networks (test_server_clock.py, test_tls_proxy.py): faketime runs a client with a wrong
                # clock; trustme makes a CA and certificates at test time (with cryptography, which it needs).
                packages+=(faketime)
                python3 -c "import trustme" 2>/dev/null || python_packages+=(trustme)
                fetch_janrain_python_api
                # The wheel test (bindings/python/tests/test_wheel.py) installs the wheel into a fresh venv;
                # Debian's own python3 has venv and ensurepip only with python3-venv.
                python3 -c "import ensurepip, venv" 2>/dev/null || packages+=(python3-venv)
                packaging wheel  # test_wheel.py builds the manylinux wheel
                ;;
            # Node.js and its headers (node_api.h, uv.h) for bindings/node, from Debian when the machine has none.
            # make npm's tools: bindings/node/test/package.test.js builds the npm package. tsc checks index.d.ts.
            node) command -v node >/dev/null && [ -f /usr/include/node/node_api.h ] || packages+=(nodejs libnode-dev)
                  command -v tsc >/dev/null || packages+=(node-typescript)
                  packaging npm ;;
            # mcs builds bindings/csharp and mono runs its tests (Debian's own Mono; no NuGet).
            csharp) packages+=(mono-complete) ;;
            # go builds bindings/go (cgo: gcc and pkg-config are the build's); the standard library only.
            go) packages+=(golang-go) ;;
            # javac builds bindings/java (no Maven, no JUnit: its own runner); the JDK's jni.h builds the glue.
            java) packaging jar ;;
            # bindings/rust builds with Debian's cargo (Rust 1.63); a machine with another cargo (rustup's)
            # keeps it, and run-tests.sh tests with both when both are there.
            rust) command -v cargo >/dev/null || [ -x /usr/bin/cargo ] || packages+=(cargo) ;;
            # The install suite checks the debug link with gdb and renders jump(3) with groff.
            # cmake builds the README's C program with find_package(jump); man-db's man finds jump_client_sign_in(3);
            # the sdist (make sdist's tools) is built against the installed tree, in a venv.
            install)
                packages+=(gdb groff-base cmake man-db)
                python3 -c "import ensurepip, venv" 2>/dev/null || packages+=(python3-venv)
                packaging wheel
                packaging nuget  # the NuGet package is built, restored and built against (xbuild: mono-complete)
                # the npm package and the jar are built and their quickstarts run where the system's libcurl
                # cannot be read (unshare and mount: util-linux and mount)
                packaging npm
                packaging jar
                packages+=(util-linux mount)
                ;;
            *) echo "ensure-deps.sh: unknown suite '$suite' (swift c python node csharp go java rust abi install)" >&2; exit 2 ;;
        esac
    done
fi

# Where pip installs: python3's own environment. Debian's python3 has no pip without python3-pip, and refuses
# pip installs (PEP 668) unless told --break-system-packages; a venv or pyenv python needs neither.
pip_flags=(-q)
python_writable=true
if ((${#python_packages[@]})); then
    python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
    python3 - <<'PY' && pip_flags+=(--break-system-packages)
import os, sys, sysconfig
marker = os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")
sys.exit(0 if sys.prefix == sys.base_prefix and os.path.exists(marker) else 1)
PY
    python3 -c "import os, sys, sysconfig; sys.exit(not os.access(sysconfig.get_path('purelib'), os.W_OK))" ||
        python_writable=false
    python=$(python3 -c "import sys; print(sys.executable)" 2>/dev/null || echo python3)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Each missing package once, in the order asked for.
readarray -t missing < <(printf '%s\n' "${missing[@]}" | awk 'NF && !seen[$0]++')

as_root=()  # how to run a command as root: nothing (root), sudo -n, or impossible (exit 1 with the commands)
can_root=true
if [ "$(id -u)" != 0 ]; then
    if sudo -n true 2>/dev/null; then as_root=(sudo -n env DEBIAN_FRONTEND=noninteractive); else can_root=false; fi
fi
# pip into an environment this user cannot write (the system's python3) needs root too.
pip_as=()
[ "$python_writable" = true ] || pip_as=("${as_root[@]}")

if ! $can_root && { ((${#missing[@]})) || ((${#python_packages[@]})); }; then
    lacking=()
    ((${#missing[@]})) && lacking+=("${missing[*]} (apt)")
    ((${#python_packages[@]})) && lacking+=("${python_packages[*]} (pip)")
    {
        echo "$what what this machine lacks: $(IFS=';'; echo "${lacking[*]}" | sed 's/;/; /g')"
        echo "run, then the make command again:"
        ((${#missing[@]})) && echo "  sudo apt-get install -y ${missing[*]}"
        if ((${#python_packages[@]})); then
            sudo="sudo "
            [ "$python_writable" = true ] && sudo=""
            echo "  $sudo$python -m pip install ${pip_flags[*]:1}${pip_flags[1]:+ }${python_packages[*]}"
        fi
    } >&2
    exit 1
fi
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -qq
    # Wait for another apt or dpkg (unattended-upgrades, a second checkout) instead of failing.
    "${as_root[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${missing[@]}" >/dev/null
fi
if ((${#python_packages[@]})); then
    echo "installing (pip): ${python_packages[*]}"
    "${pip_as[@]}" "$python" -m pip install "${pip_flags[@]}" "${python_packages[@]}"
fi
