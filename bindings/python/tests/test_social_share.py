"""Sharing after a browser sign-in (the device token kept with the session): activities and statuses reach
the emulator's Engage, each error class of Engage's answers, a provider never signed in, and the email/SMS
content with shortened URLs."""

from __future__ import annotations

import urllib.parse
from typing import Any, Dict, List

import pytest

import jump

from conftest import http_call, unique_email

ARTICLE = "https://example.com/articles/42?ref=libjump"


def activities(emu) -> List[Dict[str, Any]]:
    return emu.admin("GET", "/emulator/engage/activities")["activities"]


def sign_in(c: jump.Client, idp, provider: str, email: str, link: bool = False) -> Dict[str, Any]:
    begun = c.social_begin(provider, link=link)
    result = c.social_complete(idp.finish(begun["url"], name=f"Sha Rer {provider}", email=email))
    assert result["outcome"] == ("linked" if link else "registered")
    return idp.identity_by_email(provider, email)


@pytest.fixture
def sharer(emu, idp, social_config):
    """A client signed in through the browser with facebook, then linked with twitter and linkedin."""
    email = unique_email("share")
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        identities = {"facebook": sign_in(c, idp, "facebook", email)}
        for provider in ("twitter", "linkedin"):
            identities[provider] = sign_in(c, idp, provider, email, link=True)
        emu.admin("DELETE", "/emulator/engage/activities")
        yield c, identities


def test_share_activity_and_status(emu, sharer) -> None:
    c, identities = sharer
    activity = {"action": "read an article", "url": ARTICLE, "title": "Answer", "description": "The answer is 42",
                "user_generated_content": "Worth a read"}
    result = c.share(activity, ("facebook",))  # any sequence of names
    assert result["results"]["facebook"]["ok"] is True and result["results"]["facebook"]["method"] == "activity"
    [stored] = activities(emu)
    assert stored["provider"] == "facebook" and stored["kind"] == "activity"
    assert stored["identifier"] == identities["facebook"]["identifier"]
    assert stored["activity"]["action"] == "read an article" and stored["activity"]["url"] == ARTICLE
    assert stored["activity"]["title"] == "Answer"

    # twitter uses set_status when there is no URL
    status = c.share({"action": "is trying libjump", "user_generated_content": "Hello from libjump"}, ["twitter"])
    assert status["results"]["twitter"]["ok"] is True and status["results"]["twitter"]["method"] == "set_status"
    latest = activities(emu)[-1]
    assert latest["provider"] == "twitter" and latest["kind"] == "status"
    assert latest["identifier"] == identities["twitter"]["identifier"]
    assert "Hello from libjump" in latest["status"]

    # several providers at once, asynchronously
    both = c.share_async({"action": "shares", "url": ARTICLE}, ["facebook", "linkedin"]).wait(30)
    assert {p: r["ok"] for p, r in both["results"].items()} == {"facebook": True, "linkedin": True}
    assert [(a["provider"], a["kind"]) for a in activities(emu)[-2:]] in (
        [("facebook", "activity"), ("linkedin", "activity")], [("linkedin", "activity"), ("facebook", "activity")])


ERRORS = [
    ("facebook", 4, "Error validating access token: Session has expired", "reauthenticate"),
    ("facebook", 4, "Feed action request limit reached", "rate_limit"),
    ("twitter", 6, "Twitter duplicate status: Status is a duplicate.", "duplicate"),
    ("linkedin", 100, "Status update exceeds the character limit", "character_limit"),
    ("facebook", 1, "Invalid parameter: activity", "invalid_parameter"),
    ("facebook", 0, "Missing parameter: apiKey", "reauthenticate"),
]


@pytest.mark.parametrize("provider,code,message,error_class", ERRORS, ids=[e[3] + f"-{e[1]}" for e in ERRORS])
def test_share_error_classes(emu, sharer, provider, code, message, error_class) -> None:
    c, _ = sharer
    emu.admin("POST", "/emulator/engage/share_errors", {"provider": provider, "code": code, "msg": message, "count": 1})
    activity = {"action": "tries", "url": ARTICLE}
    with pytest.raises(jump.ServerError) as info:
        c.share(activity, [provider])
    failed = info.value.results[provider]
    assert failed["ok"] is False and failed["error_class"] == error_class
    assert failed["code"] == code and failed["message"] == message
    assert activities(emu) == []  # nothing was shared
    # the failure was Engage's answer, not the client's: the next share goes through
    assert c.share(activity, [provider])["results"][provider]["ok"] is True
    assert [a["provider"] for a in activities(emu)] == [provider]


