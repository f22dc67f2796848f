"""The logging bridge: libjump's log lines as records of the standard "jump" logger, on by default once the
library is loaded, redacted, cheap for levels nobody wants; jump.set_log_callback replaces it and
jump.disable_logging turns it off."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from typing import Iterator, List

import pytest

import jump
from jump import log as jump_log

from conftest import BINDING, PASSWORD, unique_email


@pytest.fixture
def bridge() -> Iterator[None]:
    jump.enable_logging()
    try:
        yield
    finally:
        jump.enable_logging()  # the default, whatever the test did


def test_on_by_default_in_a_fresh_process(emu) -> None:
    # A fresh interpreter that configures nothing but logging: libjump's lines arrive as "jump" records.
    code = """
import logging, jump
records = []
class Keep(logging.Handler):
    def emit(self, record): records.append(record)
logging.getLogger("jump").addHandler(Keep())
logging.getLogger("jump").setLevel(logging.DEBUG)
url = %r
with jump.Client({"captureDomain": url, "captureClientId": "jump-default-client", "captureAppId": "default-app",
                  "captureFlowName": "standard", "captureFlowDomain": url, "storageDirectory": ":memory:"}) as c:
    assert jump.logging_enabled()
    try:
        c.sign_in("nobody@example.com", "wrong password 1")
    except jump.BadCredentials:
        pass
assert any("/oauth/auth_native_traditional" in r.getMessage() for r in records), [r.getMessage() for r in records]
print(len(records))
""" % emu.url
    env = dict(os.environ, PYTHONPATH=str(BINDING))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) > 0


def test_disable_and_enable_again(bridge: None) -> None:
    assert jump.logging_enabled()
    jump.enable_logging()  # idempotent
    assert jump.logging_enabled() and jump.client.installed_log_callback() is jump_log.forward
    token = jump.client._log_token
    jump.disable_logging()
    assert not jump.logging_enabled() and jump.client._log_token is None
    assert token not in jump._native._registry  # libjump released the bridge's registration
    jump.disable_logging()  # idempotent too
    jump.enable_logging()
    assert jump.logging_enabled()


def test_disable_before_the_library_is_loaded() -> None:
    code = """
import jump
jump.disable_logging()
jump.version()  # loads the library
assert not jump.logging_enabled() and jump.client.installed_log_callback() is None
lines = []
jump.set_log_callback(lines.append)  # the application's own callback still works
assert not jump.logging_enabled()
print("ok")
"""
    env = dict(os.environ, PYTHONPATH=str(BINDING))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_set_log_callback_and_the_bridge_replace_each_other(bridge: None) -> None:
    lines: List[object] = []
    jump.set_log_callback(lines.append)
    try:
        assert not jump.logging_enabled()
        jump.disable_logging()  # not the bridge's slot any more: left alone
        assert jump.client.installed_log_callback() is not None
    finally:
        jump.set_log_callback(None)
    assert not jump.logging_enabled()


def test_sign_in_lines_reach_the_logger_without_the_password(bridge: None, caplog, make_config) -> None:
    caplog.set_level(logging.DEBUG, logger="jump")
    email = unique_email()
    wrong = "not-the-password-" + PASSWORD.replace(" ", "-")
    with jump.Client(make_config()) as client:
        client.register_traditional({"email": email, "displayName": "Logged"}, PASSWORD)
        client.sign_out()
        client.sign_in(email, PASSWORD)
        client.sign_out()
        with pytest.raises(jump.BadCredentials):
            client.sign_in(email, wrong)
    records = [r for r in caplog.records if r.name == "jump"]
    assert records, "libjump logged nothing through the bridge"
    assert any("/oauth/auth_native_traditional" in r.getMessage() for r in records)
    for r in records:
        assert r.levelno in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR)
        assert r.jump_level in jump_log.LEVELS and jump_log.LEVELS[r.jump_level] == r.levelno
        text = r.getMessage() + repr(vars(r))
        assert PASSWORD not in text and wrong not in text
        assert PASSWORD.replace(" ", "+") not in text  # nor form-encoded


def test_levels_are_mapped(caplog) -> None:
    caplog.set_level(logging.DEBUG, logger="jump")
    for level in ("debug", "info", "warning", "error", "something-new"):
        jump_log.forward({"version": 1, "kind": "log", "level": level, "message": f"a {level} line 100%"})
    got = [(r.levelno, r.jump_level, r.getMessage()) for r in caplog.records if r.name == "jump"]
    assert got == [
        (logging.DEBUG, "debug", "a debug line 100%"),
        (logging.INFO, "info", "a info line 100%"),
        (logging.WARNING, "warning", "a warning line 100%"),
        (logging.ERROR, "error", "a error line 100%"),
        (logging.INFO, "something-new", "a something-new line 100%"),
    ]


def test_disabled_levels_cost_no_record(caplog) -> None:
    caplog.set_level(logging.WARNING, logger="jump")
    jump_log.forward({"level": "debug", "message": "dropped"})
    jump_log.forward({"level": "error", "message": "kept"})
    assert [r.getMessage() for r in caplog.records if r.name == "jump"] == ["kept"]


def test_raw_lines_are_not_parsed_for_levels_nobody_wants(caplog, monkeypatch) -> None:
    # What libjump's thread runs for every line: the level is read from the raw text, and a line the logger
    # does not want is dropped before json.loads.
    caplog.set_level(logging.INFO, logger="jump")
    parsed: List[bytes] = []
    real_loads = jump_log.json.loads
    monkeypatch.setattr(jump_log.json, "loads", lambda raw, **kw: parsed.append(raw) or real_loads(raw, **kw))
    debug = b'{"kind":"log","message":"GET / \\"level\\":\\"error\\"","level":"debug","version":1}'  # the quoted level in the message is not the level
    jump_log._forward_raw(debug)
    assert parsed == [] and not caplog.records
    jump_log._forward_raw(b'{"version":1,"kind":"log","level":"info","message":"kept 100%"}')
    jump_log._forward_raw(b'{"version": 1, "kind": "log", "message": "spaced", "level": "warning"}')
    jump_log._forward_raw(b'{"kind":"log","message":"no level"}')  # parsed, logged at INFO
    jump_log._forward_raw(b'not json')  # dropped
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.INFO, "kept 100%"), (logging.WARNING, "spaced"), (logging.INFO, "no level")]
    assert len(parsed) == 4
