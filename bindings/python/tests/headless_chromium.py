"""Headless Chromium for the browser tests (selenium + chromedriver from Debian's chromium and
chromium-driver; scripts/ensure-deps.sh --test installs them, and CI does). ``require(what)`` skips a test
module, saying why, only when they are missing outside CI: under CI=true a missing browser is a failure."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator, Optional

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT = 30


def missing() -> Optional[str]:
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or scripts/ensure-deps.sh --test)"
    if not os.path.exists(CHROMEDRIVER):
        return f"no chromedriver at {CHROMEDRIVER} (apt-get install chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (python3 -m pip install selenium)"
    return None


def require(what: str) -> None:
    """Call at module level, before importing selenium."""
    why = missing()
    if why:
        if os.environ.get("CI"):
            raise RuntimeError(f"{what} cannot run under CI: {why}")
        pytest.skip(why, allow_module_level=True)


def driver(profile: Path, *extra_arguments: str) -> Iterator[Any]:
    """A headless Chromium with its own profile, quit afterwards (for a fixture to yield from)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--no-default-browser-check", f"--user-data-dir={profile}", *extra_arguments):
        options.add_argument(argument)
    chromium = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        chromium.set_page_load_timeout(WAIT)
        yield chromium
    finally:
        chromium.quit()
