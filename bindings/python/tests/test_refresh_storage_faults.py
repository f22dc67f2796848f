"""Storage faults during a token refresh do not lose the session (the pending-refresh record).

Before libjump sends a refresh of the access token it saves a "pending refresh" record in the storage
directory; when that save fails it does not send the refresh (JUMP_E_STORAGE, or it goes on with the token it
holds while that is still valid), so the refresh token on disk is never rotated away by the server behind the
store's back. A library that sent the refresh anyway lost the session: the server rotated the token, the new
one could not be saved, and after a restart the session was JUMP_E_EXPIRED (sign in again).

Each of 5 storage fault modes (Tests/torture/faultshim.c, preloaded into a child Python process that uses the
binding on the same storage directory) is active while an expired access token is refreshed; then a client
started without the fault on that directory must still be signed in, and a fetch must work.

The restart waits until the wall clock has moved on by two whole seconds: the emulator answers a refresh
request repeated within its grace window (capture_refresh_grace_seconds) with the same new token, and a
request signed in the same second with the same token is the very same request (the signed ``date`` has
whole seconds). A restart in that second would have its refresh replayed, hiding a rotation the faulty run
lost; a real restart comes later than that.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict

import pytest

import jump

from conftest import PASSWORD, ROOT, unique_email

SHIM_SOURCE = ROOT / "Tests" / "torture" / "faultshim.c"

# mode id -> the shim's FAULT_* settings (FAULT_PATH_SUBSTR and FAULT_LOG are added per test)
MODES: Dict[str, Dict[str, str]] = {
    "read-only": {"FAULT_OP": "open_creat", "FAULT_ERRNO": "EROFS"},
    "fsync-EIO": {"FAULT_OP": "fsync", "FAULT_ERRNO": "EIO"},
    "write-ENOSPC": {"FAULT_OP": "write", "FAULT_ERRNO": "ENOSPC"},
    "partial-ENOSPC": {"FAULT_OP": "write", "FAULT_ERRNO": "ENOSPC", "FAULT_AFTER": "1"},
    "rename-EIO": {"FAULT_OP": "rename", "FAULT_ERRNO": "EIO"},
}

# The faulty run: open a client on the storage directory and fetch the record with an expired access token
# (a refresh first). Whatever happens is printed; the check is done afterwards, without the fault.
CHILD = r"""
import json, sys
import jump
config = json.loads(sys.argv[1])
with jump.Client(config) as client:
    print("before:", json.dumps({k: client.state.get(k) for k in ("signed_in", "reauthentication_required",
                                                                   "restore_error", "storage_error")}))
    try:
        client.fetch_record()
        print("fetch_record: ok")
    except jump.JumpError as e:
        print(f"fetch_record: {type(e).__name__} {e.status_name}: {e.message}")
    print("after:", json.dumps({k: client.state.get(k) for k in ("signed_in", "reauthentication_required",
                                                                  "storage_error")}))
"""


def wait_for_a_later_signing_second(since: float) -> None:
    """Sleeps until the wall clock is two whole seconds past ``since`` (one more than needed, for a server
    clock offset libjump rounds to whole seconds)."""
    target = math.floor(since) + 2
    while time.time() < target:
        time.sleep(max(0.01, target - time.time()))


@pytest.fixture(scope="session")
def faultshim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if not compiler:
        pytest.skip("no C compiler to build Tests/torture/faultshim.c")
    shim = tmp_path_factory.mktemp("faultshim") / "faultshim.so"
    built = subprocess.run([compiler, "-shared", "-fPIC", "-o", str(shim), str(SHIM_SOURCE), "-ldl"],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, f"faultshim.c did not build: {built.stderr[-3000:]}"
    return shim


@pytest.mark.parametrize("mode", list(MODES))
def test_storage_fault_during_refresh_keeps_the_session(mode: str, faultshim: Path, make_config, emu, storage: str,
                                                        tmp_path: Path) -> None:
    email = unique_email()
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    config = make_config()
    with jump.Client(config) as client:
        client.sign_in(email, PASSWORD)
        assert client.is_signed_in
    emu.advance_clock(7200)  # the access token has expired: the next request refreshes it first
    emu.clear_counters()

    fault_log = tmp_path / "faults.log"
    env = dict(os.environ, LD_PRELOAD=str(faultshim), FAULT_PATH_SUBSTR=storage, FAULT_LOG=str(fault_log),
               JUMP_LIBRARY_PATH=jump.library_path(), PYTHONPATH=str(Path(jump.__file__).resolve().parents[1]),
               **MODES[mode])
    child = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config)], env=env, capture_output=True,
                           text=True, timeout=60)
    child_done = time.time()
    injected = fault_log.read_text().splitlines() if fault_log.exists() else []
    report = (f"mode {mode} ({MODES[mode]}): child exit {child.returncode}\n{child.stdout}{child.stderr[-2000:]}"
              f"injected: {injected}\nrefreshes sent: {emu.counters().get('POST /oauth/refresh_access_token', 0)}\n"
              f"storage: {sorted(os.listdir(storage))}")
    assert child.returncode == 0, report
    assert injected, f"no fault was injected, the test would pass vacuously\n{report}"

    wait_for_a_later_signing_second(child_done)
    with jump.Client(config) as client:  # a restart, without the fault
        state = client.state
        assert client.is_signed_in and state["signed_in"], f"signed out after the restart: {state}\n{report}"
        assert not state["reauthentication_required"], f"must sign in again: {state}\n{report}"
        try:
            client.fetch_record()
        except jump.JumpError as e:
            pytest.fail(f"fetch after the restart: {type(e).__name__} {e.status_name}: {e.message}\n{report}")
        assert client.record["/email"] == email
        assert client.is_signed_in and not client.state["reauthentication_required"]
