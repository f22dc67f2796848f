"""Access-token expiry: transparent refresh, single-flight under 16 threads, explicit refresh."""

from __future__ import annotations

import threading
from typing import List

import jump

from conftest import wait_for

REFRESH = "POST /oauth/refresh_access_token"


def test_expired_token_is_refreshed_transparently(client: jump.Client, emu, registered) -> None:
    events: List[str] = []
    client.on_event(lambda e: events.append(e["event"]))
    before = client.access_token()
    emu.clear_counters()
    emu.advance_clock(7200)
    client.fetch_record()
    counters = emu.counters()
    assert counters.get(REFRESH) == 1
    assert counters.get("POST /entity", 0) >= 1
    assert client.access_token() != before
    assert client.state["access_token_expires_at"] is not None
    assert client.record["/email"] == registered["email"]
    assert wait_for(lambda: "token_refreshed" in events), events
    client.on_event(None)


def test_sixteen_threads_one_refresh(client: jump.Client, emu, registered) -> None:
    emu.clear_counters()
    emu.advance_clock(7200)
    barrier = threading.Barrier(16)
    errors: List[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait(10)
            client.fetch_record()
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert emu.counters().get(REFRESH) == 1


def test_explicit_refresh_and_access_token(client: jump.Client, emu, registered) -> None:
    first = client.access_token()
    emu.clear_counters()
    client.refresh_access_token()
    assert emu.counters().get(REFRESH) == 1
    second = client.access_token()
    assert second and second != first
