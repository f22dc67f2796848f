"""Sign-in tokens' API-key mode, identify and the saved session against the emulator's token API: migration,
the identify outcomes, restart and storage failures, refresh races, sign-out, web login, kill -9 mid-refresh
(docs/protocol.md §12; each test names the defect, a §12.10 item, it shows we do not have, where there is one)."""

from __future__ import annotations

import json
import os
import time
import uuid
from typing import Any, Dict, Optional

import pytest

import jump

from sign_in_tokens import TEAM_KEY, api, new_user, mint


def test_api_key_mode_and_migration(emu, token_config) -> None:
    user = new_user(emu)
    with jump.Client(token_config()) as client:
        client.use_api_key(TEAM_KEY, user.upper(), "dev", "us")
        status = client.status
        assert status["use_api_key"] and status["signed_in"] and not status["use_sign_in_token"]
        assert client.request("GET", f"/v2/user/{user}")["status"] == 200  # the key goes in the header
        # §12.10 item 6: compatible (same user, compared case-insensitively; same environment and region):
        # migrates in place.
        result = client.sign_in_with_token(mint(emu, user))
        assert result["migrated"] is True and client.status["use_sign_in_token"]
    # §12.10 item 5: what API-key mode and the migration set is what a relaunch restores.
    with jump.Client(token_config()) as relaunched:
        assert relaunched.status["use_sign_in_token"] and relaunched.status["user_id"] == user
    with jump.Client(token_config(storageDirectory=":memory:")) as other:
        other.use_api_key(TEAM_KEY, new_user(emu), "dev", "us")
        with pytest.raises(jump.AlreadySignedIn) as user_differs:
            other.sign_in_with_token(mint(emu, user))
        assert user_differs.value.detail["mismatch"] == "user_id"
        assert other.status["use_api_key"]  # nothing switched
    team = emu.admin("POST", "/emulator/teams", {"environment": "sandbox", "region": "eu"})
    sandbox_user = api(emu, "POST", "/v2/user", {"client_user_id": "sb"}, key=team["api_key"])["user_id"]
    sandbox_token = api(emu, "POST", f"/v2/user/{sandbox_user}/sign_in_token", key=team["api_key"])["sign_in_token"]
    with jump.Client(token_config(storageDirectory=":memory:")) as third:
        third.use_api_key(team["api_key"], sandbox_user, "dev", "eu")
        with pytest.raises(jump.AlreadySignedIn) as env_differs:
            third.sign_in_with_token(sandbox_token)
        assert env_differs.value.detail["mismatch"] == "environment"


def test_identify_outcome_table(emu, token_config) -> None:
    a, b = new_user(emu), new_user(emu)
    asked = []

    def for_user(user):
        def authenticate(external_id: str) -> Dict[str, Any]:
            asked.append(external_id)
            return {"type": "sign_in_token", "sign_in_token": mint(emu, user)}
        return authenticate

    with jump.Client(token_config()) as client:
        assert client.identify_external_user("app-a", for_user(a))["action"] == "signed_in"  # none + A
        assert client.status["user_id"] == a and client.status["external_user_id"] == "app-a"
        assert client.identify_external_user("app-a", for_user(b))["action"] == "none"  # same external id
        assert asked == ["app-a"]  # no callback the second time
        assert client.identify_external_user("app-a2", for_user(a))["action"] == "kept"  # A + A: no sign-out
        assert client.identify_external_user("app-b", for_user(b))["action"] == "switched"  # A + B
        assert client.status["user_id"] == b and client.status["external_user_id"] == "app-b"

        def failing(_: str) -> Dict[str, Any]:
            raise RuntimeError("backend down")

        with pytest.raises(RuntimeError):
            client.identify_external_user("app-c", failing)
        assert client.status["user_id"] == b  # a failed identify changes nothing
        api_key = client.identify_external_user(
            "app-k", lambda _: {"type": "api_key", "api_key": TEAM_KEY, "user_id": a, "environment": "dev", "region": "us"})
        assert api_key["action"] == "switched" and client.status["use_api_key"]


