"""The emulator switch: emulatorHost or $JUMP_EMULATOR_HOST points every endpoint of a client at one
jump-emulator over plain http, whatever its URL keys say, with one warning log line."""

from __future__ import annotations

import logging
import urllib.parse
from typing import Any, Dict

import pytest

import jump

from conftest import ENGAGE_APP_ID, PASSWORD, FakeIdP, unique_email

# A production configuration: nothing in it names the emulator.
PRODUCTION = {
    "captureDomain": "https://myapp.us.janraincapture.com",
    "captureClientId": "jump-default-client",
    "captureAppId": "default-app",
    "captureFlowName": "standard",
    "captureLocale": "en-US",
    "engageAppId": ENGAGE_APP_ID,
    "storageDirectory": ":memory:",
    "requestTimeoutMs": 10000,
}


def host_of(emu) -> str:
    return urllib.parse.urlsplit(emu.url).netloc


def capture_calls(emu) -> Dict[str, Any]:
    return {k: v for k, v in emu.counters().items() if "/oauth/" in k or "/widget_data/" in k}


def test_config_key_sends_capture_flow_and_engage_to_the_emulator(emu) -> None:
    email = unique_email("switch")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    with jump.Client(dict(PRODUCTION, emulatorHost=host_of(emu), captureEnableThinRegistration=True)) as client:
        client.sign_in(email, PASSWORD)
        client.load_flow()
        assert client.load_engage_config()["from_cache"] is False
        begun = client.social_begin("google")
        assert begun["url"].startswith(emu.url), begun["url"]
        outcome = client.social_complete(FakeIdP(emu).finish(begun["url"], name="Sam", email=unique_email("sw")))
        assert outcome["outcome"] == "registered"
    counted = emu.counters()
    assert counted.get("POST /oauth/auth_native_traditional") == 1, counted
    assert any(k.startswith("GET /widget_data/flows/") for k in counted), counted


def test_environment_variable_sends_sign_in_tokens_to_the_emulator(emu, monkeypatch) -> None:
    monkeypatch.setenv("JUMP_EMULATOR_HOST", host_of(emu))
    user = emu.admin("POST", "/emulator/token_users", {})["user_id"]
    token = emu.admin("POST", f"/emulator/token_users/{user}/sign_in_token", {})["sign_in_token"]
    with jump.Client({"storageDirectory": ":memory:"}) as client:  # no URL at all: derived from the token
        assert client.sign_in_with_token(token)["user_id"] == user


def test_one_warning_line_per_client(emu, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="jump")
    with jump.Client(dict(PRODUCTION, emulatorHost=host_of(emu))):
        pass
    with jump.Client(dict(PRODUCTION, storageDirectory=":memory:")):  # no switch: no warning
        pass
    lines = [r.getMessage() for r in caplog.records if "emulator" in r.getMessage()]
    assert lines == [f"every endpoint of this client goes to the emulator at {emu.url} (emulatorHost), over plain http"]


def test_plain_http_to_any_host(emu) -> None:
    # Not a loopback host, yet plain http is taken for the emulator (a container's name, say): the request
    # fails on the network, not on the configuration.
    with jump.Client(dict(PRODUCTION, emulatorHost="jump-emulator.invalid:9080", connectTimeoutMs=2000)) as client:
        with pytest.raises(jump.NetworkError):
            client.sign_in("nobody@example.com", "whatever password")
    with pytest.raises(jump.InvalidArgument) as refused:
        jump.Client(dict(PRODUCTION, captureDomain="http://jump-emulator.invalid:9080"))
    assert refused.value.detail["argument"] == "captureDomain"


@pytest.mark.parametrize("bad", ["https://127.0.0.1:9080", "127.0.0.1:9080/path", "user@127.0.0.1:1", ":9080", "a b:1"])
def test_a_value_that_is_not_host_port_is_refused_naming_the_key(bad: str) -> None:
    with pytest.raises(jump.InvalidArgument) as refused:
        jump.Client(dict(PRODUCTION, emulatorHost=bad))
    assert refused.value.detail["argument"] == "emulatorHost"
    assert "host:port" in refused.value.message


def test_an_empty_key_ignores_the_environment(emu, monkeypatch) -> None:
    monkeypatch.setenv("JUMP_EMULATOR_HOST", host_of(emu))
    email = unique_email("optout")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    with jump.Client(dict(PRODUCTION, emulatorHost="", captureDomain="http://127.0.0.1:9", connectTimeoutMs=2000)) as client:
        with pytest.raises(jump.NetworkError):
            client.sign_in(email, PASSWORD)
    with jump.Client(dict(PRODUCTION)) as client:  # the environment alone
        client.sign_in(email, PASSWORD)
