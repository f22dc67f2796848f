"""Session persistence: restore by a new client, unsynced edits survive and sync once, sign-out erases."""

from __future__ import annotations

import os

import jump

from conftest import PASSWORD, unique_email, wait_for


def test_session_restored_with_unsynced_edits(make_config, emu, storage) -> None:
    email = unique_email()
    with jump.Client(make_config()) as first:
        uuid = first.register_traditional({"email": email, "displayName": "Grace"}, PASSWORD)["uuid"]
        with first.record as record:
            record["/aboutMe"] = "Compilers"
            record["/givenName"] = "Grace"
    assert os.listdir(storage), "the session was not saved"

    emu.clear_counters()
    with jump.Client(make_config()) as second:
        assert second.is_signed_in
        state = second.state
        assert state["uuid"] == uuid and state["email"] == email
        assert state["restore_error"] is None
        assert state["unsynced_changes"]
        with second.record as record:
            assert record["/aboutMe"] == "Compilers"
            assert sorted(record.changes()["changed"]) == ["/aboutMe", "/givenName"]
        assert sum(emu.counters().values()) == 0, emu.counters()  # restoring needs no network
        result = second.sync()
        assert sorted(result["changed"]) == ["/aboutMe", "/givenName"]
        assert emu.counters().get("POST /entity.update") == 1

    user = emu.user(uuid)["user"]
    assert user["aboutMe"] == "Compilers" and user["givenName"] == "Grace"

    emu.clear_counters()
    with jump.Client(make_config()) as third:
        assert third.is_signed_in
        assert not third.state["unsynced_changes"]
        third.sync()  # nothing left to send
    assert emu.counters().get("POST /entity.update", 0) == 0


def test_sign_out_erases(make_config, emu) -> None:
    events = []
    with jump.Client(make_config()) as c:
        c.on_event(events.append)
        uuid = c.register_traditional({"email": unique_email(), "displayName": "Erased"}, PASSWORD)["uuid"]
        c.sign_out()
        assert wait_for(lambda: any(e["event"] == "signed_out" for e in events)), events
        assert not c.is_signed_in
        assert c.state["signed_in"] is False and c.state["uuid"] is None
    with jump.Client(make_config()) as again:
        assert not again.is_signed_in
        assert again.state["restore_error"] is None
    assert any(e["event"] == "signed_in" and e.get("uuid") == uuid for e in events)


def test_restore_retries(make_config) -> None:
    with jump.Client(make_config()) as c:
        c.restore()  # nothing saved: still signed out, no error
        assert not c.is_signed_in
