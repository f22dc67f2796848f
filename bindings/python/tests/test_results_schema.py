"""The documents the real library returns have the shape include/jump_api.json's "documents" gives them: no key
the schema does not know, every key it does not call optional, each value of its type. The generated TypedDicts
(jump.results) are made from that schema, so this is what keeps them true.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Dict, List

import pytest

import jump
from jump import _results_generated

from conftest import PASSWORD, ROOT, unique_email, wait_for
from sign_in_tokens import mint, new_user

API = json.loads((ROOT / "include" / "jump_api.json").read_text(encoding="utf-8"))
DOCUMENTS: Dict[str, Any] = API["documents"]
SCALARS = {"string": (str,), "bool": (bool,), "int": (int,), "number": (int, float)}
# Documents with keys beyond the schema's, as their descriptions say: the server's answer passes on what the
# server said, and an error detail has the keys of the failing function (jump_api.json's "not_covered").
OPEN = {"server_answer", "error_detail"}


def problems(value: Any, t: str, where: str) -> List[str]:
    """What in value does not fit the type t (a schema type string)."""
    if t == "any":
        return []
    if t.startswith("[") and t.endswith("]"):
        if not isinstance(value, list):
            return ["%s: %r is no array" % (where, value)]
        return [p for i, item in enumerate(value) for p in problems(item, t[1:-1], "%s[%d]" % (where, i))]
    if t.startswith("{") and t.endswith("}"):
        if not isinstance(value, dict):
            return ["%s: %r is no object" % (where, value)]
        return [p for k, item in value.items() for p in problems(item, t[1:-1], "%s[%r]" % (where, k))]
    if t in SCALARS:
        ok = isinstance(value, SCALARS[t]) and (t == "bool" or not isinstance(value, bool))
        return [] if ok else ["%s: %r is no %s" % (where, value, t)]
    if not isinstance(value, dict):
        return ["%s: %r is no %s object" % (where, value, t)]
    keys = DOCUMENTS[t]["keys"]
    found = ["%s: key %r is not in document %s" % (where, k, t) for k in value if k not in keys and t not in OPEN]
    for name, key in keys.items():
        if name not in value:
            if not key.get("optional"):
                found.append("%s: %s's key %r is missing (not optional)" % (where, t, name))
            continue
        item = value[name]
        if item is None:
            if not key.get("nullable") and key["type"] != "any":
                found.append("%s.%s: null, but not nullable" % (where, name))
            continue
        found += problems(item, key["type"], "%s.%s" % (where, name))
        if "values" in key and item not in key["values"]:
            found.append("%s.%s: %r is not among the known values %s" % (where, name, item, key["values"]))
    return found


def result_of(function: str) -> str:
    return next(f["result"] for f in API["functions"] if f["name"] == function)


def test_every_document_has_its_typed_dict() -> None:
    names = {"".join(p.capitalize() for p in d.split("_")) for d in DOCUMENTS}
    assert set(_results_generated.__all__) == names
    for name in ("ClientStatus", "RegistrationResult", "EmptyResult", *names):
        assert name in jump.results.__all__ and hasattr(jump.results, name), name
    assert jump.results.ClientStatus is _results_generated.SignInStatus


def test_the_checker_reports_what_does_not_fit() -> None:
    """problems() itself can fail: an unknown key, a missing key, a wrong type, an unknown value."""
    assert problems({"changed": [], "requests": 1, "renamed": {}, "extra": 1}, "sync_result", "r")
    assert problems({"changed": [], "renamed": {}}, "sync_result", "r")
    assert problems({"changed": [1], "requests": 1, "renamed": {}}, "sync_result", "r")
    assert problems({"changed": [], "requests": True, "renamed": {}}, "sync_result", "r")
    assert problems({"version": 1, "kind": "log", "level": "loud", "message": "m"}, "log_line", "r")
    assert problems({"changed": [], "requests": 1, "renamed": {}}, "sync_result", "r") == []


def test_capture_documents_fit_the_schema(client: jump.Client, registered: Dict[str, Any]) -> None:
    events: List[Dict[str, Any]] = []
    seen = threading.Event()

    def on_event(event: Dict[str, Any]) -> None:
        events.append(event)
        seen.set()

    client.on_event(on_event)
    registration = {k: v for k, v in registered.items() if k not in ("email", "username", "password")}
    found = problems(registration, result_of("jump_client_register_traditional"), "register_traditional")
    client.sign_out()
    found += problems(client.sign_in(registered["email"], PASSWORD), result_of("jump_client_sign_in"), "sign_in")
    found += problems(client.state, result_of("jump_client_state"), "state")
    client.record["/aboutMe"] = "typed by the schema"
    found += problems(client.record.changes(), result_of("jump_record_changes"), "changes")
    found += problems(client.sync(), result_of("jump_client_sync"), "sync")
    found += problems(client.sync_async().wait(30), result_of("jump_client_sync_async"), "sync_async")
    found += problems(client.status, result_of("jump_client_status"), "status")
    assert seen.wait(10), "no event arrived"
    found += [p for e in events for p in problems(e, "event", "event %s" % e.get("event"))]
    client.sign_out()
    with pytest.raises(jump.BadCredentials) as failed:
        client.sign_in(registered["email"], PASSWORD + "x")
    found += problems(failed.value.detail, "error_detail", "error")
    assert found == []


def test_sign_in_token_documents_fit_the_schema(emu, token_config) -> None:
    user = new_user(emu)
    events: List[Dict[str, Any]] = []
    with jump.Client(token_config()) as client:
        client.on_event(events.append)
        token = mint(emu, user)
        found = problems(jump.decode_sign_in_token(token), result_of("jump_sign_in_token_decode"), "decode")
        found += problems(client.sign_in_with_token(token), result_of("jump_client_sign_in_with_token"), "sign_in")
        found += problems(client.status, result_of("jump_client_status"), "status")
        found += problems(client.credentials(), result_of("jump_client_credentials"), "credentials")
        found += problems(client.request("GET", f"/v2/user/{user}/profile"), result_of("jump_client_request"),
                          "request")
        found += problems(client.identify_external_user("app-user", lambda _: {"type": "sign_in_token",
                                                                               "sign_in_token": mint(emu, user)}),
                          result_of("jump_client_identify_external_user"), "identify")
        assert wait_for(lambda: any(e["event"] == "status_changed" for e in events))
        found += [p for e in events for p in problems(e, "event", "event %s" % e.get("event"))]
        with pytest.raises(jump.AlreadySignedIn) as refused:
            client.sign_in_with_token(mint(emu, new_user(emu)))
        found += problems(refused.value.detail, "error_detail", "error")
    assert found == []


def test_social_documents_fit_the_schema(emu, idp, social_config) -> None:
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        found = problems(c.load_engage_config(), result_of("jump_client_load_engage_config"), "engage config")
        found += problems(c.providers(), result_of("jump_client_providers"), "providers")
        begun = c.social_begin("facebook")
        found += problems(begun, result_of("jump_client_social_begin"), "begin")
        outcome = c.social_complete(idp.finish(begun["url"], name="Ada Schema", email=unique_email("schema")))
        found += problems(outcome, result_of("jump_client_social_complete"), "complete")
        found += problems(c.linked_profiles(), result_of("jump_client_linked_profiles"), "linked profiles")
        activity = {"action": "reads", "url": "https://example.com/a", "title": "T", "description": "D"}
        found += problems(c.share(activity, ["facebook"]), result_of("jump_client_share"), "share")
        found += problems(c.share_content(activity), result_of("jump_client_share_content"), "share content")
    assert found == []
