#!/usr/bin/env bash
# Installs the system packages libjump builds against, or prints the exact command when not root.
# --test also installs what the tests need beyond the build: Chromium and its driver (apt) and selenium
# (pip), for the headless-browser social sign-in test; mypy (pip), for the test that the Python package passes
# mypy --strict (bindings/python/tests/test_typing.py); python3-venv when python3 lacks venv (the wheel test).
# Idempotent: nothing is fetched when all is there.
set -euo pipefail
# binutils: objcopy, strip and readelf for make install (stripped library, debug info apart) and its tests.
packages=(libjansson-dev libcurl4-openssl-dev libsqlite3-dev pkg-config binutils)
python_packages=()
if [ "${1:-}" = "--test" ]; then
    packages+=(chromium chromium-driver)
    python3 -c "import pytest" 2>/dev/null || python_packages+=(pytest)
    python3 -c "import selenium" 2>/dev/null || python_packages+=(selenium)
    python3 -c "import mypy" 2>/dev/null || python_packages+=(mypy)
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
