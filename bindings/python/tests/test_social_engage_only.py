"""Engage-only mode (no captureDomain): the outcome is the Engage result itself, and the token goes to the
app's token URL (examples/token_url_server.py, a real HTTP server started here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

import jump

from conftest import ENGAGE_API_KEY, ENGAGE_APP_ID, closed_port_url, http_call, unique_email

ROOT = Path(__file__).resolve().parents[3]
TOKEN_URL_SERVER = ROOT / "examples" / "token_url_server.py"


def engage_only(emu, **overrides: Any) -> Dict[str, Any]:
    config = {"engageAppId": ENGAGE_APP_ID, "engageDomain": emu.url, "storageDirectory": ":memory:",
              "requestTimeoutMs": 10000}
    config.update(overrides)
    return config


@pytest.fixture
def token_server(emu) -> Iterator[str]:
    """examples/token_url_server.py on a free port, asking the emulator's Engage; its base URL."""
    process = subprocess.Popen([sys.executable, str(TOKEN_URL_SERVER), "--port", "0", "--engage", emu.url],
                               stdout=subprocess.PIPE)
    assert process.stdout is not None
    url = process.stdout.readline().decode().strip()
    assert url.startswith("http://127.0.0.1:"), url
    yield url
    process.terminate()
    process.wait(10)


def page_sign_in(c: jump.Client, idp, provider: str, name: str, email: str) -> Dict[str, Any]:
    begun = c.social_begin(provider)
    assert begun["completion"] == "device"
    return c.social_complete(idp.finish(begun["url"], name=name, email=email))


def test_engage_only_browser_sign_in(emu, idp) -> None:
    email = unique_email("eng")
    with jump.Client(engage_only(emu)) as c:
        result = page_sign_in(c, idp, "google", "Eve Engage", email)
        identity = idp.identity_by_email("google", email)
        assert result["outcome"] == "authenticated" and result["provider"] == "google"
        assert result["profile"]["identifier"] == identity["identifier"]
        assert result["profile"]["email"] == email and result["profile"]["displayName"] == "Eve Engage"
        assert result["device_token"] and result["token_url_response"] is None
        assert len(result["token"]) == 40
        assert not c.is_signed_in  # there is no Capture session in this mode
        with pytest.raises(jump.NotSignedIn):
            c.linked_profiles()
    # the token is real: an app backend reads the same profile with it
    info = http_call(emu.url + "/api/v2/auth_info",
                     {"apiKey": ENGAGE_API_KEY, "token": result["token"], "format": "json"}).json()
    assert info["stat"] == "ok" and info["profile"]["identifier"] == identity["identifier"]
    assert info["provider"] == "google"


def test_token_url_answer(emu, idp, token_server) -> None:
    email = unique_email("turl")
    with jump.Client(engage_only(emu)) as c:
        c.set_token_url(token_server + "/token")
        result = page_sign_in(c, idp, "facebook", "Tok Url", email)
        identity = idp.identity_by_email("facebook", email)
        answer = result["token_url_response"]
        assert answer["status"] == 200
        headers = {name.lower(): value for name, value in answer["headers"]}
        assert headers["content-type"] == "application/json"
        assert headers["set-cookie"].startswith("app_session=")
        [cookie] = [k for k in answer["cookies"] if k["name"] == "app_session"]
        assert cookie["value"] and cookie["path"] == "/"
        assert cookie["value"] in headers["set-cookie"]
        body = json.loads(answer["body"])
        assert body["user"]["identifier"] == identity["identifier"] and body["user"]["email"] == email
        # the cookie is the backend's session: it knows the user by it
        me = http_call_with_cookie(token_server + "/me", f"app_session={cookie['value']}")
        assert me["user"]["identifier"] == identity["identifier"]

        # a native sign-in has no profile itself; the backend still learns who it is
        native = c.social_sign_in_native("google", json.dumps({"email": email, "display_name": "Nat"}))
        assert native["outcome"] == "authenticated" and native["device_token"] is None
        assert native["token_url_response"]["status"] == 200
        assert json.loads(native["token_url_response"]["body"])["user"]["email"] == email

        # any HTTP status is an answer for the app to read, not a failure
        c.set_token_url(token_server + "/elsewhere")
        missing = page_sign_in(c, idp, "facebook", "Tok Url", unique_email("404"))
        assert missing["token_url_response"]["status"] == 404
        assert missing["token_url_response"]["cookies"] == []

        c.set_token_url(None)
        plain = page_sign_in(c, idp, "facebook", "No Url", unique_email("none"))
        assert plain["outcome"] == "authenticated" and plain["token_url_response"] is None


def http_call_with_cookie(url: str, cookie: str) -> Dict[str, Any]:
    import urllib.request

    request = urllib.request.Request(url, headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_token_url_from_the_config(emu, idp, token_server) -> None:
    with jump.Client(engage_only(emu, engageTokenUrl=token_server + "/token")) as c:
        result = page_sign_in(c, idp, "linkedin", "Con Fig", unique_email("cfg"))
        assert result["token_url_response"]["status"] == 200
        assert json.loads(result["token_url_response"]["body"])["user"]["displayName"] == "Con Fig"


def test_token_url_unreachable_or_refused(emu, idp) -> None:
    with jump.Client(engage_only(emu)) as c:
        with pytest.raises(jump.InvalidArgument):
            c.set_token_url("ftp://example.com/token")
        with pytest.raises(jump.InvalidArgument):
            c.set_token_url("http://example.com/token")  # plain http only for loopback hosts
        c.set_token_url(closed_port_url() + "/token")
        begun = c.social_begin("facebook")
        url = idp.finish(begun["url"], name="Dow N", email=unique_email("down"))
        with pytest.raises(jump.NetworkError):
            c.social_complete(url)


def test_merge_needs_capture(emu) -> None:
    with jump.Client(engage_only(emu)) as c:
        with pytest.raises(jump.InvalidArgument) as info:
            c.social_sign_in_native("google", json.dumps({"email": unique_email()}), merge_token="x" * 40)
        assert info.value.argument == "merge_token"
