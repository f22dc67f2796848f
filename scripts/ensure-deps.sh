#!/usr/bin/env bash
# Installs the system packages libjump builds against, or prints the exact command when not root.
# --test also installs what the tests need beyond the build: Chromium and its driver (apt) and selenium
# (pip), for the headless-browser social sign-in test; mypy (pip), for the test that the Python package passes
# mypy --strict (bindings/python/tests/test_typing.py); python3-venv when python3 lacks venv (the wheel test);
# and puts the unmodified janrain-python-api 0.4.0 sdist in build/third_party/ for Tests/serverapi (its
# setup.py needs use_2to3, which modern setuptools lacks, so it is put on sys.path rather than installed);
# and mono-complete (mcs and mono), for the C# binding's suite (bindings/csharp/run-tests.sh).
# Idempotent: nothing is fetched when all is there.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

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
packages=(libjansson-dev libcurl4-openssl-dev libssl-dev libsqlite3-dev pkg-config binutils g++)
python_packages=()
if [ "${1:-}" = "--test" ]; then
    # gdb and groff-base: the install suite checks the debug link and renders jump(3).
    packages+=(chromium chromium-driver gdb groff-base)
    # mono-complete: mcs builds bindings/csharp and mono runs its tests (Debian's own Mono; no NuGet).
    packages+=(mono-complete)
    # Node.js and its headers (node_api.h, uv.h) for bindings/node, from Debian when the machine has none.
    command -v node >/dev/null && [ -f /usr/include/node/node_api.h ] || packages+=(nodejs libnode-dev)
    python3 -c "import pytest" 2>/dev/null || python_packages+=(pytest)
    python3 -c "import selenium" 2>/dev/null || python_packages+=(selenium)
    python3 -c "import mypy" 2>/dev/null || python_packages+=(mypy)
    # requests is janrain-python-api's one dependency.
    python3 -c "import requests" 2>/dev/null || python_packages+=(requests)
    fetch_janrain_python_api
    # The wheel test (bindings/python/tests/test_wheel.py) installs the wheel into a fresh venv; Debian's own
    # python3 has venv and ensurepip only with python3-venv.
    python3 -c "import ensurepip, venv" 2>/dev/null || packages+=(python3-venv)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    as_root=()
    [ "$(id -u)" = 0 ] || ! sudo -n true 2>/dev/null || as_root=(sudo -n env DEBIAN_FRONTEND=noninteractive)
    if [ "$(id -u)" = 0 ] || ((${#as_root[@]})); then
        echo "installing: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        "${as_root[@]}" apt-get update -qq
        "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "missing system packages; run:" >&2
        echo "  sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi
if ((${#python_packages[@]})); then
    echo "installing (pip): ${python_packages[*]}"
    python3 -m pip install -q "${python_packages[@]}"
fi
