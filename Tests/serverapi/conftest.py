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

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Dict, Iterator, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
JANRAIN_SDIST = ROOT / "build" / "third_party" / "janrain-python-api-0.4.0"


def emulator_path() -> Path:
    env = os.environ.get("JUMP_EMULATOR")
    return Path(env) if env else ROOT / "build" / "bin" / "jump-emulator"


class Emulator:
    """A running jump-emulator plus a tiny client for its admin API."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def admin(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{method} {path} -> {exc.code}: {exc.read()!r}") from None
        return json.loads(text) if text.strip() else {}


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
    binary = emulator_path()
    if not binary.exists():
        pytest.fail(f"jump-emulator not found at {binary} (make emulator, or set JUMP_EMULATOR)", pytrace=False)
    workdir = tempfile.mkdtemp(prefix="jump-serverapi-emu-")
    log = open(os.path.join(workdir, "emulator.log"), "wb")
    process = subprocess.Popen(
        [str(binary), "--port", "0", "--db", os.path.join(workdir, "emu.sqlite"), "--password-hash-cost", "4"],
        stdout=subprocess.PIPE,
        stderr=log,
    )
    box: Dict[str, str] = {}
    started = threading.Event()

    def read_first_line() -> None:
        assert process.stdout is not None
        box["url"] = process.stdout.readline().decode("utf-8").strip()
        started.set()
        for _ in process.stdout:  # keep draining so the emulator never blocks on a full pipe
            pass

    threading.Thread(target=read_first_line, daemon=True).start()
    started.wait(60)
    url = box.get("url", "")
    if not url.startswith("http"):
        process.kill()
        log.close()
        pytest.fail(f"jump-emulator did not print its URL; log: {Path(log.name).read_text()[-2000:]}", pytrace=False)
    try:
        yield Emulator(url)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


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
