"""`PATCH /emulator/users/{uuid}`: editing a user's record through the admin API (what the dashboard's edit form
uses), with the checks of `entity.update` / `entity.replace`."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, Dict, Optional, Tuple

from emulator_helpers import http_call, unique_email

RESERVED = ("id", "uuid", "created", "lastUpdated")


def call(emu: Any, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Tuple[int, Dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(emu.url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def create(emu: Any, **record: Any) -> Dict[str, Any]:
    return emu.admin("POST", "/emulator/users", {
        "email": unique_email("patch"), "password": "pw-patch", "record": record})["user"]


def sign_in(emu: Any, email: str, password: str) -> Dict[str, Any]:
    return http_call(emu.url + "/oauth/auth_native_traditional", {
        "client_id": "jump-default-client", "locale": "en-US", "form": "signInForm", "signInEmailAddress": email,
        "currentPassword": password, "redirect_uri": "http://localhost/done"}).json()


def test_a_patch_merges_like_entity_update(emu) -> None:
    user = create(emu, givenName="Ada", familyName="Lovelace")
    status, answer = call(emu, "PATCH", f"/emulator/users/{user['uuid']}", {"record": {"givenName": "Augusta"}})
    assert status == 200, answer
    assert answer["user"]["givenName"] == "Augusta" and answer["user"]["familyName"] == "Lovelace"
    assert emu.user(user["uuid"])["user"] == answer["user"]
    assert answer["user"]["uuid"] == user["uuid"] and answer["user"]["created"] == user["created"]


def test_a_patch_with_replace_overwrites_like_entity_replace(emu) -> None:
    user = create(emu, givenName="Ada", familyName="Lovelace")
    status, answer = call(emu, "PATCH", f"/emulator/users/{user['uuid']}", {
        "record": {"email": user["email"], "givenName": "Grace"}, "replace": True})
    assert status == 200, answer
    assert answer["user"]["givenName"] == "Grace" and answer["user"]["familyName"] is None
    assert answer["user"]["email"] == user["email"]


def test_a_record_read_back_without_its_reserved_attributes_saves_unchanged(emu) -> None:
    """What the dashboard's edit form starts from: the record as read, its plural elements keeping their ids."""
    user = create(emu, givenName="Round", photos=[{"value": "a.png"}, {"value": "b.png"}])
    editable = {key: value for key, value in user.items() if key not in RESERVED}
    status, answer = call(emu, "PATCH", f"/emulator/users/{user['uuid']}", {"record": editable})
    assert status == 200, answer
    assert {k: v for k, v in answer["user"].items() if k != "lastUpdated"} == \
        {k: v for k, v in user.items() if k != "lastUpdated"}


def test_a_patch_can_set_the_password(emu) -> None:
    user = create(emu, givenName="Pat")
    status, answer = call(emu, "PATCH", f"/emulator/users/{user['uuid']}", {"record": {"password": "pw-new"}})
    assert status == 200, answer
    assert sign_in(emu, user["email"], "pw-new")["stat"] == "ok"
    assert sign_in(emu, user["email"], "pw-patch")["stat"] == "error"


def test_a_patch_is_as_strict_as_entity_update_and_all_or_nothing(emu) -> None:
    user = create(emu, givenName="Strict")
    other = create(emu, givenName="Other")
    path = f"/emulator/users/{user['uuid']}"
    refusals = [
        ({"record": {"givenName": "Half", "noSuchAttribute": 1}}, 400, "invalid_record", 223),
        ({"record": {"uuid": "mine-now"}}, 400, "invalid_record", 234),
        ({"record": {"birthday": "not a date"}}, 400, "invalid_record", 342),
        ({"record": {"email": other["email"]}}, 409, "email_taken", None),
        ({"record": {"photos": [{"id": 99, "value": "x"}]}, "replace": True}, 400, "invalid_record", 320),
        ({"record": ["not", "an", "object"]}, 400, "bad_request", None),
        ({"replace": True}, 400, "bad_request", None),
        ({"record": {}, "replace": "yes"}, 400, "bad_request", None),
    ]
    for body, status, error, code in refusals:
        got, answer = call(emu, "PATCH", path, body)
        assert (got, answer.get("error")) == (status, error), (body, answer)
        if code is not None:
            assert answer["capture_error"]["code"] == code, (body, answer)
    assert emu.user(user["uuid"])["user"] == user, "a refused patch changed the record"


def test_patching_an_unknown_user_is_404(emu) -> None:
    status, answer = call(emu, "PATCH", "/emulator/users/00000000-0000-0000-0000-000000000000",
                          {"record": {"givenName": "Nobody"}})
    assert (status, answer["error"]) == (404, "not_found")
    assert answer["message"] == "no user with uuid 00000000-0000-0000-0000-000000000000", "not the user: the endpoint"


def test_a_users_document_and_page_list_the_sessions_clients_hold(emu) -> None:
    """Each sign-in a client keeps is one session (its newest token); a refresh replaces, not adds."""
    email = unique_email("held")
    user = emu.admin("POST", "/emulator/users", {"email": email, "password": "pw-held"})["user"]
    assert emu.user(user["uuid"])["sessions"] == []
    first = sign_in(emu, email, "pw-held")
    sign_in(emu, email, "pw-held")
    sessions = emu.user(user["uuid"])["sessions"]
    assert len(sessions) == 2, sessions
    assert all(s["client_id"] == "jump-default-client" and s["live"] and s["refresh"] == "none" for s in sessions)
    assert all("access_token" not in s for s in sessions)
    assert first["access_token"] not in json.dumps(emu.user(user["uuid"]))
    with urllib.request.urlopen(f"{emu.url}/emulator/ui/users/{user['uuid']}", timeout=10) as page:
        html = page.read().decode("utf-8")
    assert 'id="user-sessions"' in html and html.count("<tr><td class=\"mono\">jump-default-client</td>") == 2
