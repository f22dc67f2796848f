"""Social sign-in (Engage + Capture) against the emulator's Engage app: the providers (custom ones included) and
the cached Engage configuration. The browser flow: test_social_flow.py; native tokens, merge and linking:
test_social_accounts.py."""

from __future__ import annotations

import urllib.parse
from typing import Any, Dict

import pytest

import jump

from conftest import ENGAGE_API_KEY, ENGAGE_APP_ID, closed_port_url, http_call, unique_email
from social_helpers import query, server_identifiers


CUSTOM_PROVIDERS = {
    "myopenid": {"friendly_name": "My OpenID", "openid_identifier": "https://%@.openid.example/", "opx_blob": "blob-7"},
    "corp": {"friendly_name": "Corp SSO", "saml_provider": "corp-saml"},
}
CONFIG_PATH = "GET /openid/mobile_config_and_baseurl"


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
