"""Server faults and unreachable servers map to ServerError / NetworkError with useful messages."""

from __future__ import annotations

import socket

import pytest

import jump

from conftest import PASSWORD


@pytest.mark.parametrize("kind", ["html", "garbage", "empty", "http_500"])
def test_server_faults(client: jump.Client, emu, registered, kind: str) -> None:
    emu.fault(kind, "/entity")
    with pytest.raises(jump.ServerError) as info:
        client.fetch_record()
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
