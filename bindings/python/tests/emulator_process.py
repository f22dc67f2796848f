"""A real jump-emulator process for tests, and a tiny client for its admin API. Shared by the binding's tests
and Tests/serverapi (which speaks HTTP only): this module never imports jump."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, Optional, Sequence, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[3]


def emulator_path() -> Path:
    env = os.environ.get("JUMP_EMULATOR")
    if env:
        return Path(env)
    primary = ROOT / "build" / "bin" / "jump-emulator"
    fallback = ROOT / ".build-emu" / "debug" / "jump-emulator"
    return primary if primary.exists() or not fallback.exists() else fallback


@contextlib.contextmanager
def running_emulator(prefix: str, extra_arguments: Sequence[str] = ()
                     ) -> Iterator[Tuple[str, "subprocess.Popen[bytes]", str]]:
    """(url, process, workdir) of an emulator on a free port with its own database, stopped on exit (SIGTERM,
    unless the test stopped it already)."""
    binary = emulator_path()
    if not binary.exists():
        pytest.fail(f"jump-emulator not found at {binary} (make emulator, or set JUMP_EMULATOR)", pytrace=False)
    workdir = tempfile.mkdtemp(prefix=prefix)
    log = open(os.path.join(workdir, "emulator.log"), "wb")
    process = subprocess.Popen(
        [str(binary), "--port", "0", "--db", os.path.join(workdir, "emu.sqlite"), "--password-hash-cost", "4",
         *extra_arguments],
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
        yield url, process, workdir
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


class AdminClient:
    """The emulator's admin API (JSON in and out)."""

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
