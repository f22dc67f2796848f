"""Bad arguments and stale handles are refused cleanly; errors carry their detail."""

from __future__ import annotations

import json
from ctypes import byref, c_void_p

import pytest

import jump
from jump import _native

from conftest import PASSWORD

INVALID_UTF8 = b"\xff\xfe\xc3("


def test_none_arguments(client: jump.Client, registered) -> None:
    with pytest.raises(jump.InvalidArgument) as info:
        client.sign_in(None, PASSWORD)
    assert info.value.argument
    with pytest.raises(jump.InvalidArgument):
        client.sign_in(registered["email"], None)
    with pytest.raises(jump.InvalidArgument):
        client.register_traditional(None, PASSWORD)  # type: ignore[arg-type]
    with client.record as record:
        with pytest.raises(jump.InvalidArgument):
            record.get(None)  # type: ignore[arg-type]
        with pytest.raises(jump.InvalidArgument):
            record.set_json("/aboutMe", None)  # type: ignore[arg-type]
    with jump.Config() as config:
        with pytest.raises(jump.InvalidArgument):
            config.set(None, "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        client.sign_in(42, PASSWORD)  # type: ignore[arg-type]


def test_invalid_utf8_is_refused(client: jump.Client, registered) -> None:
    with pytest.raises(jump.InvalidArgument) as info:
        client.sign_in(INVALID_UTF8, PASSWORD)
    assert "utf" in info.value.message.lower()
    with pytest.raises(jump.InvalidArgument):
        client.sign_in(registered["email"], INVALID_UTF8)
    with pytest.raises(jump.InvalidArgument):
        client.register_traditional(b'{"email": "' + INVALID_UTF8 + b'"}', PASSWORD)
    with client.record as record:
        with pytest.raises(jump.InvalidArgument):
            record.get(b"/" + INVALID_UTF8)
        with pytest.raises(jump.InvalidArgument):
            record.set_string("/aboutMe", INVALID_UTF8)
        with pytest.raises(jump.InvalidArgument):
            record.set_json("/aboutMe", b'"' + INVALID_UTF8 + b'"')
        with pytest.raises(jump.InvalidArgument):
            record.set_json("/aboutMe", "{not json")
        assert record.changes()["changed"] == []
    with jump.Config() as config:
        with pytest.raises(jump.InvalidArgument):
            config.set("captureLocale", INVALID_UTF8)
        with pytest.raises(jump.InvalidArgument):
            config.set(INVALID_UTF8, "x")
    # Valid non-ASCII text goes through unchanged.
    with client.record as record:
        record["/aboutMe"] = "Zoë ✓ 日本"
        assert record["/aboutMe"] == "Zoë ✓ 日本"
    assert client.sync()["changed"] == ["/aboutMe"]


def test_stale_handles_are_detected(make_config, registered) -> None:
    lib = _native.lib
    client = jump.Client(make_config(storageDirectory=":memory:"))
    client.sign_in(registered["email"], PASSWORD)
    record = client.record
    record_ptr, client_ptr = record.handle, client.handle
    config = jump.Config()
    config_ptr = config.handle

    record.close()
    assert lib.jump_record_get(record_ptr, b"/", byref(c_void_p())) == jump.InvalidHandle.code
    detail = json.loads(lib.jump_error_last())
    assert detail["status"] == -2 and detail["status_name"] == "JUMP_E_INVALID_HANDLE"
    with pytest.raises(jump.InvalidHandle):
        record.get("/")

    config.close()
    assert lib.jump_config_to_json(config_ptr, byref(c_void_p())) == -2
    assert lib.jump_config_set_int(config_ptr, b"connectTimeoutMs", 1) == -2

    client.close()
    out = c_void_p()
    assert lib.jump_client_state(client_ptr, byref(out)) == -2
    assert out.value is None  # on failure *out is NULL
    assert lib.jump_client_sign_out(client_ptr) == -2
    assert lib.jump_client_is_signed_in(client_ptr) == 0
    assert not client.is_signed_in
    with pytest.raises(jump.InvalidHandle):
        client.state

    # Wrong kind of handle.
    with jump.Config() as live_config:
        assert lib.jump_client_fetch_record(live_config.handle) == -2
        assert lib.jump_record_changes(live_config.handle, byref(c_void_p())) == -2
    # NULL handles, and free(NULL).
    assert lib.jump_client_sync(None, byref(c_void_p())) == -2
    lib.jump_client_free(None)
    lib.jump_record_free(None)
    lib.jump_request_free(None)
    lib.jump_config_free(None)
    lib.jump_string_free(None)


def test_error_detail_fields(client: jump.Client) -> None:
    with pytest.raises(jump.ValidationFailed) as info:
        client.register_traditional({"email": "bad", "displayName": "D"}, "short")
    err = info.value
    assert err.detail["status"] == -10
    assert err.detail["message"] == err.message
    assert err.invalid_fields and err.invalid_fields == err.detail["invalid_fields"]
    for name in ("merge_token", "existing_provider", "conflicting_provider", "social_registration_token",
                 "prereg_record", "argument"):
        assert getattr(err, name) == err.detail.get(name)
    assert err.merge_token is None and err.social_registration_token is None
    assert isinstance(err, jump.JumpError) and str(err)
    with pytest.raises(jump.InvalidArgument) as info2:
        jump.Config({"x": 1})
    assert info2.value.argument == "x"
    # The binding builds the right class for every code, and JumpError for unknown ones.
    assert type(jump.errors.error_from_detail({"status": -12, "message": "m"})) is jump.SessionExpired
    assert type(jump.errors.error_from_detail({"status": -99, "message": "m"})) is jump.JumpError
