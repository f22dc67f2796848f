"""operationTimeoutMs: the deadline of a whole call, which every wait inside it draws on (docs/config.md).
requestTimeoutMs bounds one HTTP attempt; a call made of several attempts that each fit it, or one that waits
for another client's refresh, still ends at operationTimeoutMs. Real libjump against the real emulator, whose
"delay" fault holds an answer back."""

from __future__ import annotations

import threading
import time

import pytest

import jump

from conftest import PASSWORD
from emulator_helpers import unique_email

ATTEMPT_DELAY_MS = 1000


def slow_sign_in(make_config, emu, email: str, **overrides) -> float:
    """Signs `email` in on a fresh client while the emulator holds every answer back for ATTEMPT_DELAY_MS (each
    attempt fits requestTimeoutMs by far); returns the seconds the call took, raising what it raised."""
    emu.admin("DELETE", "/emulator/faults")
    emu.fault("delay", None, count=50, delay_ms=ATTEMPT_DELAY_MS)
    with jump.Client(make_config(requestTimeoutMs=5000, **overrides)) as client:
        started = time.monotonic()
        try:
            client.sign_in(email, PASSWORD)
        finally:
            emu.admin("DELETE", "/emulator/faults")
        return time.monotonic() - started


def test_a_call_whose_attempts_each_fit_ends_at_the_operation_timeout(make_config, emu) -> None:
    email = unique_email("deadline")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    emu.clear_counters()
    unbounded = slow_sign_in(make_config, emu, email)  # the control: every attempt fits, the call goes through
    requests = sum(emu.counters().values())
    assert requests >= 2, emu.counters()  # the flow, then the sign-in
    assert unbounded >= requests * ATTEMPT_DELAY_MS / 1000 * 0.9

    operation_ms = ATTEMPT_DELAY_MS + 400  # the second attempt's answer would come too late
    started = time.monotonic()
    with pytest.raises(jump.Timeout):
        slow_sign_in(make_config, emu, email, operationTimeoutMs=operation_ms)
    elapsed = time.monotonic() - started
    assert operation_ms / 1000 * 0.9 <= elapsed <= operation_ms / 1000 + 0.6, elapsed
    assert elapsed < unbounded


def test_a_wait_for_another_clients_refresh_ends_at_the_operation_timeout(make_config, emu, storage) -> None:
    email = unique_email("deadlinerefresh")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    with jump.Client(make_config()) as first, jump.Client(make_config(operationTimeoutMs=1000)) as second:
        first.sign_in(email, PASSWORD)
        second.restore()
        assert second.is_signed_in
        emu.clear_counters()
        emu.fault("delay", "/oauth/refresh_access_token", delay_ms=4000)
        refreshing = threading.Thread(target=first.refresh_access_token)
        refreshing.start()
        try:
            deadline = time.monotonic() + 5
            while not emu.counters().get("POST /oauth/refresh_access_token"):
                assert time.monotonic() < deadline, "the first client's refresh never reached the emulator"
                time.sleep(0.02)
            started = time.monotonic()
            with pytest.raises(jump.Timeout) as raised:
                second.refresh_access_token()  # waits for the first client's refresh, within its own deadline
            elapsed = time.monotonic() - started
        finally:
            refreshing.join()
        assert raised.value.detail.get("reason") == "operation_timeout", raised.value.detail
        assert elapsed <= 1.0 + 0.6, elapsed
        assert emu.counters().get("POST /oauth/refresh_access_token") == 1, emu.counters()
        assert first.is_signed_in and second.is_signed_in