def test_share_to_a_provider_never_signed_in(emu, idp, social_config) -> None:
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        identity = sign_in(c, idp, "facebook", unique_email("one"))
        emu.admin("DELETE", "/emulator/engage/activities")
        emu.clear_counters()
        with pytest.raises(jump.ServerError) as info:
            c.share({"action": "tries", "url": ARTICLE}, ["facebook", "linkedin"])
        results = info.value.results
        assert results["facebook"]["ok"] is True
        assert results["linkedin"]["ok"] is False and results["linkedin"]["error_class"] == "not_signed_in"
        assert [(a["provider"], a["identifier"]) for a in activities(emu)] == [("facebook", identity["identifier"])]
        assert emu.counters().get("POST /api/v2/activity") == 1  # linkedin was never asked


def test_native_sign_in_cannot_share(emu, social_config) -> None:
    import json

    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        c.social_sign_in_native("facebook", json.dumps({"email": unique_email("nat"), "display_name": "Na Tive"}))
        with pytest.raises(jump.ServerError) as info:
            c.share({"action": "tries", "url": ARTICLE}, ["facebook"])
        assert info.value.results["facebook"]["error_class"] == "not_signed_in"
        assert activities(emu) == []


def test_share_content_shortens_urls(emu, sharer) -> None:
    c, _ = sharer
    sms_link = "https://example.com/s/very/long/path/for/sms"
    activity = {
        "action": "read an article", "url": ARTICLE, "title": "The answer", "description": "It is 42",
        "email": {"subject": "Look at this", "message_body": f"Read {ARTICLE}", "urls": [ARTICLE]},
        "sms": {"message": "See this", "urls": [sms_link]},
    }
    content = c.share_content(activity)
    # the email and SMS shares are recorded with Engage
    assert {a["kind"] for a in activities(emu)} == {"email", "sms"}
    assert content["email"]["subject"] == "Look at this"
    assert content["sms"]["message"].startswith("See this")
    for long, short in [(ARTICLE, content["email"]["urls"][ARTICLE]), (sms_link, content["sms"]["urls"][sms_link])]:
        assert short != long and short.startswith(emu.url + "/s/")
        answer = http_call(short)
        assert answer.status == 302 and answer.location == long
    # defaults from title, description and url
    plain = c.share_content({"action": "reads", "url": ARTICLE, "title": "T", "description": "D"})
    assert plain["email"]["subject"] and plain["email"]["body"]
    short = plain["email"]["urls"][ARTICLE]
    assert http_call(short).location == ARTICLE
    assert short in plain["email"]["body"] or ARTICLE in plain["email"]["body"]
    assert urllib.parse.urlsplit(short).netloc == urllib.parse.urlsplit(emu.url).netloc


def test_sharing_tokens_of_one_user_are_never_used_for_another(emu, idp, social_config, tmp_path) -> None:
    """A signs in through the browser (a sharing token is kept); B then signs in on the same client without a
    sign-out, in this run and after a restart: B's shares never go out as A's identity."""
    config = social_config(captureEnableThinRegistration=True, storageDirectory=str(tmp_path))
    with jump.Client(config) as c:
        sign_in(c, idp, "facebook", unique_email("ann"))
        b_email = unique_email("bob")
        c.register_traditional({"email": b_email, "displayName": "Bob B", "givenName": "Bob", "familyName": "B",
                                "username": "bob" + b_email.split("@")[0][-8:]}, "correct horse 1")
        emu.admin("DELETE", "/emulator/engage/activities")
        with pytest.raises(jump.ServerError) as info:
            c.share({"action": "tries", "url": ARTICLE}, ["facebook"])
        assert info.value.results["facebook"]["error_class"] == "not_signed_in"
    with jump.Client(config) as again:
        assert again.is_signed_in
        with pytest.raises(jump.ServerError) as info:
            again.share({"action": "tries", "url": ARTICLE}, ["facebook"])
        assert info.value.results["facebook"]["error_class"] == "not_signed_in"
    assert activities(emu) == []
