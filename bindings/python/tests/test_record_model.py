"""The record model against the emulator: path edits, plurals, the minimal sync, partial failures,
restarts, schema and access-schema refusals, and conflicts."""

from __future__ import annotations

import json

import pytest

import jump

from conftest import PASSWORD, unique_email


def signed_in_with_photos(emu, client, photos=("a.png", "b.png")) -> str:
    """A user created with plural elements (registration makes none), signed in through client."""
    email = unique_email("rec")
    record = {
        "givenName": "Ada",
        "photos": [{"value": v} for v in photos],
        "profiles": [{"identifier": "id-" + email, "domain": "example.com", "friends": [{"displayName": "Bo"}]}],
    }
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD, "record": record})
    client.sign_in(email, PASSWORD)
    emu.clear_counters()
    return client.state["uuid"]


def entity_calls(emu) -> dict:
    return {k: v for k, v in emu.counters().items() if k.startswith("POST /entity.")}


def test_record_reads_like_a_dict(emu, client) -> None:
    signed_in_with_photos(emu, client)
    with client.record as record:
        assert "givenName" in record and "/primaryAddress/city" in record and "nope" not in record
        assert "photos" in list(record)
        assert record.get_or("/nope", 42) == 42
        assert record.count("/photos") == 2
        paths = record.elements("/photos")
        assert [record[p + "/value"] for p in paths] == ["a.png", "b.png"]
        with pytest.raises(jump.NotFound):
            record.get_int("/aboutMe")  # null: no value
        with pytest.raises(jump.InvalidArgument):
            record.get_bool("/givenName")


def test_one_attribute_is_one_small_request(emu, client) -> None:
    signed_in_with_photos(emu, client, photos=[f"p{i}.png" for i in range(200)])
    with client.record as record:
        record["/aboutMe"] = "one change"
    result = client.sync()
    assert result["changed"] == ["/aboutMe"] and result["requests"] == 1
    assert entity_calls(emu) == {"POST /entity.update": 1}
    sent = emu.admin("GET", "/emulator/counters").get("request_bytes", {}).get("POST /entity.update", 0)
    assert 0 < sent < 400, sent  # the 200 photos are not sent


def test_two_objects_and_a_plural_are_three_requests(emu, client) -> None:
    uuid = signed_in_with_photos(emu, client)
    with client.record as record:
        first = record.elements("/photos")[0]
        record["/aboutMe"] = "root object"
        record["/primaryAddress/city"] = "Lyon"  # same object as /aboutMe: the root update carries both
        record[first + "/value"] = "edited.png"  # a plural element: its own update
        record.append("/statuses", {"status": "hello"})  # a plural that grew: entity.update appends it
    result = client.sync()
    assert result["requests"] == 3
    assert entity_calls(emu) == {"POST /entity.update": 3}
    user = emu.user(uuid)["user"]
    assert user["aboutMe"] == "root object" and user["primaryAddress"]["city"] == "Lyon"
    assert user["photos"][0]["value"] == "edited.png"
    assert [s["status"] for s in user["statuses"]] == ["hello"]
    emu.clear_counters()
    assert client.sync()["requests"] == 0 and entity_calls(emu) == {}


def test_replace_gives_new_ids_that_later_edits_use(emu, client) -> None:
    uuid = signed_in_with_photos(emu, client)
    with client.record as record:
        local = record.append("/photos", {"value": "new.png"})
        assert local == "/photos#-1"
        record[local + "/type"] = "extra"
    result = client.sync()
    new = result["renamed"][local]
    assert int(new.split("#")[1]) > 0
    with client.record as record:
        assert record[new + "/value"] == "new.png"
        assert all(int(p.split("#")[1]) > 0 for p in record.elements("/photos"))
        record[new + "/value"] = "renamed.png"
    emu.clear_counters()
    client.sync()
    assert entity_calls(emu) == {"POST /entity.update": 1}
    server = {p["id"]: p for p in emu.user(uuid)["user"]["photos"]}
    assert server[int(new.split("#")[1])]["value"] == "renamed.png"
    assert len(server) == 3  # no duplicate append


def test_remove_and_nested_plural(emu, client) -> None:
    uuid = signed_in_with_photos(emu, client)
    with client.record as record:
        record.remove(record.elements("/photos")[0])
        profile = record.elements("/profiles")[0]
        record.append(profile + "/friends", {"displayName": "Cy"})
    client.sync()
    assert entity_calls(emu) == {"POST /entity.delete": 1, "POST /entity.update": 1}  # the friend is appended
    user = emu.user(uuid)["user"]
    assert [p["value"] for p in user["photos"]] == ["b.png"]
    assert [f["displayName"] for f in user["profiles"][0]["friends"]] == ["Bo", "Cy"]


