"""Fixtures: the real libjump and one real jump-emulator process per test session (no mocks).

Binaries: ``$JUMP_LIBRARY_PATH`` (default build/lib/libjump.so) and ``$JUMP_EMULATOR`` (default
build/bin/jump-emulator, else .build-emu/debug/jump-emulator). The emulator is reset before every test.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.error
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[3]
BINDING = ROOT / "bindings" / "python"

_default_lib = ROOT / "build" / "lib" / "libjump.so"
if "JUMP_LIBRARY_PATH" not in os.environ and _default_lib.exists():
    os.environ["JUMP_LIBRARY_PATH"] = str(_default_lib)

if not os.environ.get("JUMP_TEST_INSTALLED"):  # test the source tree unless asked to test an installed copy
    sys.path.insert(0, str(BINDING))
import jump  # noqa: E402
from emulator_process import AdminClient, emulator_path, running_emulator  # noqa: E402,F401
# The HTTP side (admin API, plain calls, the fake identity provider) and the emulator fixtures, shared with the
# emulator's own tests (Tests/emulator); imported here so that tests keep importing them from conftest.
from emulator_helpers import (ENGAGE_API_KEY, ENGAGE_APP_ID, Emulator, FakeIdP, HttpAnswer,  # noqa: E402,F401
                              IdpPage, emu, emulator, http_call, idp, unique_email, unique_username)

PASSWORD = "correct horse battery"


@pytest.fixture
def storage(tmp_path: Path) -> str:
    """A fresh session storage directory."""
    path = tmp_path / "storage"
    path.mkdir()
    return str(path)


@pytest.fixture
def make_config(emu: Emulator, storage: str):
    """``make_config(**overrides) -> dict``: a config for a client talking to the emulator."""

    def make(**overrides: Any) -> Dict[str, Any]:
        config = {
            "captureDomain": emu.url,
            "captureClientId": "jump-default-client",
            "captureAppId": "default-app",
            "captureFlowName": "standard",
            "captureLocale": "en-US",
            "captureFlowDomain": emu.url,
            "storageDirectory": storage,
            "requestTimeoutMs": 10000,
        }
        config.update(overrides)
        return config

    return make


@pytest.fixture
def client(make_config) -> Iterator["jump.Client"]:
    """A client against the emulator (closed after the test)."""
    with jump.Client(make_config()) as c:
        yield c


def refresh_on_the_wire(client: "jump.Client", emu: "Emulator", delay_ms: int = 1500) -> threading.Thread:
    """Starts ``client.refresh_access_token()`` on a thread, its request held by the emulator for ``delay_ms``,
    and returns (the thread, to join) once the request has reached the emulator: what a test does meanwhile
    happens while the answer is on its way. The refresh's own error, if any (its save failing), is dropped."""
    emu.clear_counters()
    emu.fault("delay", "/oauth/refresh_access_token", delay_ms=delay_ms)

    def refresh() -> None:
        try:
            client.refresh_access_token()
        except jump.JumpError:
            pass  # its own save fails: it may report that

    refresher = threading.Thread(target=refresh)
    refresher.start()
    deadline = time.monotonic() + 10
    while emu.counters().get("POST /oauth/refresh_access_token", 0) < 1 and time.monotonic() < deadline:
        time.sleep(0.005)
    return refresher


