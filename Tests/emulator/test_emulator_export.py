"""`POST /emulator/export`: the document `--export-on-exit` writes, on demand. Each test runs its own emulator
processes (the flags are per process), so the session's emulator is left alone."""

from __future__ import annotations

import json
import signal
import urllib.request
from pathlib import Path
from typing import Any, Dict, Tuple

from emulator_helpers import http_call, unique_email
from emulator_process import AdminClient, running_emulator


def export(url: str) -> Tuple[bytes, Any]:
    """The raw answer of POST /emulator/export and its headers."""
    request = urllib.request.Request(url + "/emulator/export", data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
        return response.read(), response.headers


def make_state(admin: AdminClient) -> Dict[str, Any]:
    """Something of everything the export holds: an app with a custom schema, users with records, a
    linked social identity, an Engage app and identity, changed settings, a moved clock."""
    admin.admin("POST", "/emulator/apps", {
        "client_id": "export-client", "capture_app_id": "export-app", "client_secret": "export-secret",
        "schema": [{"name": "email", "type": "string", "constraints": ["unique"]},
                   {"name": "favouriteColour", "type": "string"}]})
    first = admin.admin("POST", "/emulator/users", {
        "email": unique_email("exp"), "password": "pw-export",
        "record": {"givenName": "Ex", "profiles": [{"identifier": "https://facebook.example/9", "domain": "facebook.com"}]},
    })["user"]
    second = admin.admin("POST", "/emulator/users", {
        "client_id": "export-client", "email": unique_email("exp2"), "record": {"favouriteColour": "teal"}})["user"]
    admin.admin("POST", "/emulator/engage_apps", {"engage_app_id": "export-engage", "providers": ["google"]})
    admin.admin("POST", "/emulator/identities", {"provider": "google", "display_name": "Gus Export"})
    admin.admin("POST", "/emulator/settings", {"access_token_lifetime": 77, "engage_token_lifetime": 99})
    admin.admin("POST", "/emulator/clock", {"advance_seconds": 3600})
    return {"first": first, "second": second}


def test_the_export_endpoint_answers_what_export_on_exit_writes(tmp_path: Path) -> None:
    on_exit = tmp_path / "on-exit.json"
    with running_emulator("jump-export-", ["--export-on-exit", str(on_exit)]) as (url, process, _):
        admin = AdminClient(url)
        users = make_state(admin)
        body, headers = export(url)
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
    assert headers["Content-Type"].startswith("application/json")
    document = json.loads(body)
    assert document["format"] == "jump-emulator-export" and document["version"] == 1
    assert {user["uuid"] for user in document["users"]} == {users["first"]["uuid"], users["second"]["uuid"]}
    assert document["settings"], "the settings (token lifetimes, clock offset) are part of it"
    assert "export-engage" in [app["engage_app_id"] for app in document["engage_apps"]]
    # The same state gives the same document, to the byte: one function builds it for both.
    assert on_exit.read_bytes() == body
    assert json.loads(on_exit.read_text()) == document


def test_an_exported_document_imports(tmp_path: Path) -> None:
    with running_emulator("jump-export-") as (url, _, _):
        admin = AdminClient(url)
        users = make_state(admin)
        body, _ = export(url)
        before = admin.admin("GET", "/emulator/users")["users"]
    saved = tmp_path / "export.json"
    saved.write_bytes(body)
    with running_emulator("jump-import-", ["--import", str(saved)]) as (url, _, _):
        admin = AdminClient(url)
        assert admin.admin("GET", "/emulator/users")["users"] == before
        assert admin.admin("GET", "/emulator/settings")["access_token_lifetime"] == 77
        assert 3590 <= admin.admin("GET", "/emulator/clock")["offset_seconds"] <= 3610
        # The password hash came along: the user signs in on the new emulator.
        signed_in = http_call(url + "/oauth/auth_native_traditional", {
            "client_id": "jump-default-client", "locale": "en-US", "form": "signInForm",
            "signInEmailAddress": users["first"]["email"], "currentPassword": "pw-export",
            "redirect_uri": "http://localhost/done"})
        assert signed_in.status == 200 and signed_in.json()["stat"] == "ok", signed_in.text


def test_the_export_changes_nothing_and_is_not_counted(emulator: Any) -> None:
    emulator.reset()
    emulator.clear_counters()
    first, _ = export(emulator.url)
    second, _ = export(emulator.url)
    assert first == second
    assert emulator.counters() == {}


def test_the_export_is_refused_cross_site(emulator: Any) -> None:
    answer = http_call(emulator.url + "/emulator/export", method="POST",
                       headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert answer.status == 403 and answer.json()["error"] == "cross_site_request"
