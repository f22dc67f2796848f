"""The dashboard's actions (and the admin calls they stand for) refuse posts that another web site's page made:
the headers a browser sends with such a post, over plain HTTP. test_dashboard_browser.py has a real browser
do it too."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import pytest

from emulator_helpers import http_call, unique_email

# What a browser sends with a form another site's page posts (a page on another port of 127.0.0.1 is the
# same site, not the same origin: refused as well).
ATTEMPTS = [
    {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
    {"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:1"},
    {"Origin": "https://evil.example"},
    {"Origin": "null"},
]


def actions(emu: Any, uuid: str) -> List[Tuple[str, str, Dict[str, str]]]:
    """(method, path, form) of every dashboard action, and of the admin calls new with them."""
    return [
        ("POST", "/emulator/ui/clock", {"amount": "1", "unit": "days"}),
        ("POST", "/emulator/ui/faults", {"kind": "http_500"}),
        ("POST", "/emulator/ui/faults/clear", {}),
        ("POST", "/emulator/ui/counters/clear", {}),
        ("POST", "/emulator/ui/users", {"client_id": "jump-default-client", "email": unique_email("evil"),
                                        "password": "pw"}),
        ("POST", f"/emulator/ui/users/{uuid}", {"record": '{"givenName": "Evil"}', "mode": "merge"}),
        ("POST", f"/emulator/ui/users/{uuid}/delete", {"confirm": "yes"}),
        ("POST", "/emulator/ui/reset", {"confirm": "yes"}),
        ("POST", "/emulator/ui/export", {}),
        ("POST", "/emulator/export", {}),
        ("PATCH", f"/emulator/users/{uuid}", {}),
        ("POST", "/emulator/reset", {}),
    ]


@pytest.mark.parametrize("headers", ATTEMPTS, ids=["cross-site", "same-site", "foreign-origin", "null-origin"])
def test_cross_site_posts_to_every_action_are_refused(emu, headers: Dict[str, str]) -> None:
    user = emu.admin("POST", "/emulator/users", {
        "email": unique_email("target"), "password": "pw", "record": {"givenName": "Kept"}})["user"]
    emu.fault("delay", "/nowhere", delay_ms=1)
    emu.admin("POST", "/emulator/clock", {"advance_seconds": 60})
    before = (emu.users(), emu.admin("GET", "/emulator/faults"), emu.admin("GET", "/emulator/clock")["offset_seconds"])
    for method, path, form in actions(emu, user["uuid"]):
        answer = http_call(emu.url + path, form, method=method, headers=headers)
        assert answer.status == 403, (method, path, answer.status, answer.text[:300])
        assert answer.json()["error"] == "cross_site_request", (method, path)
        assert "Content-Disposition" not in answer.headers, (method, path)
    after = (emu.users(), emu.admin("GET", "/emulator/faults"), emu.admin("GET", "/emulator/clock")["offset_seconds"])
    assert after == before


def test_the_same_posts_from_the_dashboard_itself_act(emu) -> None:
    """The control: a form of the dashboard's own pages (same origin) is let through."""
    user = emu.admin("POST", "/emulator/users", {"email": unique_email("own"), "password": "pw"})["user"]
    host = emu.url.split("://", 1)[1]
    own = {"Sec-Fetch-Site": "same-origin", "Origin": f"http://{host}"}
    answer = http_call(f"{emu.url}/emulator/ui/users/{user['uuid']}/delete", {"confirm": "yes"}, headers=own)
    assert answer.status == 303 and answer.location == "/emulator/ui/users"
    assert emu.users() == []
