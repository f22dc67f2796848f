"""Build hook (everything else is in pyproject.toml): a wheel that carries libjump.so is a platform wheel.

Where the wheel's libjump.so comes from:

* ``make wheel`` (scripts/build-wheel.sh) puts a stripped libjump.so in jump/ of a staging copy of this
  directory before building; auditwheel then bundles the libraries it needs (manylinux).
* A build from the sdist (scripts/build-sdist.sh; the unpacked sdist has PKG-INFO) uses the libjump installed
  on this machine: ``$JUMP_LIBRARY_PATH`` (the path of a libjump.so), else the libdir of ``pkg-config jump``
  (what ``make install`` installs). The library found is copied into the built package (never into the
  source directory); when there is none the build stops and says where it looked.
* From the source tree (``pip install ./bindings/python``), without a library next to the package, it stays
  a pure ``py3-none-any`` wheel that finds libjump through $JUMP_LIBRARY_PATH or the system library path.

The package itself is pure Python (ctypes, no use of the C API of Python), so a wheel with the library is
tagged ``py3-none-<platform>`` (any Python 3, this OS and CPU) and installed as platform code (not purelib).
"""

import ctypes
import os
import shutil
import subprocess
import sys
from typing import List, Optional, Tuple

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join(HERE, "jump", "libjump.so")
FROM_SDIST = os.path.exists(os.path.join(HERE, "PKG-INFO"))
ABI_VERSION = 1  # jump/_native.py's ABI_VERSION (JUMP_ABI_VERSION of jump.h)


class PlatformDistribution(Distribution):
    # What setuptools asks to decide that the package is platform code: installed to platlib, its files at the
    # wheel's root (not under .data/purelib), "Root-Is-Purelib: false".
    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    def get_tag(self) -> "tuple[str, str, str]":
        python, abi, platform = super().get_tag()
        if self.root_is_pure:
            return python, abi, platform
        return "py3", "none", platform  # not cp311-cp311: ctypes only, so one wheel serves every Python 3


def _pkg_config_libdirs() -> Tuple[List[str], str]:
    """The directories where pkg-config says libjump is, and what pkg-config said (for the error message)."""
    pkg_config = os.environ.get("PKG_CONFIG", "pkg-config")
    try:
        found = subprocess.run([pkg_config, "--libs-only-L", "jump"], capture_output=True, text=True, timeout=30)
        libdir = subprocess.run([pkg_config, "--variable=libdir", "jump"], capture_output=True, text=True, timeout=30)
    except OSError as exc:
        return [], f"{pkg_config} cannot run ({exc})"
    if found.returncode != 0:
        said = (found.stderr.strip().splitlines() or ["jump.pc not found"])[0]
        return [], f"{pkg_config} jump: {said} (PKG_CONFIG_PATH={os.environ.get('PKG_CONFIG_PATH', '')!r})"
    dirs = [flag[2:] for flag in found.stdout.split() if flag.startswith("-L")]
    # pkg-config leaves out -L of the system's library directories (/usr/lib); libdir names it.
    if libdir.returncode == 0 and libdir.stdout.strip():
        sysroot = os.environ.get("PKG_CONFIG_SYSROOT_DIR", "").rstrip("/")
        value = libdir.stdout.strip()  # pkgconf puts the sysroot in front already, pkg-config does not
        dirs.append(value if not sysroot or value.startswith(sysroot + "/") else sysroot + value)
    return dirs, f"{pkg_config} jump: libjump.so not in {', '.join(dirs) or 'its libdir'}"


def find_installed_libjump() -> Tuple[Optional[str], List[str]]:
    """(the path of the installed libjump.so, or None; where it looked)."""
    tried: List[str] = []
    env = os.environ.get("JUMP_LIBRARY_PATH")
    if env:
        if os.path.isfile(env):
            return env, tried
        tried.append(f"$JUMP_LIBRARY_PATH={env} (no such file)")
    else:
        tried.append("$JUMP_LIBRARY_PATH (not set)")
    dirs, said = _pkg_config_libdirs()
    for directory in dirs:
        candidate = os.path.join(directory, "libjump.so")
        if os.path.isfile(candidate):
            return candidate, tried
    tried.append(said)
    return None, tried


def installed_libjump() -> str:
    """The installed libjump.so this sdist build uses (checked: it loads and speaks ABI 1), or SystemExit."""
    path, tried = find_installed_libjump()
    if path is None:
        raise SystemExit(
            "libjump: building the Python package from its sdist needs libjump installed, and none was found.\n"
            "Looked at:\n  " + "\n  ".join(tried) + "\n"
            "Install libjump (`make install` in its sources, or its release tarball) so that `pkg-config --libs jump`\n"
            "finds it (set PKG_CONFIG_PATH for another prefix), or set JUMP_LIBRARY_PATH=/path/to/libjump.so;\n"
            "or install the libjump manylinux wheel instead, which carries libjump and what it needs."
        )
    try:
        abi = ctypes.CDLL(path).jump_abi_version()
    except (OSError, AttributeError) as exc:
        raise SystemExit(f"libjump: found {path}, but it does not load as libjump: {exc}")
    if abi != ABI_VERSION:
        raise SystemExit(f"libjump: {path} has ABI version {abi}; this package needs ABI version {ABI_VERSION}")
    print(f"libjump: using the installed {path} (copied into the package)", file=sys.stderr)
    return path


class BuildWithInstalledLibrary(build_py):
    """build_py that also copies the installed libjump.so into the built package (sdist builds)."""

    def run(self) -> None:
        super().run()
        if not self.dry_run:
            target = os.path.join(self.build_lib, "jump", "libjump.so")
            shutil.copyfile(os.path.realpath(SDIST_LIBRARY), target)  # the file, not a symlink chain
            os.chmod(target, 0o755)


SDIST_LIBRARY: Optional[str] = None
# The library is looked for only when a wheel is built from the sdist (not for the sdist itself, nor for
# metadata queries, nor when it is already next to the package).
if FROM_SDIST and not os.path.exists(LIBRARY) and any(a in ("bdist_wheel", "build", "build_py", "install")
                                                      for a in sys.argv[1:]):
    SDIST_LIBRARY = installed_libjump()

if os.path.exists(LIBRARY):
    setup(distclass=PlatformDistribution, cmdclass={"bdist_wheel": PlatformWheel})
elif SDIST_LIBRARY:
    setup(distclass=PlatformDistribution, cmdclass={"bdist_wheel": PlatformWheel, "build_py": BuildWithInstalledLibrary})
else:
    setup()
