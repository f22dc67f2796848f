"""Social sign-in (Engage + Capture) against the emulator's Engage app and fake identity provider: providers
and the cached configuration, the browser flow driven over HTTP (both completion styles), completion URLs
that do not belong, cancel, native provider tokens, two-step registration, merge (social and traditional),
linking and unlinking."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any, Dict, List

import pytest

import jump

from conftest import (
    ENGAGE_API_KEY,
    ENGAGE_APP_ID,
    PASSWORD,
    closed_port_url,
    http_call,
    unique_email,
)

CUSTOM_PROVIDERS = {
    "myopenid": {"friendly_name": "My OpenID", "openid_identifier": "https://%@.openid.example/", "opx_blob": "blob-7"},
    "corp": {"friendly_name": "Corp SSO", "saml_provider": "corp-saml"},
}
CONFIG_PATH = "GET /openid/mobile_config_and_baseurl"


def query(url: str) -> Dict[str, List[str]]:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)


def with_query(url: str, **changes: str) -> str:
    """url with query parameters replaced (None removes one)."""
    parts = urllib.parse.urlsplit(url)
    pairs = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k not in changes]
    pairs += [(k, v) for k, v in changes.items() if v is not None]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(pairs)))


def server_identifiers(emu, uuid: str) -> List[str]:
    return [p["identifier"] for p in emu.user(uuid)["user"]["profiles"]]


def provider_token(email: str, name: str = "Nat Ive", **extra: Any) -> str:
    """The emulator's stand-in for a provider SDK's access token (the headless path of /signin/oauth_token)."""
    return json.dumps({"email": email, "display_name": name, **extra})


def browser_sign_in(c: jump.Client, idp, provider: str = "facebook", **page: Any) -> Dict[str, Any]:
    begun = c.social_begin(provider)
    url = idp.finish(begun["url"], **page)
    assert url.startswith(begun["completion_prefix"])
    return c.social_complete(url)


# ---------------------------------------------------------------------------------------------------------
# Providers and the Engage configuration
# ---------------------------------------------------------------------------------------------------------


def test_providers_in_server_order_then_custom_ones(emu, social_config) -> None:
    order = ["yahoo", "twitter", "facebook", "openid"]
    emu.admin("POST", "/emulator/engage_apps", {"engage_app_id": "order-app", "api_key": "order-key",
                                                "providers": order, "sharing_providers": ["twitter", "facebook"]})
    served = http_call(f"{emu.url}/openid/mobile_config_and_baseurl?appId=order-app&device=android").json()
    assert served["enabled_providers"] == order  # the emulator serves what the app says
    config = social_config(engageAppId="order-app", engageCustomProviders=CUSTOM_PROVIDERS, storageDirectory=":memory:")
    with jump.Client(config) as c:
        providers = c.providers()
    sign_in = providers["sign_in"]
    # the server's order, then the custom providers (in the order of their ids)
    assert [p["name"] for p in sign_in] == order + ["corp", "myopenid"]
    by_name = {p["name"]: p for p in sign_in}
    for name in order:
        info = served["provider_info"][name]
        assert by_name[name]["friendly_name"] == info["friendly_name"]
        assert by_name[name]["custom"] is None
        assert by_name[name]["requires_input"] is (info["requires_input"] == "YES")
    assert by_name["openid"]["input_prompt"] == served["provider_info"]["openid"]["input_prompt"]
    assert by_name["myopenid"] == {**by_name["myopenid"], "friendly_name": "My OpenID", "custom": "openid",
                                   "requires_input": True}
    assert by_name["corp"] == {**by_name["corp"], "friendly_name": "Corp SSO", "custom": "saml", "requires_input": False}
    assert [p["name"] for p in providers["sharing"]] == served["social_providers"] == ["twitter", "facebook"]
    twitter = next(p for p in providers["sharing"] if p["name"] == "twitter")
    assert twitter["properties"] == served["provider_info"]["twitter"]["social_sharing_properties"]
    assert providers["hide_tagline"] is (served["hide_tagline"] == "YES")


def test_custom_provider_begin_urls(emu, social_config) -> None:
    with jump.Client(social_config(engageCustomProviders=CUSTOM_PROVIDERS, storageDirectory=":memory:")) as c:
        with pytest.raises(jump.ValidationFailed) as info:
            c.social_begin("myopenid")  # needs the user's input
        assert "input" in info.value.invalid_fields
        begun = c.social_begin("myopenid", input="ada")
        parts = urllib.parse.urlsplit(begun["url"])
        q = query(begun["url"])
        assert f"{parts.scheme}://{parts.netloc}" == emu.url and parts.path == "/openid/start"
        assert q["openid_identifier"] == ["https://ada.openid.example/"]  # the input replaces %@
        assert q["opx_blob"] == ["blob-7"]
        assert q["state"] == [begun["state"]] and q["applicationId"] == [ENGAGE_APP_ID]
        assert begun["completion"] == "device" and begun["completion_prefix"] == emu.url + "/signin/device"
        saml = c.social_begin("corp")
        assert urllib.parse.urlsplit(saml["url"]).path == "/saml2/sso/start"
        assert query(saml["url"])["saml_provider"] == ["corp-saml"] and "openid_identifier" not in query(saml["url"])
        assert saml["state"] != begun["state"]
        # the server's openid provider substitutes the input too
        plain = c.social_begin("openid", input="https://me.example/")
        assert query(plain["url"])["openid_identifier"] == ["https://me.example/"]
        with pytest.raises(jump.InvalidArgument) as unknown:
            c.social_begin("myspace")
        assert unknown.value.argument == "provider"


def test_custom_providers_sign_in(emu, idp, social_config) -> None:
    config = social_config(engageCustomProviders=CUSTOM_PROVIDERS, captureEnableThinRegistration=True,
                           storageDirectory=":memory:")
    with jump.Client(config) as c:
        begun = c.social_begin("myopenid", input="ada")
        result = c.social_complete(idp.finish(begun["url"], name="Ada OpenID", email=unique_email("oid")))
        assert result["outcome"] == "registered"
        # the OpenID identifier is the one the user's input made
        assert server_identifiers(emu, result["uuid"]) == ["https://ada.openid.example/"]
        c.sign_out()
        begun = c.social_begin("corp")
        email = unique_email("saml")
        result = c.social_complete(idp.finish(begun["url"], name="Sam L", email=email))
        assert result["outcome"] == "registered"
        [identifier] = server_identifiers(emu, result["uuid"])
        assert identifier.startswith("saml:corp-saml:")
        assert emu.user(result["uuid"])["user"]["email"] == email


def test_bad_openid_input_is_a_validation_error(emu, social_config) -> None:
    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        begun = c.social_begin("openid", input="not a url")
        answer = http_call(begun["url"])  # Engage ends the flow at once: no page to show
        if answer.status == 200:
            pytest.fail(f"the emulator showed a page for a bad OpenID: {answer.text[:300]}")
        location = urllib.parse.urljoin(begun["url"], answer.location or "")
        assert query(location)["error"] == ["Your OpenID must be a URL"]
        with pytest.raises(jump.ValidationFailed) as info:
            c.social_complete(location)
        assert info.value.invalid_fields == {"input": ["Your OpenID must be a URL"]}
        assert not c.is_signed_in


def private_config(private, storage: str, **overrides: Any) -> Dict[str, Any]:
    config = {
        "captureDomain": private.url, "captureClientId": "jump-default-client", "captureAppId": "default-app",
        "captureFlowName": "standard", "captureFlowDomain": private.url, "engageAppId": ENGAGE_APP_ID,
        "engageDomain": private.url, "storageDirectory": storage, "requestTimeoutMs": 5000, "connectTimeoutMs": 2000,
    }
    config.update(overrides)
    return config


def test_engage_config_is_cached_with_its_etag(spawn_emulator, tmp_path) -> None:
    private = spawn_emulator()
    storage = str(tmp_path / "store")
    config = private_config(private, storage)
    with jump.Client(config) as first:
        assert first.load_engage_config() == {"changed": True, "from_cache": False}
        listed = first.providers()
        assert private.counters().get(CONFIG_PATH) == 1  # providers() used the loaded copy
        # refetched with If-None-Match: the server was asked (the counter moves) and kept the copy (304)
        assert first.load_engage_config() == {"changed": False, "from_cache": True}
        assert private.counters().get(CONFIG_PATH) == 2
    # a new client on the same storage starts from the cache and still asks the server once
    with jump.Client(config) as second:
        assert second.load_engage_config() == {"changed": False, "from_cache": True}
        assert second.providers() == listed
    # the app changes on the server: a new ETag, a new document
    private.admin("POST", "/emulator/engage_apps", {"engage_app_id": ENGAGE_APP_ID, "api_key": ENGAGE_API_KEY,
                                                    "providers": ["google", "facebook"]})
    with jump.Client(config) as third:
        assert third.load_engage_config() == {"changed": True, "from_cache": False}
        listed = third.providers()
        assert [p["name"] for p in listed["sign_in"]] == ["google", "facebook"]
    # the server is gone: a client on the same storage still lists the providers (from the cache)
    private.process.terminate()
    private.process.wait(10)
    with jump.Client(config) as offline:
        assert offline.providers() == listed
        assert offline.load_engage_config() == {"changed": False, "from_cache": True}
    # the cache belongs to its server: another (unreachable) server has none, so there is nothing to list
    with jump.Client(private_config(private, storage, engageDomain=closed_port_url())) as elsewhere:
        with pytest.raises(jump.NetworkError):
            elsewhere.providers()
    # without a storage there is no cache either
    with jump.Client(private_config(private, ":memory:")) as memory:
        with pytest.raises(jump.NetworkError):
            memory.load_engage_config()


def test_unknown_engage_app(emu, social_config) -> None:
    with jump.Client(social_config(engageAppId="no-such-engage-app", storageDirectory=":memory:")) as c:
        with pytest.raises(jump.NotFound):
            c.load_engage_config()


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
