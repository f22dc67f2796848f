"""Fixtures: the real libjump and one real jump-emulator process per test session (no mocks).

Binaries: ``$JUMP_LIBRARY_PATH`` (default build/lib/libjump.so) and ``$JUMP_EMULATOR`` (default
build/bin/jump-emulator, else .build-emu/debug/jump-emulator). The emulator is reset before every test.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
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

PASSWORD = "correct horse battery"


def emulator_path() -> Path:
    env = os.environ.get("JUMP_EMULATOR")
    if env:
        return Path(env)
    primary = ROOT / "build" / "bin" / "jump-emulator"
    fallback = ROOT / ".build-emu" / "debug" / "jump-emulator"
    return primary if primary.exists() or not fallback.exists() else fallback


class Emulator:
    """A running jump-emulator plus a tiny client for its admin API."""

    def __init__(self, url: str, process: subprocess.Popen, workdir: str) -> None:
        self.url = url.rstrip("/")
        self.process = process
        self.workdir = workdir

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

    # Conveniences used by several tests
    def reset(self) -> None:
        self.admin("POST", "/emulator/reset")

    def counters(self) -> Dict[str, int]:
        return self.admin("GET", "/emulator/counters").get("counters", {})

    def clear_counters(self) -> None:
        self.admin("DELETE", "/emulator/counters")

    def advance_clock(self, seconds: int) -> None:
        self.admin("POST", "/emulator/clock", {"advance_seconds": seconds})

    def fault(self, kind: str, path: str, count: int = 1, **extra: Any) -> None:
        self.admin("POST", "/emulator/faults", {"kind": kind, "count": count, "path": path, **extra})

    def users(self) -> List[Dict[str, Any]]:
        return self.admin("GET", "/emulator/users").get("users", [])

    def user(self, user_uuid: str) -> Dict[str, Any]:
        return self.admin("GET", f"/emulator/users/{user_uuid}")


@pytest.fixture(scope="session")
def emulator() -> Iterator[Emulator]:
    binary = emulator_path()
    if not binary.exists():
        pytest.fail(f"jump-emulator not found at {binary} (build it, or set JUMP_EMULATOR)", pytrace=False)
    workdir = tempfile.mkdtemp(prefix="jump-pytest-emu-")
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
        yield Emulator(url, process, workdir)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture
def emu(emulator: Emulator) -> Emulator:
    """The session's emulator, reset (users, clock, faults, counters, settings) for this test."""
    emulator.reset()
    emulator.admin("DELETE", "/emulator/faults")
    emulator.clear_counters()
    return emulator


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


def wait_for(predicate, timeout: float = 10.0, interval: float = 0.02) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` passes (events arrive on libjump's thread)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)


def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"


def unique_username(prefix: str = "user") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


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
