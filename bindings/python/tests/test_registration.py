"""Registration, the record view, edits and sync; validation errors (en-US, fr-FR); duplicate email."""

from __future__ import annotations

import pytest

import jump

from conftest import PASSWORD, unique_email


def test_register_edit_sync(client: jump.Client, emu, registered) -> None:
    assert registered["is_new"] is True
    assert registered["uuid"]
    assert client.is_signed_in
    state = client.state
    assert state["signed_in"] is True and state["uuid"] == registered["uuid"]
    assert state["email"] == registered["email"]

    with client.record as record:
        assert record.get("/email") == registered["email"]
        assert record["/givenName"] == "Ada"
        assert record.get_string("/familyName") == "Lovelace"
        assert record.get_string("/aboutMe") is None
        whole = record.to_dict()
        assert whole["uuid"] == registered["uuid"] and whole["username"] == registered["username"]
        assert record.get() == whole

        assert record.changes()["changed"] == []
        record["/aboutMe"] = "Analytical engines"
        record.set("/givenName", "Augusta")
        changes = record.changes()
        assert sorted(changes["changed"]) == ["/aboutMe", "/givenName"]
        assert changes["update"] == {"aboutMe": "Analytical engines", "givenName": "Augusta"}
        assert record["/aboutMe"] == "Analytical engines"  # local view shows the edit
        assert client.state["unsynced_changes"]

    emu.clear_counters()
    result = client.sync()
    assert sorted(result["changed"]) == ["/aboutMe", "/givenName"]
    assert result["requests"] == 1
    assert emu.counters().get("POST /entity.update") == 1
    assert not client.state["unsynced_changes"]

    user = emu.user(registered["uuid"])["user"]
    assert user["aboutMe"] == "Analytical engines"
    assert user["givenName"] == "Augusta"
    assert user["familyName"] == "Lovelace"

    with client.record as record:
        assert record.changes()["changed"] == []
    # Nothing left to send: no further entity.update.
    emu.clear_counters()
    client.sync()
    assert emu.counters().get("POST /entity.update", 0) == 0


def test_discard_and_refused_edits(client: jump.Client, registered) -> None:
    record = client.record
    record["/aboutMe"] = "temporary"
    record.discard_changes()
    assert record["/aboutMe"] is None
    assert record.changes()["changed"] == []

    for path in ("/id", "/uuid", "/created", "/lastUpdated", "/photos"):
        with pytest.raises(jump.InvalidArgument) as info:
            record.set(path, "x" if path != "/photos" else [])
        assert path.strip("/") in info.value.message, info.value.message
    with pytest.raises(jump.NotFound) as info:
        record.get("/noSuchAttribute")
    assert isinstance(info.value, KeyError)
    with pytest.raises(jump.InvalidArgument):
        record.get_string("/photos")  # a list, not a string

    record.set_string("/primaryAddress/city", "London")
    assert record["/primaryAddress/city"] == "London"
    assert record.changes()["changed"] == ["/primaryAddress/city"]
    record.close()
    with pytest.raises(jump.InvalidHandle):
        record.get("/")


def test_setting_an_unknown_attribute_is_invalid_argument(client: jump.Client, registered) -> None:
    with client.record as record:
        with pytest.raises(jump.InvalidArgument) as info:
            record.set("/noSuchAttribute", "x")
    assert "noSuchAttribute" in info.value.message


def test_birthday_and_attributes_as_json(client: jump.Client) -> None:
    email = unique_email()
    client.register_traditional(
        f'{{"email": "{email}", "displayName": "B", "birthday": "1990-05-17", "aboutMe": "hi"}}', PASSWORD
    )
    record = client.record
    assert record["/birthday"] == "1990-05-17"
    assert record["/aboutMe"] == "hi"


def _invalid(make_config, locale: str):
    with jump.Client(make_config(captureLocale=locale)) as c:
        with pytest.raises(jump.ValidationFailed) as info:
            c.register_traditional({"email": "not-an-email", "displayName": "X"}, "short")
        assert not c.is_signed_in
    return info.value


def test_validation_errors_are_localized(make_config) -> None:
    en = _invalid(make_config, "en-US")
    assert en.status == -10 and en.status_name == "JUMP_E_VALIDATION"
    assert set(en.invalid_fields) >= {"emailAddress", "newPassword"}
    assert all(isinstance(m, list) and m and all(isinstance(s, str) for s in m) for m in en.invalid_fields.values())
    assert en.detail["invalid_fields"] == en.invalid_fields

    fr = _invalid(make_config, "fr-FR")
    assert set(fr.invalid_fields) == set(en.invalid_fields)
    assert fr.invalid_fields["emailAddress"] != en.invalid_fields["emailAddress"]
    assert fr.invalid_fields["newPassword"] != en.invalid_fields["newPassword"]


def test_duplicate_email(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as other:
        with pytest.raises(jump.ValidationFailed) as info:
            other.register_traditional({"email": registered["email"], "displayName": "Twin"}, PASSWORD)
    assert "emailAddress" in info.value.invalid_fields
    assert info.value.invalid_fields["emailAddress"]