def wait_for(predicate, timeout: float = 10.0, interval: float = 0.02) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` passes (events arrive on libjump's thread)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)


@pytest.fixture
def registered(client: "jump.Client") -> Dict[str, Any]:
    """A new traditional account registered (and signed in) through ``client``."""
    email = unique_email()
    username = unique_username()
    result = client.register_traditional(
        {"email": email, "displayName": "Ada L", "givenName": "Ada", "familyName": "Lovelace", "username": username},
        PASSWORD,
    )
    return {"email": email, "username": username, "password": PASSWORD, **result}


# ---------------------------------------------------------------------------------------------------------
# Social sign-in (Engage) configs, extra emulators
# ---------------------------------------------------------------------------------------------------------

import socket  # noqa: E402



@pytest.fixture
def social_config(make_config, emu: Emulator):
    """``social_config(**overrides) -> dict``: make_config plus the emulator's Engage app (same host)."""

    def make(**overrides: Any) -> Dict[str, Any]:
        config = {"engageAppId": ENGAGE_APP_ID, "engageDomain": emu.url}
        config.update(overrides)
        return make_config(**config)

    return make


@pytest.fixture
def token_config(make_config, emu):
    """``token_config(**overrides) -> dict``: a sign-in-token app's config (no Capture settings) on the emulator."""

    def make(**overrides: Any) -> Dict[str, Any]:
        config = make_config(signInTokenAuthBaseUrl=emu.url, signInTokenApiBaseUrl=emu.url)
        for key in ("captureDomain", "captureClientId", "captureAppId", "captureFlowName", "captureFlowDomain"):
            config.pop(key, None)  # a sign-in-token app needs no Capture settings
        config.update(overrides)
        return config

    return make


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def closed_port_url() -> str:
    """A loopback URL nothing listens on."""
    return f"http://127.0.0.1:{free_port()}"


@pytest.fixture
def spawn_emulator(tmp_path: Path):
    """``spawn_emulator() -> Emulator``: a private jump-emulator (own database) for tests that stop or
    restart it; every one still running is stopped after the test. ``emulator.process`` is the Popen."""
    started: List[Emulator] = []

    def spawn(port: int = 0, db: Optional[str] = None) -> Emulator:
        binary = emulator_path()
        if not binary.exists():
            pytest.fail(f"jump-emulator not found at {binary}", pytrace=False)
        workdir = tempfile.mkdtemp(prefix="jump-pytest-emu-", dir=str(tmp_path))
        process = subprocess.Popen(
            [str(binary), "--port", str(port), "--db", db or os.path.join(workdir, "emu.sqlite"),
             "--password-hash-cost", "4"],
            stdout=subprocess.PIPE, stderr=open(os.path.join(workdir, "emulator.log"), "wb"))
        assert process.stdout is not None
        url = process.stdout.readline().decode("utf-8").strip()
        threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()  # type: ignore[union-attr]
        if not url.startswith("http"):
            process.kill()
            pytest.fail(f"private jump-emulator did not start: {Path(workdir, 'emulator.log').read_text()[-2000:]}")
        emulator = Emulator(url, process, workdir)
        started.append(emulator)
        return emulator

    yield spawn
    for emulator in started:
        if emulator.process.poll() is None:
            emulator.process.send_signal(signal.SIGTERM)
            try:
                emulator.process.wait(10)
            except subprocess.TimeoutExpired:
                emulator.process.kill()


# $BROWSER for the tests that run programs doing a social sign-in (examples, README snippets): it detaches
# (a browser returns at once), then drives the fake provider page. DRIVER_* say what it does there:
# DRIVER_MODE "create" (default: a new identity DRIVER_NAME, DRIVER_EMAIL), "identity" (continue as the
# provider's identity with DRIVER_EMAIL) or "cancel"; DRIVER_EMAIL "merge" means the email of the only user on
# the emulator. It appends "landed <status> <url>" or "error <exception>" to DRIVER_LOG.
BROWSER_DRIVER = textwrap.dedent('''
    import os, subprocess, sys
    url = sys.argv[1]
    if os.environ.get("DRIVER_CHILD") != "1":
        subprocess.Popen([sys.executable, __file__, url], env=dict(os.environ, DRIVER_CHILD="1"),
                         start_new_session=True)
        sys.exit(0)
    sys.path.insert(0, os.environ["DRIVER_TESTS"])
    log = open(os.environ["DRIVER_LOG"], "a")
    try:
        from conftest import Emulator, FakeIdP, http_call
        email = os.environ.get("DRIVER_EMAIL", "")
        if email == "merge":
            [user] = Emulator(os.environ["JUMP_EMULATOR_URL"], None, None).users()
            email = user["email"]
        mode = os.environ.get("DRIVER_MODE", "create")
        if mode == "cancel":
            page = {"cancel": True}
        elif mode == "identity":
            page = {"identity": email}
        else:
            page = {"name": os.environ.get("DRIVER_NAME", "Ada Lovelace"), "email": email}
        location = FakeIdP(None).finish(url, **page)
        log.write(f"landed {http_call(location).status} {location}\\n")
    except BaseException as exc:
        log.write(f"error {exc!r}\\n")
''')
