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
