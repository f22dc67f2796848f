"""Sign-in tokens and authorized requests against the emulator's token API: decoding, status, requests, the
refresh (before expiry, after a 401, shared, racing sign-out) and a deleted user or revoked refresh token.
API keys, identify and the saved session: test_sign_in_token_session.py (docs/protocol.md §12; each test
names the defect, a §12.10 item, it shows we do not have, where there is one)."""

from __future__ import annotations

import base64
import json
import threading
import time

import pytest

import jump

from conftest import wait_for
from sign_in_tokens import api, new_user, mint, token_calls


def test_decode_is_tolerant_of_base64url_and_reports_what_is_wrong(emu) -> None:
    user = new_user(emu)
    raw = mint(emu, user)
    decoded = jump.decode_sign_in_token(raw)
    assert decoded["user_id"] == user and decoded["environment"] == "dev" and decoded["region"] == "us"
    assert decoded["team_id"] == "00000000-0000-4000-8000-000000000001"
    # §12.10 item 8: the envelope and segments in the URL-safe alphabet, unpadded, decode too.
    envelope = json.loads(base64.b64decode(raw))
    urlsafe = base64.urlsafe_b64encode(json.dumps(envelope).encode()).decode().rstrip("=")
    assert jump.decode_sign_in_token(urlsafe)["user_id"] == user
    for bad, words in [("not base64 !", "base64"), (base64.b64encode(b'{"user_token":"a.b"}').decode(), "JWT"),
                       ("", "empty")]:
        with pytest.raises(jump.InvalidArgument) as info:
            jump.decode_sign_in_token(bad)
        assert words in info.value.message


def test_sign_in_status_and_authorized_requests(emu, token_config) -> None:
    user = new_user(emu)
    events = []
    with jump.Client(token_config()) as client:
        client.on_event(events.append)
        assert client.status["signed_in"] is False
        result = client.sign_in_with_token(mint(emu, user))
        assert result == {"user_id": user, "changed": True, "migrated": False}
        status = client.status
        assert status["signed_in"] and status["use_sign_in_token"] and not status["use_api_key"]
        assert status["user_id"] == user and status["configured"] and not status["pending_reauthentication"]
        put = client.request("PUT", f"/v2/user/{user}/profile", {"Content-Type": "application/json"},
                             json.dumps({"colour": "blue"}))
        assert put["status"] == 200
        got = client.request("GET", f"/v2/user/{user}/profile")
        assert got["status"] == 200 and json.loads(got["body"])["data"] == {"colour": "blue"}
        # A user's token cannot read another user's data (the server says so; libjump passes it on).
        other = new_user(emu)
        assert client.request("GET", f"/v2/user/{other}/profile")["status"] == 403
        # The credential never leaves its server.
        with pytest.raises(jump.InvalidArgument):
            client.request("GET", "https://example.com/v2/user")
        assert wait_for(lambda: any(e["event"] == "status_changed" for e in events))
        # §12.10 item 1: the same user again is a no-op, on every platform.
        emu.clear_counters()
        assert client.sign_in_with_token(mint(emu, user))["changed"] is False
        assert token_calls(emu) == 0
        # Another user: refused, naming what differs (no silent switch).
        with pytest.raises(jump.AlreadySignedIn) as refused:
            client.sign_in_with_token(mint(emu, other))
        assert refused.value.detail["mismatch"] == "user_id"


def test_request_async_is_awaited_and_cancelled(emu, token_config) -> None:
    import asyncio
    user = new_user(emu)
    path = f"/v2/user/{user}/profile"

    async def main(client: jump.Client) -> None:
        put = await client.request_async("PUT", path, {"Content-Type": "application/json"}, json.dumps({"n": 7}))
        assert put["status"] == 200
        got = await client.request_async("GET", path)
        assert json.loads(got["body"])["data"] == {"n": 7}
        emu.fault("delay", path, delay_ms=5000)
        started = time.monotonic()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(client.request_async("GET", path), 0.3)
        assert time.monotonic() - started < 3

    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, user))
        asyncio.run(main(client))
        emu.fault("delay", path, delay_ms=5000)
        held = client.request_async("GET", path)
        time.sleep(0.2)  # on the wire, held by the emulator
        held.cancel()
        with pytest.raises(jump.Cancelled):
            held.wait(10)
        with pytest.raises(jump.InvalidArgument):  # refused at the call, delivered as the Request's outcome
            client.request_async("BREW", path).wait(10)


