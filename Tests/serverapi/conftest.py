"""Fixtures for the server-side (owner) API tests (named ``owner_*``: when this directory runs in one
session with bindings/python/tests, whose rootdir is bindings/python, these fixtures are visible there
too and must not replace its ``emulator``): one real jump-emulator process per session, and the
unmodified janrain-python-api 0.4.0 sdist on sys.path (no mocks).

The emulator is started as bindings/python/tests/conftest.py starts it (``--port 0``, first stdout line is
its URL), without loading libjump: these tests speak HTTP only. The sdist comes from
``scripts/ensure-deps.sh --test`` (build/third_party/); its setup.py cannot be installed with modern
setuptools (use_2to3), so it is imported from there. Under ``CI=true`` a missing copy fails the tests;
elsewhere they are skipped with the command that fetches it.
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path
from typing import Dict, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
JANRAIN_SDIST = ROOT / "build" / "third_party" / "janrain-python-api-0.4.0"

# The emulator process and admin client the binding's tests use (that module never imports jump).
sys.path.insert(0, str(ROOT / "bindings" / "python" / "tests"))
from emulator_process import AdminClient, running_emulator  # noqa: E402


Emulator = AdminClient


@pytest.fixture(scope="session")
def janrain_capture():
    """The ``janrain.capture`` package of the unmodified 0.4.0 sdist."""
    if not (JANRAIN_SDIST / "janrain" / "capture" / "api.py").exists():
        message = (f"janrain-python-api 0.4.0 is not in {JANRAIN_SDIST}; "
                   "fetch it with: bash scripts/ensure-deps.sh --test")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    if str(JANRAIN_SDIST) not in sys.path:
        sys.path.insert(0, str(JANRAIN_SDIST))
    import janrain.capture  # noqa: E402
    import janrain.capture.api  # noqa: E402

    return janrain.capture


@pytest.fixture(scope="session")
def owner_emulator() -> Iterator[Emulator]:
    with running_emulator("jump-serverapi-emu-") as (url, _process, _workdir):
        yield Emulator(url)


class App:
    """An API client of its own (fresh users, schema and access schemas), made through the admin API."""

    def __init__(self, emulator: Emulator, client_id: str, client_secret: str) -> None:
        self.emulator = emulator
        self.client_id = client_id
        self.client_secret = client_secret

    @property
    def credentials(self) -> Dict[str, str]:
        return {"client_id": self.client_id, "client_secret": self.client_secret}


@pytest.fixture
def owner_app(owner_emulator: Emulator) -> App:
    emulator = owner_emulator
    suffix = uuid.uuid4().hex[:10]
    client_id = f"owner-{suffix}"
    secret = f"secret-{uuid.uuid4().hex}"
    emulator.admin("POST", "/emulator/apps",
                   {"client_id": client_id, "capture_app_id": f"app-{suffix}", "client_secret": secret})
    return App(emulator, client_id, secret)


@pytest.fixture
def owner_api(janrain_capture, owner_emulator: Emulator, owner_app: App):
    """``janrain.capture.Api`` with the app's id and secret: signed requests, the library's default."""
    return janrain_capture.Api(owner_emulator.url, owner_app.credentials)
