"""Fixtures for the emulator's own tests: the tests here speak HTTP to a real jump-emulator (its admin API,
its dashboard, its export) and never load libjump. They share the binding tests' helpers
(bindings/python/tests/emulator_process.py, emulator_helpers.py, headless_chromium.py: none imports jump)
instead of copying them.

This directory is a package (``__init__.py``) so that this conftest and bindings/python/tests/conftest.py can
run in one pytest session (scripts/run-tests.sh's python suite) without their module names clashing.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python" / "tests"))
# The session's emulator, the same reset for each test, and the fake identity provider: fixtures by import.
from emulator_helpers import emu, emulator, idp  # noqa: E402,F401
