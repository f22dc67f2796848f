"""Asynchronous operations: wait, callbacks, events, cancellation, errors in payloads."""

from __future__ import annotations

import threading
import time
from typing import Any, Dict, List, Optional

import pytest

import jump

from conftest import PASSWORD, unique_email, wait_for

SIGN_IN_PATH = "/oauth/auth_native_traditional"


def test_sign_in_async_wait(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        request = c.sign_in_async(registered["email"], PASSWORD)
        result = request.wait(30)
        assert request.done and not request.cancelled()
        assert result["uuid"] == registered["uuid"] and result["is_new"] is False
        assert request.result() == result
        assert request.exception() is None
        assert request.payload["kind"] == "completion" and request.payload["status"] == 0
        assert c.is_signed_in
        request.close()


def test_sign_in_async_callback(make_config, registered) -> None:
    got: List[Any] = []
    done = threading.Event()
    caller = threading.get_ident()

    def callback(result: Optional[Dict[str, Any]], error: Optional[jump.JumpError]) -> None:
        got.append((result, error, threading.get_ident()))
        done.set()

    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        c.sign_in_async(registered["email"], PASSWORD, callback)  # the Request itself is dropped at once
        assert done.wait(30)
        assert wait_for(lambda: c.is_signed_in)
    [(result, error, thread)] = got
    assert error is None and result["uuid"] == registered["uuid"]
    assert thread != caller  # delivered on libjump's thread


def test_async_failure_carries_detail(make_config, registered) -> None:
    errors: List[jump.JumpError] = []
    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        request = c.sign_in_async(registered["email"], "not the password", lambda r, e: errors.append(e))
        with pytest.raises(jump.BadCredentials) as info:
            request.wait(30)
        assert isinstance(request.exception(), jump.BadCredentials)
    err = info.value
    assert errors == [err]
    assert err.status == -7 and err.message and err.detail.get("status") == -7
    assert request.payload["status"] == -7 and "error" in request.payload


def test_async_register_sync_fetch_and_events(make_config, emu) -> None:
    events: List[Dict[str, Any]] = []
    with jump.Client(make_config()) as c:
        c.on_event(events.append)
        result = c.register_traditional_async({"email": unique_email(), "displayName": "Async"}, PASSWORD).wait(30)
        uuid = result["uuid"]
        assert result["is_new"] is True
        c.record["/aboutMe"] = "async edit"
        synced = c.sync_async().wait(30)
        assert synced["changed"] == ["/aboutMe"]
        emu.clear_counters()
        emu.advance_clock(7200)
        assert c.fetch_record_async().wait(30) == {}
        assert emu.counters().get("POST /oauth/refresh_access_token") == 1
        c.sign_out()
        wanted = {"signed_in", "record_synced", "token_refreshed", "signed_out"}
        assert wait_for(lambda: wanted <= {e["event"] for e in events}), events
    names = [e["event"] for e in events]
    assert names.index("signed_in") < names.index("record_synced") < names.index("signed_out")
    assert all(e["kind"] == "event" and e["version"] == 1 for e in events)
    assert any(e.get("uuid") == uuid for e in events)
    assert emu.user(uuid)["user"]["aboutMe"] == "async edit"


def test_cancel_during_delay(make_config, emu, registered) -> None:
    emu.fault("delay", SIGN_IN_PATH, delay_ms=1500)
    got: List[Any] = []
    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        started = time.monotonic()
        request = c.sign_in_async(registered["email"], PASSWORD, lambda r, e: got.append(e))
        time.sleep(0.2)
        assert not request.done
        assert request.cancel() is True
        with pytest.raises(jump.Cancelled):
            request.wait(10)
        assert time.monotonic() - started < 1.4  # did not wait for the server
        assert request.cancelled()
        assert not c.is_signed_in
        assert request.cancel() is False  # already done
    assert len(got) == 1 and isinstance(got[0], jump.Cancelled)


def test_close_cancels_in_flight(make_config, emu, registered) -> None:
    emu.fault("delay", SIGN_IN_PATH, delay_ms=1500)
    c = jump.Client(make_config(storageDirectory=":memory:"))
    request = c.sign_in_async(registered["email"], PASSWORD)
    time.sleep(0.2)
    c.close()
    with pytest.raises(jump.Cancelled):
        request.wait(10)


def test_wait_inside_callback_is_busy(make_config, registered) -> None:
    outcome: List[Any] = []
    inner: List[jump.Request] = []
    with jump.Client(make_config(storageDirectory=":memory:")) as c:

        def signed_in(result, error) -> None:
            # Callbacks of one client run one at a time: waiting here for another of its requests would
            # deadlock, so the binding (and libjump) refuse with Busy.
            request = c.fetch_record_async()
            inner.append(request)
            try:
                request.wait(5)
                outcome.append("returned")
            except jump.JumpError as exc:
                outcome.append(exc)

        c.sign_in_async(registered["email"], PASSWORD, signed_in).wait(30)
        assert isinstance(outcome[0], jump.Busy), outcome
        assert inner[0].wait(30) == {}  # and it completes normally afterwards


def test_callback_exception_is_surfaced(make_config, registered) -> None:
    class Boom(Exception):
        pass

    def callback(result, error) -> None:
        raise Boom("from the callback")

    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        request = c.sign_in_async(registered["email"], PASSWORD, callback)
        with pytest.raises(Boom):
            request.wait(30)
        assert isinstance(request.callback_exception, Boom)
        assert c.is_signed_in  # the operation itself succeeded


def test_event_callback_exception_is_kept(make_config, registered) -> None:
    def bad(event) -> None:
        raise RuntimeError("event handler bug")

    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        c.on_event(bad)
        c.sign_in(registered["email"], PASSWORD)
        assert wait_for(lambda: c.last_event_error is not None)
        assert isinstance(c.last_event_error, RuntimeError)
        c.on_event(None)


def test_async_start_failure_completes_request(client: jump.Client) -> None:
    got: List[Any] = []
    request = client.sign_in_async(None, PASSWORD, lambda r, e: got.append(e))
    with pytest.raises(jump.InvalidArgument):
        request.wait(10)
    assert wait_for(lambda: got)
    assert len(got) == 1 and isinstance(got[0], jump.InvalidArgument)


def test_client_whose_last_reference_dies_on_the_callback_thread(make_config, registered, monkeypatch) -> None:
    import gc
    import weakref

    from jump import _native

    deferred: List[bool] = []
    original = _native.run_outside_callbacks

    def spy(fn) -> None:
        deferred.append(_native.in_callback())
        original(fn)

    monkeypatch.setattr(_native, "run_outside_callbacks", spy)
    done = threading.Event()
    seen: List[bool] = []
    refs: List[Any] = []

    def start() -> None:
        c = jump.Client(make_config(storageDirectory=":memory:"))
        refs.append(weakref.ref(c))

        def callback(result, error) -> None:
            seen.append(c.is_signed_in)  # the closure holds the only reference to the client
            done.set()

        c.sign_in_async(registered["email"], PASSWORD, callback)

    start()
    assert done.wait(30)
    gc.collect()
    # The client is released (its jump_client_free deferred off libjump's thread), without deadlock.
    assert wait_for(lambda: refs[0]() is None, 10)
    assert seen == [True]
    assert deferred == [True]  # __del__ ran on libjump's thread and handed jump_client_free to another