class LockableSecrets:
    """Host storage whose credential entries can be locked, as a keychain is (the other entries stay readable)."""

    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}
        self.locked = False

    def load(self, key: str) -> Optional[bytes]:
        if self.locked and key.startswith("credential-"):
            raise OSError("the keychain is locked")
        return self.data.get(key)

    def save(self, key: str, data: bytes) -> None:
        self.data[key] = data

    def erase(self, key: str) -> None:
        self.data.pop(key, None)


def test_restart_keeps_the_session_and_a_storage_failure_is_not_signed_out(emu, token_config, tmp_path) -> None:
    user = new_user(emu)
    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, user))
    with jump.Client(token_config()) as restarted:
        assert restarted.status["user_id"] == user
        assert restarted.request("GET", f"/v2/user/{user}/profile")["status"] == 200

    secrets = LockableSecrets()
    config = jump.Config(token_config(storageDirectory=":memory:"))
    config.set_storage(secrets)
    with jump.Client(config) as first:
        first.sign_in_with_token(mint(emu, user))
    secrets.locked = True
    with jump.Client(config) as locked:
        status = locked.status
        assert status["signed_in"] is True and status["user_id"] == user  # from the gist
        assert status["restore_error"] is not None
        with pytest.raises(jump.StorageError):
            locked.access_token()
        secrets.locked = False
        locked.restore()
        assert locked.status["restore_error"] is None and locked.access_token()
    config.close()


def test_an_unreadable_credential_is_a_storage_error_for_every_credential_call(emu, make_config, registered) -> None:
    """One rule chooses the credential of request, credentials, access_token and refresh (CredentialChoice): a
    saved sign-in-token credential that cannot be read is JUMP_E_STORAGE for all of them, also when a Capture
    session is there to fall back on (which used to answer credentials and access_token, but not request)."""

    user = new_user(emu)
    store = LockableSecrets()
    config = jump.Config(make_config(storageDirectory=":memory:", signInTokenAuthBaseUrl=emu.url,
                                     signInTokenApiBaseUrl=emu.url))
    config.set_storage(store)
    with jump.Client(config) as first:
        first.sign_in(registered["email"], registered["password"])  # a Capture session
        first.sign_in_with_token(mint(emu, user))                   # and a sign-in-token credential
    store.locked = True
    with jump.Client(config) as locked:
        assert locked.is_signed_in  # the Capture session was read
        assert locked.status["restore_error"] is not None
        for call in (lambda: locked.credentials(60), locked.access_token, locked.refresh_access_token,
                     lambda: locked.request("GET", f"/v2/user/{user}/profile")):
            with pytest.raises(jump.StorageError):
                call()
        assert locked.has_valid_credentials(0) is False
        store.locked = False
        locked.restore()
        assert locked.credentials(60)["kind"] == "sign_in_token"
    config.close()


def test_a_refresh_ending_after_a_new_sign_in_leaves_the_new_refresh_in_flight(emu, token_config) -> None:
    """A refresh that finishes after sign-out and a new sign-in must not clear the new session's refresh in
    flight: a third caller would then send the same refresh token a second time, which the server takes for
    reuse and answers by revoking the whole token family (the new session dies)."""
    first, second = new_user(emu), new_user(emu)
    emu.admin("POST", "/emulator/settings", {"refresh_reuse_grace_seconds": 0})  # a reuse is a reuse
    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, first))
        emu.fault("delay", "/v1/token", delay_ms=1500)
        old_refresh = client.credentials_async(force_refresh=True)  # F1: held 1.5 s by the server
        time.sleep(0.3)
        client.sign_out()
        client.sign_in_with_token(mint(emu, second))
        emu.fault("delay", "/v1/token", delay_ms=3000)
        new_refresh = client.credentials_async(force_refresh=True)  # F2: the new session's, held 3 s
        with pytest.raises(jump.NotSignedIn):
            old_refresh.wait(10)  # F1 ends, dropped: its session is gone
        again = client.credentials(60, force_refresh=True)  # must wait for F2, not start a refresh of its own
        assert new_refresh.wait(10)["access_token"] == again["access_token"]
        assert client.request("GET", f"/v2/user/{second}/profile")["status"] == 200


