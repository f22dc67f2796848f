"""Social sign-in's browser flow against the emulator's fake identity provider, driven over HTTP: thin and
two-step registration, both completion styles, completion URLs that do not belong, and a cancel."""

from __future__ import annotations

import urllib.parse

import pytest

import jump

from conftest import unique_email
from social_helpers import query, with_query, server_identifiers, browser_sign_in


# ---------------------------------------------------------------------------------------------------------
# The browser flow, driven over HTTP
# ---------------------------------------------------------------------------------------------------------


def test_thin_registration_then_existing_identity(emu, idp, social_config) -> None:
    email = unique_email("fb")
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        begun = c.social_begin("facebook")
        assert begun["completion"] == "device"
        q = query(begun["url"])
        assert urllib.parse.urlsplit(begun["url"]).path == "/facebook/start" and q["state"] == [begun["state"]]
        page = idp.open(begun["url"])
        assert "Facebook" in page.title
        url = idp.finish(begun["url"], name="Ada Facebook", email=email)
        assert urllib.parse.urlsplit(url).path == "/signin/device" and "state" not in query(url)  # as Engage
        users_before = len(emu.users())
        result = c.social_complete(url)
        identity = idp.identity_by_email("facebook", email)
        assert result["outcome"] == "registered" and result["is_new"] is True
        assert result["provider"] == "facebook" and result["merged"] is False
        assert result["identifier"] == identity["identifier"]
        assert c.is_signed_in and c.state["uuid"] == result["uuid"]
        assert len(emu.users()) == users_before + 1
        user = emu.user(result["uuid"])["user"]
        assert user["email"] == email and user["displayName"] == "Ada Facebook"
        assert user["password"] is None  # a social-only account
        assert server_identifiers(emu, result["uuid"]) == [identity["identifier"]]
        assert [p["identifier"] for p in c.record["/profiles"]] == [identity["identifier"]]
        [linked] = c.linked_profiles()
        assert linked["identifier"] == identity["identifier"] and linked["provider"] == "facebook"
        assert linked["email"] == email and linked["display_name"] == "Ada Facebook"
        assert linked["domain"] == "facebook.com" and linked["path"].startswith("/profiles#")
        c.sign_out()

        # the same identity again, picked from the provider's list: the same user signs in
        again = browser_sign_in(c, idp, "facebook", identity=email)
        assert again["outcome"] == "signed_in" and again["is_new"] is False
        assert again["uuid"] == result["uuid"] and c.state["uuid"] == result["uuid"]
        assert len(emu.users()) == users_before + 1


def test_two_step_registration(emu, idp, social_config) -> None:
    email = unique_email("google")
    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        users_before = len(emu.users())
        begun = c.social_begin("google")
        with pytest.raises(jump.RegistrationRequired) as info:
            c.social_complete(idp.finish(begun["url"], name="Grace Hopper", email=email))
        err = info.value
        assert err.social_registration_token and err.provider == "google"
        assert err.prereg_record["email"] == email and err.prereg_record["displayName"] == "Grace Hopper"
        assert err.prereg_fields["emailAddress"] == email
        assert err.social_registration_token not in err.message  # a secret
        assert not c.is_signed_in and len(emu.users()) == users_before

        bad = dict(err.prereg_record, email="not an email address")
        with pytest.raises(jump.ValidationFailed) as invalid:
            c.register_social(err.social_registration_token, bad)
        assert "emailAddress" in invalid.value.invalid_fields
        assert not c.is_signed_in and len(emu.users()) == users_before

        completed = dict(err.prereg_record, givenName="Grace", familyName="Hopper")
        result = c.register_social(err.social_registration_token, completed)
        assert result["is_new"] is True and c.is_signed_in and c.state["uuid"] == result["uuid"]
        user = emu.user(result["uuid"])["user"]
        assert (user["email"], user["givenName"], user["familyName"]) == (email, "Grace", "Hopper")
        identity = idp.identity_by_email("google", email)
        assert server_identifiers(emu, result["uuid"]) == [identity["identifier"]]
        assert [p["identifier"] for p in c.linked_profiles()] == [identity["identifier"]]
        # the registration token is spent
        c.sign_out()
        with pytest.raises(jump.JumpError):
            c.register_social(err.social_registration_token, completed)
        assert len(emu.users()) == users_before + 1


def test_register_social_async(emu, idp, social_config) -> None:
    email = unique_email("async")
    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        begun = c.social_begin("linkedin")
        request = c.social_complete_async(idp.finish(begun["url"], name="Lin Ked", email=email))
        with pytest.raises(jump.RegistrationRequired) as info:
            request.wait(30)
        assert request.payload["operation"] == "social_complete"
        err = info.value
        assert err.social_registration_token and err.prereg_record["email"] == email
        result = c.register_social_async(err.social_registration_token, err.prereg_record).wait(30)
        assert result["is_new"] is True and c.is_signed_in
        assert emu.user(result["uuid"])["user"]["email"] == email


