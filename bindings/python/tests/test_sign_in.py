"""Sign-in by email and by user name, wrong password, code_and_token."""

from __future__ import annotations

import pytest

import jump

from conftest import PASSWORD


def test_sign_in_by_email(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        assert not c.is_signed_in
        result = c.sign_in(registered["email"], PASSWORD)
        assert result["is_new"] is False
        assert result["uuid"] == registered["uuid"]
        assert result["authorization_code"] is None
        assert c.is_signed_in
        assert c.record["/email"] == registered["email"]
        token = c.access_token()
        assert isinstance(token, str) and token
        assert c.state["access_token_expires_at"] is not None


def test_sign_in_by_username(make_config, registered) -> None:
    config = make_config(
        storageDirectory=":memory:",
        captureTraditionalSignInFormName="signInUsernameForm",
    )
    with jump.Client(config) as c:
        result = c.sign_in(registered["username"], PASSWORD)
        assert result["uuid"] == registered["uuid"]
        assert c.record["/username"] == registered["username"]


def test_wrong_password(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        with pytest.raises(jump.BadCredentials) as info:
            c.sign_in(registered["email"], "wrong password!")
        assert not c.is_signed_in
        err = info.value
        assert err.status == -7 and err.message
        assert "wrong password!" not in str(err.detail)  # secrets never appear in errors
        with pytest.raises(jump.BadCredentials):
            c.sign_in("nobody-at-all@example.com", PASSWORD)


def test_not_signed_in(client: jump.Client) -> None:
    with pytest.raises(jump.NotSignedIn):
        client.record
    with pytest.raises(jump.NotSignedIn):
        client.access_token()
    with pytest.raises(jump.NotSignedIn):
        client.fetch_record()


def test_code_and_token(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:", captureResponseType="code_and_token")) as c:
        result = c.sign_in(registered["email"], PASSWORD)
    assert isinstance(result["authorization_code"], str) and result["authorization_code"]


def test_record_view_dies_with_the_session(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        c.sign_in(registered["email"], PASSWORD)
        view = c.record
        assert view["/email"] == registered["email"]
        c.sign_out()
        with pytest.raises(jump.NotSignedIn):
            view.get("/email")
        view.close()