def test_failure_in_the_middle_keeps_the_right_dirty_set(emu, client) -> None:
    signed_in_with_photos(emu, client)
    with client.record as record:
        record["/aboutMe"] = "synced first"
        record.append("/statuses", {"status": "fails once"})
    emu.fault("delay", "/entity.update", delay_ms=0)  # the first update (/aboutMe) goes through ...
    emu.fault("http_500", "/entity.update")  # ... the append after it fails
    with pytest.raises(jump.ServerError) as failure:
        client.sync()
    assert failure.value.detail["synced"] == ["/aboutMe"]
    assert failure.value.detail["pending"] == ["/statuses"]
    with client.record as record:
        assert record.changes()["changed"] == ["/statuses"]
    emu.clear_counters()
    result = client.sync()
    assert result["changed"] == ["/statuses"]
    assert entity_calls(emu) == {"POST /entity.update": 1}  # /aboutMe is not sent again
    assert [s["status"] for s in emu.user(client.state["uuid"])["user"]["statuses"]] == ["fails once"]


def test_offline_edits_survive_a_restart_and_sync_once(make_config, emu) -> None:
    with jump.Client(make_config()) as first:
        uuid = signed_in_with_photos(emu, first)
        with first.record as record:
            record["/aboutMe"] = "offline"
            record.append("/photos", {"value": "offline.png"})
            record.remove(record.elements("/photos")[0])
            expected = record.changes()
    with jump.Client(make_config()) as second:
        with second.record as record:
            assert record.changes() == expected
        emu.clear_counters()
        second.sync()
        calls = entity_calls(emu)
        assert calls == {"POST /entity.update": 2, "POST /entity.delete": 1}, calls
    with jump.Client(make_config()) as third:
        assert not third.state["unsynced_changes"]
        emu.clear_counters()
        third.sync()
        assert entity_calls(emu) == {}
    photos = [p["value"] for p in emu.user(uuid)["user"]["photos"]]
    assert photos == ["b.png", "offline.png"]


def test_schema_refuses_locally(emu, client) -> None:
    signed_in_with_photos(emu, client)
    client.load_schema()
    with client.record as record:
        emu.clear_counters()
        for path, value in [("/birthday", "yesterday"), ("/aboutMe", 5), ("/uuid", "x"), ("/nope", 1),
                            ("/givenName", "x" * 65)]:
            with pytest.raises(jump.InvalidArgument) as refused:
                record[path] = value
            assert refused.value.detail["argument"] == path
        with pytest.raises(jump.InvalidArgument):
            record.append("/photos", {"colour": "red"})
        assert not record.changes()["changed"]
    assert emu.counters() == {}


def test_access_schema_refused_locally_and_on_the_server(emu, make_config) -> None:
    emu.admin("POST", "/emulator/apps/jump-default-client/access_schema", {"write_with_token": ["aboutMe", "photos"]})
    with jump.Client(make_config()) as unaware:  # no schema loaded: the server refuses
        signed_in_with_photos(emu, unaware)
        with unaware.record as record:
            record["/givenName"] = "Not allowed"
        with pytest.raises(jump.InvalidArgument) as refused:
            unaware.sync()
        assert refused.value.detail["server"]["code"] == 223
        unaware.load_schema()  # now the client knows: refused before any request
        with unaware.record as record:
            record.revert("/givenName")
            record["/aboutMe"] = "allowed"
            with pytest.raises(jump.InvalidArgument) as local:
                record["/givenName"] = "still not"
            assert local.value.detail["argument"] == "/givenName"
        assert unaware.sync()["changed"] == ["/aboutMe"]


def test_fetch_reports_a_conflict_and_keeps_the_local_value(make_config, emu) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as mine, \
            jump.Client(make_config(storageDirectory=":memory:")) as theirs:
        signed_in_with_photos(emu, mine)
        email = mine.state["email"]
        theirs.sign_in(email, PASSWORD)
        with theirs.record as record:
            record["/aboutMe"] = "theirs"
            record["/givenName"] = "Theirs"
        theirs.sync()
        with mine.record as record:
            record["/aboutMe"] = "mine"
        with pytest.raises(jump.Conflict) as conflict:
            mine.fetch_record()
        assert [c["path"] for c in conflict.value.conflicts] == ["/aboutMe"]
        assert conflict.value.conflicts[0]["server"] == "theirs"
        with mine.record as record:
            assert record["/aboutMe"] == "mine"  # kept
            assert record["/givenName"] == "Theirs"  # the server's other change came in
            record.revert("/aboutMe")
            assert record["/aboutMe"] == "theirs"
            assert not record.changes()["changed"]