def test_refresh_before_expiry_and_after_a_401(emu, token_config) -> None:
    user = new_user(emu)
    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, user))
        # The server's clock moves past the access token's life; the client's does not: a 401, one refresh,
        # one replay (§12.10 item 3).
        emu.advance_clock(4000)
        emu.clear_counters()
        response = client.request("GET", f"/v2/user/{user}/profile")
        assert response["status"] == 200
        assert token_calls(emu) == 1 and emu.counters().get(f"GET /v2/user/{user}/profile") == 2


def test_refresh_happens_before_expiry(emu, token_config) -> None:
    emu.admin("POST", "/emulator/settings", {"sign_in_access_token_lifetime": 30})
    user = new_user(emu)
    with jump.Client(token_config()) as client:  # margin 60 s: a 30 s token is due at once
        client.sign_in_with_token(mint(emu, user))
        emu.clear_counters()
        first = client.access_token()
        assert token_calls(emu) == 1  # §12.10 item 7: refreshed before it expired, not after a failure
        assert client.request("GET", f"/v2/user/{user}/profile")["status"] == 200
        assert first


def test_thirty_two_threads_share_one_refresh(emu, token_config) -> None:
    emu.admin("POST", "/emulator/settings", {"sign_in_access_token_lifetime": 3})
    user = new_user(emu)
    with jump.Client(token_config(tokenRefreshMarginSeconds=0)) as client:
        client.sign_in_with_token(mint(emu, user))
        time.sleep(3.2)  # expired by the client's own clock
        emu.clear_counters()
        tokens, errors = [], []
        barrier = threading.Barrier(32)

        def worker() -> None:
            barrier.wait()
            try:
                tokens.append(client.access_token())
            except Exception as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=worker) for _ in range(32)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        assert token_calls(emu) == 1
        assert len(set(tokens)) == 1  # every waiter got the one refresh's outcome


def test_refresh_racing_sign_out_is_discarded(emu, token_config) -> None:
    user = new_user(emu)
    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, user))
        emu.fault("delay", "/v1/token", delay_ms=800)
        outcome = []
        refresher = threading.Thread(target=lambda: outcome.append(_try(client.refresh_access_token)))
        refresher.start()
        time.sleep(0.3)
        client.sign_out()
        refresher.join()
        assert isinstance(outcome[0], jump.NotSignedIn), outcome
        assert client.status["signed_in"] is False
    with jump.Client(token_config()) as again:
        assert again.status["signed_in"] is False  # nothing was saved by the late refresh


def _try(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001
        return exc


def test_user_deletion_signs_everything_out(emu, token_config) -> None:
    user = new_user(emu)
    events = []
    with jump.Client(token_config()) as client:
        client.on_event(events.append)
        client.sign_in_with_token(mint(emu, user))
        api(emu, "DELETE", f"/v2/user/{user}")
        with pytest.raises(jump.NotSignedIn) as info:
            client.refresh_access_token()
        assert info.value.detail["error_type"] == "invalid_token"
        assert client.status == {**client.status, "signed_in": False, "configured": False, "user_id": None}
        assert wait_for(lambda: any(e["event"] == "user_invalidated" and e["user_id"] == user for e in events))
    with jump.Client(token_config()) as again:
        assert again.status["signed_in"] is False  # §12.10 item 2: a full reset, also on disk


def test_revoked_refresh_token_pends_then_recovers(emu, token_config) -> None:
    user = new_user(emu)
    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, user))
        api(emu, "POST", f"/v2/user/{user}/revoke_tokens")
        with pytest.raises(jump.SessionExpired):
            client.refresh_access_token()
        assert client.status["pending_reauthentication"] is True  # §12.10 item 4: the flag is reported
        assert client.status["signed_in"] is True
        result = client.sign_in_with_token(mint(emu, user))  # a new token for the same user clears it
        assert result["changed"] is True
        assert client.status["pending_reauthentication"] is False
        assert client.request("GET", f"/v2/user/{user}/profile")["status"] == 200
