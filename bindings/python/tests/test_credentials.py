"""Client.credentials / credentials_async / has_valid_credentials: no request while the token lasts,
one refresh for many threads once it does not, every credential kind, errors as statuses.

libjump ages a token by its own clock only, so a token "about to expire" is one the emulator issued with a
short lifetime (its settings), not one whose emulator clock was advanced."""

from __future__ import annotations

import threading
from typing import Any, Dict, List

import pytest

import jump

from conftest import PASSWORD, unique_email, unique_username
from sign_in_tokens import mint, new_user

REFRESH = "POST /oauth/refresh_access_token"


def requests_made(emu) -> int:
    return sum(emu.counters().values())


def test_valid_token_needs_no_request(client: jump.Client, emu, registered) -> None:
    token = client.access_token()
    emu.clear_counters()
    creds = client.credentials(min_ttl=60)
    assert creds["kind"] == "capture" and creds["access_token"] == token and creds["refreshed"] is False
    expires_in = creds["expires_in"]
    assert expires_in is not None and 3500 < expires_in <= 3600
    assert client.has_valid_credentials(60) is True
    assert client.has_valid_credentials(min_ttl=7200) is False
    assert requests_made(emu) == 0


def test_expiring_token_many_threads_one_refresh(make_config, emu) -> None:
    emu.admin("POST", "/emulator/settings", {"access_token_lifetime": 30})
    with jump.Client(make_config()) as client:
        client.register_traditional({"email": unique_email("cred"), "displayName": "Ada L", "givenName": "Ada",
                                     "familyName": "Lovelace", "username": unique_username("cred")}, PASSWORD)
        emu.admin("POST", "/emulator/settings", {"access_token_lifetime": 3600})
        emu.clear_counters()
        # (Not access_token(): its 60-second margin would refresh this 30-second token.)
        old = client.credentials(min_ttl=20)["access_token"]
        assert client.has_valid_credentials(20) and not client.has_valid_credentials(60)
        assert requests_made(emu) == 0
        barrier = threading.Barrier(16)
        results: List[Dict[str, Any]] = []
        errors: List[BaseException] = []

        def worker() -> None:
            try:
                barrier.wait(10)
                results.append(dict(client.credentials(min_ttl=60)))
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=worker) for _ in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        assert emu.counters().get(REFRESH) == 1
        assert len({r["access_token"] for r in results}) == 1 and results[0]["access_token"] != old
        assert any(r["refreshed"] for r in results)
        assert client.has_valid_credentials(60)


def test_force_refresh_and_async(client: jump.Client, emu, registered) -> None:
    first = client.credentials()
    emu.clear_counters()
    forced = client.credentials_async(force_refresh=True).wait(10)
    assert forced["refreshed"] is True and forced["access_token"] != first["access_token"]
    assert emu.counters().get(REFRESH) == 1
    seen: List[Any] = []
    request = client.credentials_async(60, callback=lambda result, error: seen.append((result, error)))
    again = request.wait(10)
    assert again["access_token"] == forced["access_token"] and again["refreshed"] is False
    assert seen and seen[0][1] is None and seen[0][0]["access_token"] == again["access_token"]
    payload = request.payload
    assert payload is not None and payload["operation"] == "credentials" and payload["status"] == 0
    assert emu.counters().get(REFRESH) == 1
    with pytest.raises(jump.InvalidArgument):
        client.credentials_async(-5).wait(10)


def test_errors_are_exceptions(make_config, emu) -> None:
    with jump.Client(make_config()) as client:
        with pytest.raises(jump.NotSignedIn):
            client.credentials()
        assert client.has_valid_credentials() is False
        with pytest.raises(jump.InvalidArgument) as info:
            client.credentials(min_ttl=-1)
        assert info.value.detail.get("argument") == "min_ttl_seconds"
        with pytest.raises(TypeError):
            client.credentials(min_ttl=1.5)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            client.credentials(min_ttl=2**63)
        assert client.has_valid_credentials(-1) is False
    assert client.has_valid_credentials() is False  # closed


def test_sign_in_token_and_api_key_kinds(emu, token_config) -> None:  # noqa: F811 - the fixture
    user = new_user(emu)
    with jump.Client(token_config(storageDirectory=":memory:")) as client:
        client.sign_in_with_token(mint(emu, user))
        emu.clear_counters()
        creds = client.credentials(60)
        assert creds["kind"] == "sign_in_token" and creds["refreshed"] is False
        assert emu.counters().get("POST /v1/token", 0) == 0
        forced = client.credentials(force_refresh=True)
        assert forced["refreshed"] and forced["access_token"] != creds["access_token"]
        assert emu.counters().get("POST /v1/token", 0) == 1
    with jump.Client(token_config(storageDirectory=":memory:")) as client:
        client.use_api_key("jump-team-key", None, "dev", "us")
        creds = client.credentials(3600)
        assert creds == {"kind": "api_key", "access_token": "jump-team-key", "expires_at": None,
                         "expires_in": None, "refreshed": False}
        assert client.has_valid_credentials(10**12)
        with pytest.raises(jump.Unsupported) as info:
            client.credentials(force_refresh=True)
        assert "jump-team-key" not in str(info.value)
