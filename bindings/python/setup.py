"""Build hook (everything else is in pyproject.toml): a wheel that carries libjump.so is a platform wheel.

scripts/build-wheel.sh puts a stripped libjump.so in jump/ before building. The package itself is pure Python
(ctypes, no use of the C API of Python), so such a wheel is tagged ``py3-none-<platform>`` (e.g.
``py3-none-linux_x86_64``: any Python 3, this OS and CPU) and installed as platform code (not purelib).
Without the library next to the package (``pip install ./bindings/python``) it stays a pure
``py3-none-any`` wheel that finds libjump through $JUMP_LIBRARY_PATH or the system library path.
"""

import os

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jump", "libjump.so")


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


if os.path.exists(LIBRARY):
    setup(distclass=PlatformDistribution, cmdclass={"bdist_wheel": PlatformWheel})
else:
    setup()
