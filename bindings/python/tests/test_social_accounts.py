"""Social accounts against the emulator: sign-in with native provider tokens, merge (social and traditional)
and linking and unlinking identities."""

from __future__ import annotations

import json
from typing import Dict

import pytest

import jump

from conftest import PASSWORD, unique_email
from social_helpers import server_identifiers, provider_token


# ---------------------------------------------------------------------------------------------------------
# Native provider tokens
# ---------------------------------------------------------------------------------------------------------


def test_native_token_sign_in(emu, social_config) -> None:
    email = unique_email("native")
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        result = c.social_sign_in_native("facebook", provider_token(email))
        assert result["outcome"] == "registered" and result["is_new"] is True and result["provider"] == "facebook"
        [identifier] = server_identifiers(emu, result["uuid"])
        assert identifier.startswith("https://facebook.example/")
        assert emu.user(result["uuid"])["user"]["email"] == email
        [linked] = c.linked_profiles()
        assert linked["identifier"] == identifier and linked["provider"] == "facebook" and linked["email"] == email
        c.sign_out()
        again = c.social_sign_in_native_async("facebook", json.dumps({"identifier": identifier})).wait(30)
        assert again["outcome"] == "signed_in" and again["uuid"] == result["uuid"] and again["is_new"] is False


def test_native_twitter_needs_its_token_secret(emu, social_config) -> None:
    email = unique_email("tw")
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        with pytest.raises(jump.InvalidArgument) as info:
            c.social_sign_in_native("twitter", provider_token(email))
        assert info.value.argument == "token_secret" and "token_secret" in info.value.message
        assert not c.is_signed_in and not [u for u in emu.users() if u["email"] == email]
        result = c.social_sign_in_native("twitter", provider_token(email), token_secret="oauth1-secret")
        assert result["outcome"] == "registered" and emu.user(result["uuid"])["user"]["email"] == email


def test_native_token_refused(emu, social_config) -> None:
    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        emu.clear_counters()
        with pytest.raises(jump.InvalidArgument) as unknown:
            c.social_sign_in_native("myspace", provider_token(unique_email()))
        assert unknown.value.argument == "provider"
        assert "POST /signin/oauth_token" not in emu.counters()  # refused before any request
        with pytest.raises(jump.InvalidArgument) as bad:
            c.social_sign_in_native("google", "not a token the provider knows")
        assert bad.value.argument == "token" and not c.is_signed_in


# ---------------------------------------------------------------------------------------------------------
# Merge
# ---------------------------------------------------------------------------------------------------------


def test_merge_through_social(emu, social_config) -> None:
    email = unique_email("merge")
    stage = emu.admin("POST", "/emulator/merge_conflict",
                      {"email": email, "existing_provider": "google", "provider": "facebook"})
    uuid = stage["user"]["uuid"]
    existing, conflicting = stage["existing_identity"], stage["conflicting_identity"]
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        with pytest.raises(jump.MergeRequired) as info:
            c.social_sign_in_native("facebook", conflicting["token"])
        err = info.value
        assert err.existing_provider == "google" and err.conflicting_provider == "facebook" and err.merge_token
        assert not c.is_signed_in
        assert server_identifiers(emu, uuid) == [existing["identifier"]]

        result = c.social_sign_in_native("google", existing["token"], merge_token=err.merge_token)
        assert result["outcome"] == "signed_in" and result["merged"] is True and result["uuid"] == uuid
        both = {existing["identifier"], conflicting["identifier"]}
        assert {p["identifier"] for p in c.linked_profiles()} == both
        assert set(server_identifiers(emu, uuid)) == both
        # the facebook identity now signs in to that account
        c.sign_out()
        again = c.social_sign_in_native("facebook", conflicting["token"])
        assert again["outcome"] == "signed_in" and again["uuid"] == uuid


def test_merge_through_traditional_sign_in(emu, social_config) -> None:
    email = unique_email("merge-pw")
    stage = emu.admin("POST", "/emulator/merge_conflict",
                      {"email": email, "existing_provider": "capture", "provider": "facebook", "password": PASSWORD})
    uuid = stage["user"]["uuid"]
    conflicting = stage["conflicting_identity"]
    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        with pytest.raises(jump.MergeRequired) as info:
            c.social_sign_in_native("facebook", conflicting["token"])
        err = info.value
        assert err.existing_provider == "capture" and err.conflicting_provider == "facebook" and err.merge_token
        assert server_identifiers(emu, uuid) == []

        with pytest.raises(jump.BadCredentials):
            c.sign_in_merge(email, "not the password", err.merge_token)
        assert not c.is_signed_in and server_identifiers(emu, uuid) == []

        result = c.sign_in_merge_async(email, PASSWORD, err.merge_token).wait(30)
        assert result["merged"] is True and result["uuid"] == uuid and result["is_new"] is False
        assert [p["identifier"] for p in c.linked_profiles()] == [conflicting["identifier"]]
        assert server_identifiers(emu, uuid) == [conflicting["identifier"]]
        # the password account now has both ways in
        c.sign_out()
        assert c.social_sign_in_native("facebook", conflicting["token"])["uuid"] == uuid
        c.sign_out()
        assert c.sign_in(email, PASSWORD)["uuid"] == uuid