def test_timestamp_mismatch_is_a_conflict(emu, client) -> None:
    signed_in_with_photos(emu, client)
    with client.record as record:
        record["/aboutMe"] = "x"
    emu.fault("capture_error", "/entity.update", code=330)
    with pytest.raises(jump.Conflict):
        client.sync()
    assert client.sync()["changed"] == ["/aboutMe"]


def test_schema_file_in_config_refuses_locally(emu, make_config, tmp_path) -> None:
    import json
    import urllib.request

    request = urllib.request.Request(emu.url + "/entityType",
                                     data=b"type_name=user&client_id=jump-default-client&client_secret=jump-default-secret")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read())
    schema_file = tmp_path / "schema.json"
    schema_file.write_text(json.dumps({"attr_defs": answer["schema"]["attr_defs"],
                                       "access_schema": {"write_with_token": ["aboutMe", "photos"]}}))
    with jump.Client(make_config(captureSchemaFile=str(schema_file))) as client:
        signed_in_with_photos(emu, client)
        with client.record as record:
            record["/aboutMe"] = "allowed"
            with pytest.raises(jump.InvalidArgument) as refused:
                record["/givenName"] = "outside the access schema"
            assert refused.value.detail["argument"] == "/givenName"
            with pytest.raises(jump.InvalidArgument):
                record["/aboutMe"] = 12
        assert client.sync()["changed"] == ["/aboutMe"]
    with pytest.raises(jump.InvalidArgument) as bad:
        jump.Client(make_config(captureSchemaFile=str(tmp_path / "missing.json")))
    assert "captureSchemaFile" in str(bad.value)


def test_a_json_attribute_is_sent_whole(emu, make_config, tmp_path) -> None:
    """Capture replaces a json attribute's value on entity.update, where it merges an object's members: an edit
    of some members of a json value sends the whole value, or the server would lose the others."""
    import json
    import urllib.request

    request = urllib.request.Request(emu.url + "/entityType",
                                     data=b"type_name=user&client_id=jump-default-client&client_secret=jump-default-secret")
    with urllib.request.urlopen(request, timeout=10) as response:
        schema_file = tmp_path / "schema.json"
        schema_file.write_text(json.dumps({"attr_defs": json.loads(response.read())["schema"]["attr_defs"]}))
    email = unique_email("json")
    profile = {"favorite_color": "teal", "pets": [{"pet_name": "Rex"}], "motto": "kept"}
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD, "record": {
        "profiles": [{"identifier": "id-" + email, "domain": "example.com", "profile": profile}]}})
    with jump.Client(make_config(captureSchemaFile=str(schema_file))) as client:
        client.sign_in(email, PASSWORD)
        element = client.record.elements("/profiles")[0]
        with client.record as record:
            record[element + "/profile"] = {"favorite_color": "red"}  # sets that member; the others keep theirs
        assert client.record[element + "/profile"] == {**profile, "favorite_color": "red"}
        client.sync()
        server = emu.user(client.state["uuid"])["user"]["profiles"][0]["profile"]
        assert server == {**profile, "favorite_color": "red"}
        client.fetch_record()
        assert client.record[element + "/profile"] == {**profile, "favorite_color": "red"}


def test_loading_the_schema_needs_a_signed_in_user(emu, make_config) -> None:
    """Capture answers /entityType to an access token or to owner credentials, never to a client id alone:
    without a session libjump says so before any request (captureSchemaFile is the way to have it then)."""
    with jump.Client(make_config()) as signed_out:
        emu.clear_counters()
        with pytest.raises(jump.NotSignedIn) as refused:
            signed_out.load_schema()
        assert "captureSchemaFile" in refused.value.message
        assert emu.counters() == {}
    import urllib.parse
    import urllib.request

    body = urllib.parse.urlencode({"type_name": "user", "client_id": "jump-default-client"}).encode()
    with urllib.request.urlopen(urllib.request.Request(emu.url + "/entityType", data=body), timeout=10) as answer:
        refused_by_server = json.loads(answer.read())
    assert refused_by_server["stat"] == "error" and refused_by_server["code"] == 100
