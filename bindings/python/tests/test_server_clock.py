"""A device whose clock is wrong keeps its session: the client learns Capture's time from the Date header of
its answers, signs the token refresh with it, keeps the offset with the session, and retries once with the
server's time when a refresh is refused for its date. The client runs in a child process under libfaketime
(Debian's faketime) at -20 min, +20 min, -3 h and +1 day; the emulator keeps true time and refuses refresh
dates more than 300 s off."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Optional

import pytest

from conftest import PASSWORD, unique_email

CLIENT = Path(__file__).with_name("clock_client.py")
REFRESH = "POST /oauth/refresh_access_token"
SKEWS = {"-20m": -1200, "+20m": 1200, "-3h": -10800, "+1d": 86400}

pytestmark = pytest.mark.skipif(shutil.which("faketime") is None,
                                reason="faketime is not installed (scripts/ensure-deps.sh --test python)")


def run_client(config: Dict[str, Any], emu, step: str, skew: Optional[str], *extra: str) -> Dict[str, Any]:
    env = dict(os.environ)
    command = [sys.executable, str(CLIENT), json.dumps(config), emu.url, step, *extra]
    if skew is not None:
        # Only the wall clock moves: the monotonic clock (timeouts, polls) stays true.
        env["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        command = ["faketime", "-f", skew, *command]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("skew", list(SKEWS))
def test_a_refresh_after_expiry_succeeds_whatever_the_device_clock(make_config, emu, skew: str) -> None:
    email = unique_email("clock")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    config = make_config()
    seconds = SKEWS[skew]
    out = run_client(config, emu, "sign_in_and_expire", skew, email)
    assert abs(out["local_time"] - time.time() - seconds) < 60, "faketime did not move the client's clock"
    assert out["ok"], out.get("error")
    state = out["state"]
    assert state["signed_in"] and not state["reauthentication_required"], state
    # Capture's clock minus the device's: the skew's opposite.
    assert abs(state["clock_offset_seconds"] + seconds) <= 5, state["clock_offset_seconds"]
    assert abs(out["offset_after_sign_in"] + seconds) <= 5
    assert out["counters"].get(REFRESH) == 1, "the refresh was not signed with the server's time at once"

    # Kept with the session: a restart under the same skew knows the offset before any answer, and its
    # refresh (the first request it sends) is accepted at once.
    again = run_client(config, emu, "restored_refresh", skew)
    assert abs(again["offset_before"] + seconds) <= 5, again["offset_before"]
    assert again["ok"], again.get("error")
    assert again["counters"].get(REFRESH) == 2, again["counters"]
    assert not again["state"]["reauthentication_required"]


def test_a_refresh_refused_for_its_date_is_signed_again_with_the_server_time(make_config, emu) -> None:
    """A session saved by a process whose clock was right (offset 0), restored where the clock is 3 h behind:
    the first refresh is signed with the device's time and refused for its date; the client takes the
    server's time from that answer's Date header and sends it once more."""
    email = unique_email("clock")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    config = make_config()
    first = run_client(config, emu, "sign_in_and_expire", None, email)
    assert first["ok"] and abs(first["state"]["clock_offset_seconds"]) <= 2
    emu.clear_counters()
    out = run_client(config, emu, "restored_refresh", "-3h")
    assert out["ok"], out.get("error")
    assert out["counters"].get(REFRESH) == 2, out["counters"]  # refused for its date, then accepted
    assert abs(out["state"]["clock_offset_seconds"] - 10800) <= 5
    assert out["state"]["signed_in"] and not out["state"]["reauthentication_required"]