# ---------------------------------------------------------------------------------------------------------
# Linking and unlinking
# ---------------------------------------------------------------------------------------------------------


def new_password_user(emu) -> Dict[str, str]:
    email = unique_email("link")
    user = emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})["user"]
    return {"email": email, "uuid": user["uuid"]}


def test_link_and_unlink(emu, idp, social_config) -> None:
    owner = new_password_user(emu)
    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        with pytest.raises(jump.NotSignedIn):
            c.social_sign_in_native("google", provider_token(unique_email()), link=True)
        with pytest.raises(jump.NotSignedIn):
            c.social_begin("facebook", link=True)
        c.sign_in(owner["email"], PASSWORD)
        assert c.linked_profiles() == []

        google = c.social_sign_in_native("google", provider_token(unique_email("g")), link=True)
        assert google["outcome"] == "linked" and google["uuid"] == owner["uuid"] and google["provider"] == "google"
        assert [p["identifier"] for p in c.linked_profiles()] == [google["identifier"]]
        assert server_identifiers(emu, owner["uuid"]) == [google["identifier"]]

        begun = c.social_begin("facebook", link=True)  # the browser flow links too
        facebook = c.social_complete(idp.finish(begun["url"], name="Fa Ce", email=unique_email("f")))
        assert facebook["outcome"] == "linked" and facebook["uuid"] == owner["uuid"]
        assert [p["identifier"] for p in c.linked_profiles()] == [google["identifier"], facebook["identifier"]]
        assert c.state["uuid"] == owner["uuid"]  # still the same user

        c.unlink_account(google["identifier"])
        assert [p["identifier"] for p in c.linked_profiles()] == [facebook["identifier"]]
        assert server_identifiers(emu, owner["uuid"]) == [facebook["identifier"]]
        # a password account may drop its last identity
        assert c.unlink_account_async(facebook["identifier"]).wait(30) == {}
        assert c.linked_profiles() == [] and server_identifiers(emu, owner["uuid"]) == []
        with pytest.raises(jump.NotFound):
            c.unlink_account(facebook["identifier"])
        # an unlinked identity no longer signs in to the account
        c.sign_out()
        with pytest.raises(jump.RegistrationRequired):
            c.social_sign_in_native("google", json.dumps({"identifier": google["identifier"]}))


def test_link_an_identity_of_another_account(emu, social_config) -> None:
    token = provider_token(unique_email("taken"))
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        taken = c.social_sign_in_native("facebook", token)
        [identifier] = server_identifiers(emu, taken["uuid"])
        c.sign_out()
        owner = new_password_user(emu)
        c.sign_in(owner["email"], PASSWORD)
        with pytest.raises(jump.JumpError) as info:
            c.social_sign_in_native("facebook", json.dumps({"identifier": identifier}), link=True)
        assert info.value.server is None or info.value.server.get("code") == 361
        assert c.linked_profiles() == [] and server_identifiers(emu, owner["uuid"]) == []
        assert server_identifiers(emu, taken["uuid"]) == [identifier]


def test_last_identity_of_a_social_account_is_kept(emu, social_config) -> None:
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        result = c.social_sign_in_native("facebook", provider_token(unique_email("only")))
        uuid = result["uuid"]
        assert emu.user(uuid)["user"]["password"] is None
        [facebook] = c.linked_profiles()
        emu.clear_counters()
        with pytest.raises(jump.InvalidArgument) as info:
            c.unlink_account(facebook["identifier"])
        assert info.value.reason == "last_identity" and info.value.argument == "identifier"
        assert "POST /oauth/unlink_account_native" not in emu.counters()
        assert server_identifiers(emu, uuid) == [facebook["identifier"]]

        google = c.social_sign_in_native("google", provider_token(unique_email("second")), link=True)
        assert len(c.linked_profiles()) == 2
        c.unlink_account(facebook["identifier"])  # another identity remains: allowed
        assert [p["identifier"] for p in c.linked_profiles()] == [google["identifier"]]
        assert server_identifiers(emu, uuid) == [google["identifier"]]
        emu.clear_counters()
        with pytest.raises(jump.InvalidArgument) as again:
            c.unlink_account(google["identifier"])
        assert again.value.reason == "last_identity"
        assert "POST /oauth/unlink_account_native" not in emu.counters()
