"""jump.enable_logging(): libjump's log lines as records of the standard "jump" logger, redacted."""

from __future__ import annotations

import logging
from typing import Iterator, List

import pytest

import jump
from jump import log as jump_log

from conftest import PASSWORD, unique_email


@pytest.fixture
def bridge() -> Iterator[None]:
    jump.enable_logging()
    try:
        yield
    finally:
        jump.disable_logging()


def test_opt_in_and_off_again() -> None:
    assert not jump.logging_enabled()  # nothing is installed at import
    jump.enable_logging()
    try:
        jump.enable_logging()  # idempotent
        assert jump.logging_enabled() and jump.client.installed_log_callback() is jump_log.forward
    finally:
        jump.disable_logging()
    assert not jump.logging_enabled() and jump.client._log_token is None


def test_set_log_callback_and_the_bridge_replace_each_other(bridge: None) -> None:
    lines: List[object] = []
    jump.set_log_callback(lines.append)
    try:
        assert not jump.logging_enabled()
        jump.disable_logging()  # not the bridge's slot any more: left alone
        assert jump.client.installed_log_callback() is not None
    finally:
        jump.set_log_callback(None)


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