def test_a_client_that_died_mid_refresh_is_not_locked_out(emu, token_config, storage) -> None:
    user = new_user(emu)
    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, user))
    saved = [os.path.join(storage, n) for n in os.listdir(storage) if n.startswith("credential-")]
    assert saved
    before = open(saved[0], "rb").read()
    with jump.Client(token_config()) as client:
        client.refresh_access_token()  # the server rotates the refresh token...
    open(saved[0], "wb").write(before)  # ...but the process died before saving the answer
    with jump.Client(token_config()) as revived:
        revived.refresh_access_token()  # the old refresh token, within the server's grace window
        assert revived.status["pending_reauthentication"] is False
        assert revived.request("GET", f"/v2/user/{user}/profile")["status"] == 200


def test_sign_out_erases_and_revokes(emu, token_config, storage) -> None:
    user = new_user(emu)
    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, user))
        client.identify_external_user("app-x", lambda _: {"type": "sign_in_token", "sign_in_token": mint(emu, user)})
        emu.clear_counters()
        client.sign_out()
        assert emu.counters().get("POST /v1/revoke") == 1  # §12.10 item 10
        assert client.status["external_user_id"] is None and client.status["signed_in"] is False
    assert not [n for n in os.listdir(storage) if n.startswith(("credential-", "gist-"))]
    families = emu.admin("GET", f"/emulator/token_users/{user}")
    assert families.get("active_refresh_tokens", 0) == 0, families


def test_web_login_token_is_captured_and_used_on_its_origin_only(emu, make_config) -> None:
    import http.client
    import urllib.parse

    email = f"web-{uuid.uuid4().hex[:10]}@example.com"
    emu.admin("POST", "/emulator/users", {"email": email, "password": "correct horse 1"})
    host = urllib.parse.urlparse(emu.url)
    connection = http.client.HTTPConnection(host.hostname, host.port, timeout=10)
    connection.request("POST", "/weblogin", urllib.parse.urlencode({"email": email, "password": "correct horse 1"}),
                       {"Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    page = response.read().decode()
    set_cookies = "\n".join(v for k, v in response.getheaders() if k.lower() == "set-cookie")
    title = page.split("<title>")[1].split("</title>")[0]
    assert response.status == 200 and "oauth_token=" in set_cookies
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        from_cookie = client.use_web_login(emu.url + "/weblogin", cookies=set_cookies)
        from_title = client.use_web_login(emu.url + "/weblogin", title=title)
        assert from_cookie == from_title
        me = client.request("GET", emu.url + "/weblogin/me")
        assert me["status"] == 200 and json.loads(me["body"])["email"] == email
        with pytest.raises(jump.NotFound):
            client.use_web_login(emu.url + "/weblogin", cookies="other=1", title="Welcome")
        with pytest.raises(jump.InvalidArgument):
            client.use_web_login("http://example.com/login", cookies=set_cookies)  # https or loopback only


def test_kill_9_during_refreshes_never_locks_the_session_out(emu, token_config, storage) -> None:
    import signal
    import subprocess
    import sys

    user = new_user(emu)
    with jump.Client(token_config()) as client:
        client.sign_in_with_token(mint(emu, user))
    script = (
        "import json, os, sys, jump\n"
        "config = json.loads(sys.argv[1])\n"
        "with jump.Client(config) as c:\n"
        "    print('ready', flush=True)\n"
        "    while True:\n"
        "        c.refresh_access_token()\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(jump.__file__)), env.get("PYTHONPATH", "")])
    for round_ in range(4):
        child = subprocess.Popen([sys.executable, "-c", script, json.dumps(token_config())], env=env,
                                 stdout=subprocess.PIPE)
        assert child.stdout.readline().strip() == b"ready"
        time.sleep(0.15 + 0.1 * round_)  # somewhere in the middle of a refresh, or between two
        child.send_signal(signal.SIGKILL)
        child.wait()
        with jump.Client(token_config()) as survivor:
            survivor.refresh_access_token()
            assert survivor.status["pending_reauthentication"] is False
            assert survivor.request("GET", f"/v2/user/{user}/profile")["status"] == 200


def test_sign_in_with_token_async(emu, token_config) -> None:
    user = new_user(emu)
    with jump.Client(token_config(storageDirectory=":memory:")) as client:
        request = client.sign_in_with_token_async(mint(emu, user))
        assert request.wait(30) == {"user_id": user, "changed": True, "migrated": False}
        failing = client.sign_in_with_token_async(mint(emu, new_user(emu)))
        with pytest.raises(jump.AlreadySignedIn):
            failing.wait(30)
