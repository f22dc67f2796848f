"""Profile and password forms: update profile, change password, forgot password (with the reset loop an app's
backend plays) and resend verification, against the emulator."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional

import pytest

import jump

from conftest import PASSWORD, unique_email

NEW_PASSWORD = "brand new secret 7"
TOO_LONG = "x" * 80


def new_user(emu, **record: Any) -> Dict[str, str]:
    email = unique_email("forms")
    body: Dict[str, Any] = {"email": email, "password": PASSWORD}
    if record:
        body["record"] = record
    user = emu.admin("POST", "/emulator/users", body)["user"]
    return {"email": email, "uuid": user["uuid"]}


def signed_in(make_config, emu, **config: Any):
    user = new_user(emu, displayName="Old Name", givenName="Old")
    client = jump.Client(make_config(storageDirectory=":memory:", **config))
    client.sign_in(user["email"], PASSWORD)
    return client, user


def http(emu, path_or_url: str, form: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    """What an app's backend sends: a form-encoded POST (or a GET without ``form``); the JSON reply."""
    url = path_or_url if path_or_url.startswith("http") else emu.url + path_or_url
    data = None if form is None else urllib.parse.urlencode(form).encode("ascii")
    request = urllib.request.Request(url, data=data, method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        text = exc.read().decode("utf-8", "replace")
    try:
        return json.loads(text)
    except ValueError:
        return {"text": text}


def emails(emu, to: str, kind: Optional[str] = None) -> List[Dict[str, Any]]:
    found = [e for e in emu.admin("GET", "/emulator/emails").get("emails", []) if e.get("to", "").lower() == to.lower()]
    return [e for e in found if kind is None or e.get("kind") == kind]


def can_sign_in(make_config, email: str, password: str) -> bool:
    with jump.Client(make_config(storageDirectory=":memory:")) as other:
        try:
            other.sign_in(email, password)
            return True
        except jump.BadCredentials:
            return False


# -- update profile ----------------------------------------------------------------------------------------


def test_update_profile_sends_the_form_and_refetches(make_config, emu) -> None:
    client, user = signed_in(make_config, emu)
    with client, client.record as record:
        record["/aboutMe"] = "edited before"  # an unsynced form field travels with the form
        emu.clear_counters()
        client.update_profile({"displayName": "New Name", "givenName": "Newgiven", "birthday": "1985-04-03"})

        stored = emu.user(user["uuid"])["user"]
        assert stored["displayName"] == "New Name"
        assert stored["givenName"] == "Newgiven"
        assert stored["birthday"].startswith("1985-04-03")
        assert stored["aboutMe"] == "edited before"
        counters = emu.counters()
        assert counters.get("POST /oauth/update_profile_native") == 1
        assert counters.get("POST /entity", 0) >= 1  # the record was fetched again
        assert record["/displayName"] == "New Name"
        assert record["/birthday"].startswith("1985-04-03")
        assert record.changes()["changed"] == []

        client.update_profile()  # no attributes: the record as it is
        client.update_profile('{"familyName": "From JSON text"}')
        assert emu.user(user["uuid"])["user"]["familyName"] == "From JSON text"

        client.update_profile({"aboutMe": None, "birthday": None})  # None clears the field
        stored = emu.user(user["uuid"])["user"]
        assert stored["aboutMe"] is None and stored["birthday"] is None and stored["displayName"] == "New Name"
        assert record["/aboutMe"] is None and record.changes()["changed"] == []


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_update_profile_validation(make_config, emu, locale: str) -> None:
    client, user = signed_in(make_config, emu, captureLocale=locale)
    with client:
        with pytest.raises(jump.ValidationFailed) as info:
            client.update_profile({"displayName": TOO_LONG, "birthday": "2999-01-01"})
        assert info.value.server["code"] == 390
        fields = info.value.invalid_fields
        assert fields["displayName"] and fields["birthdate"]
        # Refused values are not left behind as edits a later sync would send past the form's rules.
        with client.record as record:
            assert record["/displayName"] == "Old Name"
            assert record.changes()["changed"] == []
        assert emu.user(user["uuid"])["user"]["displayName"] == "Old Name"


def test_update_profile_messages_differ_by_locale(make_config, emu) -> None:
    messages = {}
    for locale in ("en-US", "fr-FR"):
        client, _ = signed_in(make_config, emu, captureLocale=locale)
        with client, pytest.raises(jump.ValidationFailed) as info:
            client.update_profile({"displayName": TOO_LONG, "birthday": "2999-01-01"})
        messages[locale] = info.value.invalid_fields
    assert messages["en-US"]["displayName"] != messages["fr-FR"]["displayName"]
    assert messages["en-US"]["birthdate"] != messages["fr-FR"]["birthdate"]


def test_update_profile_refuses_bad_arguments(make_config, emu) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        with pytest.raises(jump.NotSignedIn):
            client.update_profile({"displayName": "x"})
    client, _ = signed_in(make_config, emu)
    with client:
        with pytest.raises(jump.InvalidArgument) as info:
            client.update_profile({"noSuchAttribute": 1})
        assert "noSuchAttribute" in info.value.message
        with pytest.raises(jump.InvalidArgument):
            client.update_profile("[1, 2]")
        with pytest.raises(jump.InvalidArgument) as info:
            client.update_profile(b'{"displayName": "\xff"}')
        assert info.value.argument == "attributes_json"
        assert emu.counters().get("POST /oauth/update_profile_native", 0) == 0


# -- change password ---------------------------------------------------------------------------------------


def test_change_password_right_and_wrong_current(make_config, emu) -> None:
    client, user = signed_in(make_config, emu)
    with client:
        with pytest.raises(jump.ValidationFailed) as info:
            client.change_password("not the password", NEW_PASSWORD)
        assert info.value.invalid_fields["currentPassword"]
        assert "not the password" not in json.dumps(info.value.detail)
        assert can_sign_in(make_config, user["email"], PASSWORD)

        client.change_password(PASSWORD, NEW_PASSWORD)
    assert can_sign_in(make_config, user["email"], NEW_PASSWORD)
    assert not can_sign_in(make_config, user["email"], PASSWORD)


def test_change_password_refuses_bad_arguments(make_config, emu) -> None:
    client, _ = signed_in(make_config, emu)
    with client:
        for current, new, argument in [
            (None, NEW_PASSWORD, "current_password"),
            (PASSWORD, None, "new_password"),
            ("", NEW_PASSWORD, "current_password"),
            (PASSWORD, "", "new_password"),
            (b"\xc3\x28", NEW_PASSWORD, "current_password"),
        ]:
            with pytest.raises(jump.InvalidArgument) as info:
                client.change_password(current, new)
            assert info.value.argument == argument
        assert emu.counters().get("POST /oauth/update_profile_native", 0) == 0


# -- forgot password ---------------------------------------------------------------------------------------


def test_forgot_password_unknown_email(make_config, emu) -> None:
    email = unique_email("nobody")
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        with pytest.raises(jump.ValidationFailed) as info:
            client.forgot_password(email)
        with pytest.raises(jump.InvalidArgument) as bad:
            client.forgot_password("")
    assert info.value.server["code"] == 212
    assert info.value.invalid_fields["forgotPasswordForm"]
    assert bad.value.argument == "email"
    assert emails(emu, email) == []


def test_forgot_password_full_reset_loop(make_config, emu) -> None:
    user = new_user(emu)
    with jump.Client(make_config(storageDirectory=":memory:")) as client:  # nobody signed in
        client.forgot_password(user["email"])
        flow_version = client.state["flow_version"]
    [mail] = emails(emu, user["email"])
    assert mail["kind"] != "verification" and mail["locale"] == "en-US"
    assert mail["code"] and mail["code"] in mail["link"]

    # The app's backend: the code for an access token, then the no-auth change-password form.
    token = http(emu, "/oauth/token", {
        "grant_type": "authorization_code", "code": mail["code"], "redirect_uri": emu.url,
        "client_id": "jump-default-client", "client_secret": "jump-default-secret",
    })
    assert token.get("access_token"), token
    answer = http(emu, "/oauth/update_profile_native", {
        "form": "changePasswordFormNoAuth", "newPassword": NEW_PASSWORD, "newPasswordConfirm": NEW_PASSWORD,
        "access_token": token["access_token"], "client_id": "jump-default-client", "flow": "standard",
        "flow_version": flow_version, "locale": "en-US",
    })
    assert answer.get("stat") == "ok", answer

    assert can_sign_in(make_config, user["email"], NEW_PASSWORD)
    assert not can_sign_in(make_config, user["email"], PASSWORD)


# -- resend verification -----------------------------------------------------------------------------------


def test_resend_verification_email_link_verifies(make_config, emu) -> None:
    user = new_user(emu)
    assert emu.user(user["uuid"])["user"].get("emailVerified") is None
    with jump.Client(make_config(storageDirectory=":memory:", captureLocale="fr-FR")) as client:
        client.resend_verification_email(user["email"])
    [mail] = emails(emu, user["email"], "verification")
    assert mail["locale"] == "fr-FR" and mail["link"]
    http(emu, mail["link"])
    assert emu.user(user["uuid"])["user"]["emailVerified"]


# -- asynchronous variants ---------------------------------------------------------------------------------


def test_async_variants(make_config, emu) -> None:
    client, user = signed_in(make_config, emu)
    with client:
        request = client.update_profile_async({"displayName": "Async Name"})
        assert request.wait(30) == {}
        assert request.operation == "update_profile"
        assert emu.user(user["uuid"])["user"]["displayName"] == "Async Name"

        with pytest.raises(jump.ValidationFailed) as info:
            client.change_password_async("wrong password 1", NEW_PASSWORD).wait(30)
        assert info.value.invalid_fields["currentPassword"]
        assert client.change_password_async(PASSWORD, NEW_PASSWORD).wait(30) == {}

        got: List[Any] = []
        client.forgot_password_async(user["email"], lambda result, error: got.append((result, error))).wait(30)
        assert got == [({}, None)]
        assert client.resend_verification_email_async(user["email"]).wait(30) == {}
        assert len(emails(emu, user["email"])) == 2

        with pytest.raises(jump.InvalidArgument):
            client.update_profile_async("not json").wait(30)