def test_token_completion_style(emu, idp, social_config) -> None:
    whitelisted = "http://127.0.0.1:9/app/signed-in"  # nothing listens there: the app reads the redirect itself
    config = social_config(engageResponseType="token", engageWhitelistedDomain=whitelisted,
                           captureEnableThinRegistration=True, storageDirectory=":memory:")
    email = unique_email("token")
    with jump.Client(config) as c:
        begun = c.social_begin("facebook")
        assert begun["completion"] == "redirect" and begun["completion_prefix"] == whitelisted
        assert query(begun["url"])["token_url"][0].startswith(whitelisted)
        url = idp.finish(begun["url"], name="Tok En", email=email)
        assert url.startswith(whitelisted + "?") and query(url)["token"][0]
        emu.clear_counters()
        result = c.social_complete(url)
        assert result["outcome"] == "registered" and result["provider"] == "facebook"
        assert emu.counters().get("GET /signin/device") == 1  # the token came in the URL; the profile from the mobile endpoint
        identity = idp.identity_by_email("facebook", email)
        assert server_identifiers(emu, result["uuid"]) == [identity["identifier"]]


def test_redirect_uri_option(emu, idp, social_config) -> None:
    redirect = "http://127.0.0.1:9/callback?app=1"
    email = unique_email("redirect")
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        begun = c.social_begin("google", redirect_uri=redirect)
        assert begun["completion"] == "redirect"
        url = idp.finish(begun["url"], name="Re Direct", email=email)
        assert url.startswith(redirect + "&") and query(url)["app"] == ["1"] and query(url)["token"][0]
        result = c.social_complete(url)
        assert result["outcome"] == "registered"
        assert emu.user(result["uuid"])["user"]["email"] == email


def test_token_style_needs_a_whitelisted_domain(social_config) -> None:
    with jump.Client(social_config(engageResponseType="token", storageDirectory=":memory:")) as c:
        with pytest.raises(jump.InvalidArgument) as info:
            c.social_begin("facebook")
        assert info.value.argument == "engageWhitelistedDomain"


def test_completion_urls_that_do_not_belong(emu, idp, social_config) -> None:
    config = social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")
    with jump.Client(config) as c, jump.Client(config) as other:
        begun = c.social_begin("facebook")
        url = idp.finish(begun["url"], name="Bel Ong", email=unique_email("belong"))
        parts = urllib.parse.urlsplit(url)
        emu.clear_counters()
        users_before = len(emu.users())
        wrong = [
            (with_query(url, state="x" * len(begun["state"])), "unknown_state"),
            (urllib.parse.urlunsplit(parts._replace(path="/elsewhere")), "wrong_location"),
            (urllib.parse.urlunsplit(parts._replace(netloc=f"localhost:{parts.port}")), "wrong_location"),
        ]
        for bad, reason in wrong:
            with pytest.raises(jump.InvalidArgument) as info:
                c.social_complete(bad)
            assert info.value.detail.get("reason") == reason, bad
            assert not c.is_signed_in
        with pytest.raises(jump.InvalidArgument) as foreign:
            other.social_complete(url)  # begun by another client
        assert foreign.value.detail.get("reason") == "unknown_state" and not other.is_signed_in
        assert emu.counters() == {}  # none of them reached a server
        assert len(emu.users()) == users_before

        result = c.social_complete(url)  # the sign-in is still pending: the right URL completes it
        assert result["outcome"] == "registered" and c.is_signed_in

        emu.clear_counters()
        with pytest.raises(jump.InvalidArgument) as used:
            c.social_complete(url)  # used
        assert used.value.detail.get("reason") == "unknown_state"
        assert c.state["uuid"] == result["uuid"] and emu.counters() == {}
        assert len(emu.users()) == users_before + 1


def test_device_completion_without_state_completes_the_pending_sign_in(emu, idp, social_config) -> None:
    """Engage's /signin/device ending carries no state: it completes the client's one pending "device"
    sign-in (Engage checks the token). Beginning again replaces it, and a redirect sign-in (state inside
    token_url) is left alone."""
    config = social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")
    with jump.Client(config) as c:
        redirect = c.social_begin("google", redirect_uri="http://127.0.0.1:9/app/done")
        first = c.social_begin("facebook")
        url = idp.finish(first["url"], name="No State", email=unique_email("nostate"))
        assert "state" not in query(url)
        c.social_begin("facebook")  # the user closed the tab and tried again: this one is now pending
        assert c.social_complete(url)["outcome"] == "registered"  # the token came from the first tab
        with pytest.raises(jump.InvalidArgument) as used:
            c.social_complete(url)
        assert used.value.detail.get("reason") == "unknown_state"
        landed = idp.finish(redirect["url"], name="Re Direct", email=unique_email("redirect"))
        assert query(landed)["state"] == [redirect["state"]]  # the client's own token_url carries it back


def test_user_cancels_on_the_provider(emu, idp, social_config) -> None:
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        begun = c.social_begin("twitter")
        url = idp.finish(begun["url"], cancel=True)
        assert url.startswith(begun["completion_prefix"]) and query(url)["error"] == ["canceled"]
        users_before = len(emu.users())
        with pytest.raises(jump.Cancelled) as info:
            c.social_complete(url)
        assert info.value.reason == "user_canceled"
        assert not c.is_signed_in and len(emu.users()) == users_before
