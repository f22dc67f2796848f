"""Every write is applied once and its outcome is known, through the Python binding. A relay in front of the
emulator applies a write that arrives on a kept-alive connection and leaves it unanswered (the connection
closes), as an idle timeout or a recycling load balancer does. libcurl would send it again unseen; libjump
must not, and the caller hears the truth."""

from __future__ import annotations

from typing import Iterator

import pytest

import jump

from conftest import PASSWORD
from emulator_helpers import unique_email
from network_fronts import DroppingRelay


@pytest.fixture
def relay(emu) -> Iterator[DroppingRelay]:
    front = DroppingRelay(emu.url)
    yield front
    front.close()


@pytest.fixture
def relayed(make_config, relay) -> Iterator[jump.Client]:
    with jump.Client(make_config(captureDomain=relay.url)) as client:
        yield client


def test_a_registration_whose_answer_was_lost_reports_the_new_account(relayed, relay, emu) -> None:
    email = unique_email("lostreg")
    with pytest.raises(jump.BadCredentials):
        relayed.sign_in(email, PASSWORD)  # opens the connection the registration then goes on
    relay.arm("/oauth/register_native_traditional")
    result = relayed.register_traditional({"email": email, "givenName": "Once"}, PASSWORD)
    assert relay.dropped == 1
    assert relay.counts["/oauth/register_native_traditional"] == 1
    assert result["is_new"] is True and result["uuid"]
    assert [u["email"] for u in emu.users()].count(email) == 1
    assert relayed.is_signed_in


def test_an_append_whose_answer_was_lost_is_stored_once(relayed, relay, emu) -> None:
    email = unique_email("lostappend")
    user = emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})["user"]
    relayed.sign_in(email, PASSWORD)
    relayed.record.append("/photos", {"value": "once.png"})
    relay.arm("/entity.update")
    result = relayed.sync()
    assert relay.dropped == 1 and relay.counts["/entity.update"] == 1
    assert result["requests"] == 1
    photos = emu.user(user["uuid"])["user"]["photos"]
    assert [p["value"] for p in photos] == ["once.png"]
    assert relayed.record.elements("/photos") == [f"/photos#{photos[0]['id']}"]


def test_a_host_post_whose_answer_was_lost_is_an_unknown_outcome(relayed, relay, emu) -> None:
    email = unique_email("losthost")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    relayed.sign_in(email, PASSWORD)
    relay.arm("/entity")
    with pytest.raises(jump.NetworkError) as caught:
        relayed.request("POST", "/entity", {"Content-Type": "application/x-www-form-urlencoded"}, b"attribute_name=aboutMe")
    assert caught.value.outcome_unknown and caught.value.reason == "outcome_unknown"
    assert relay.counts["/entity"] == 1


def test_a_share_whose_answer_was_lost_is_an_unknown_outcome(social_config, relay, emu, idp) -> None:
    """A share cannot be settled (Engage has no way to ask whether an activity went out): it is sent once and
    reported as an unknown outcome, with the provider named, rather than as Engage refusing it."""
    email = unique_email("lostshare")
    with jump.Client(social_config(captureEnableThinRegistration=True)) as direct:
        begun = direct.social_begin("facebook")
        assert direct.social_complete(idp.finish(begun["url"], name="Lost Share", email=email))["outcome"] == "registered"
    emu.admin("DELETE", "/emulator/engage/activities")
    # The same session (its device token kept with it) with Engage behind the relay.
    with jump.Client(social_config(engageDomain=relay.url)) as client:
        assert client.share({"action": "first", "url": "https://example.com/1"}, ["facebook"])["results"]["facebook"]["ok"]
        relay.arm("/api/v2/activity")
        with pytest.raises(jump.NetworkError) as caught:
            client.share({"action": "second", "url": "https://example.com/2"}, ["facebook"])
    error = caught.value
    assert error.outcome_unknown, error.detail
    assert error.detail["unknown"] == ["facebook"] and error.detail["results"]["facebook"]["reason"] == "outcome_unknown"
    assert relay.dropped == 1 and relay.counts["/api/v2/activity"] == 2
    shared = [a["activity"]["action"] for a in emu.admin("GET", "/emulator/engage/activities")["activities"]]
    assert shared == ["first", "second"], "the share whose answer was lost was applied once, and not sent again"


def test_a_write_that_times_out_after_it_left_is_an_unknown_outcome(make_config, emu) -> None:
    """The server got the write and is slow to answer: JUMP_E_TIMEOUT says the outcome is unknown (it was not
    sent again), while a read that times out says nothing of the kind."""
    email = unique_email("slowwrite")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    with jump.Client(make_config(requestTimeoutMs=1000, maxRetries=0)) as client:
        client.sign_in(email, PASSWORD)
        emu.clear_counters()
        emu.fault("delay", "/entity", delay_ms=2500)
        with pytest.raises(jump.Timeout) as read:
            client.fetch_record()
        assert not read.value.outcome_unknown, read.value.detail
        emu.fault("delay", "/entity", delay_ms=2500)
        with pytest.raises(jump.Timeout) as write:
            client.request("POST", "/entity", {"Content-Type": "application/x-www-form-urlencoded"},
                           b"attribute_name=aboutMe")
        assert write.value.outcome_unknown and write.value.reason == "outcome_unknown", write.value.detail
        assert "not known" in write.value.message
        assert emu.counters().get("POST /entity") == 2, "each request was sent once"
