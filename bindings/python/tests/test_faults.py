"""Server faults and unreachable servers map to ServerError / NetworkError with useful messages."""

from __future__ import annotations

import json
import socket
import urllib.parse
import urllib.request

import pytest

import jump

from conftest import PASSWORD


@pytest.mark.parametrize("kind", ["html", "garbage", "empty", "http_500"])
def test_server_faults(client: jump.Client, emu, registered, kind: str) -> None:
    # Three in a row: html, empty and http_500 are retried twice (maxRetries), garbage is not.
    emu.fault(kind, "/entity", count=3)
    with pytest.raises(jump.ServerError) as info:
        client.fetch_record()
    emu.admin("DELETE", "/emulator/faults")
    err = info.value
    assert err.status == -5 and err.status_name == "JUMP_E_SERVER"
    message = err.message.lower()
    expected = {  # what was wrong, in words a developer can act on
        "html": ("html", "502"),
        "garbage": ("json",),
        "empty": ("empty",),
        "http_500": ("500",),
    }[kind]
    assert all(word in message for word in expected), err.message
    if kind == "http_500":
        assert err.server and err.server["code"] == 500 and err.server["error"]
    client.fetch_record()  # the fault was one-shot: the client still works
    assert client.record["/email"] == registered["email"]


def test_failed_sync_keeps_changes(client: jump.Client, emu, registered) -> None:
    client.record["/aboutMe"] = "kept"
    emu.fault("http_500", "/entity.update")
    with pytest.raises(jump.ServerError):
        client.sync()
    assert client.record.changes()["changed"] == ["/aboutMe"]
    assert client.state["unsynced_changes"]
    assert client.sync()["changed"] == ["/aboutMe"]
    assert emu.user(registered["uuid"])["user"]["aboutMe"] == "kept"


def owner_update(emu, uuid: str, attributes: dict) -> None:
    """An edit by someone else: the app's backend, through the owner API."""
    body = urllib.parse.urlencode({"client_id": "jump-default-client", "client_secret": "jump-default-secret",
                                   "uuid": uuid, "attributes": json.dumps(attributes)}).encode()
    with urllib.request.urlopen(urllib.request.Request(emu.url + "/entity.update", data=body), timeout=10) as answer:
        assert json.loads(answer.read())["stat"] == "ok"


def test_own_write_whose_answer_was_lost_is_no_conflict(make_config, emu, registered, storage) -> None:
    """The server applied an update but its answer was lost, then the user edited the value again: the next
    fetch finds libjump's own earlier value on the server, which is no conflict (nobody else wrote it), also
    after a restart; the next sync sends the newer value."""
    with jump.Client(make_config()) as client:
        client.sign_in(registered["email"], PASSWORD)
        client.record["/familyName"] = "sent"
        emu.fault("lost_answer", "/entity.update")
        with pytest.raises(jump.ServerError):
            client.sync()
        assert emu.user(registered["uuid"])["user"]["familyName"] == "sent"  # applied all the same
        client.record["/familyName"] = "newer"
    with jump.Client(make_config()) as restarted:
        restarted.fetch_record()  # no Conflict: "sent" is this client's own
        assert restarted.record["/familyName"] == "newer"
        assert restarted.sync()["changed"] == ["/familyName"]
    assert emu.user(registered["uuid"])["user"]["familyName"] == "newer"
    # Someone else's change is still a conflict.
    with jump.Client(make_config()) as client:
        client.record["/familyName"] = "mine"
        owner_update(emu, registered["uuid"], {"familyName": "theirs"})
        with pytest.raises(jump.Conflict):
            client.fetch_record()


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_server(make_config) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    config = make_config(captureDomain=url, captureFlowDomain=url, storageDirectory=":memory:", connectTimeoutMs=2000)
    with jump.Client(config) as c:
        with pytest.raises(jump.NetworkError) as info:
            c.sign_in("someone@example.com", PASSWORD)
        assert info.value.status == -3 and info.value.message
        with pytest.raises(jump.NetworkError):
            c.sign_in_async("someone@example.com", PASSWORD).wait(30)
        assert not c.is_signed_in
