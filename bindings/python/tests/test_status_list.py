"""include/jump.h's jump_status enum is the one list of status codes: the binding's copies (the names of
errors.STATUS_NAMES and the exception classes' codes) are checked against it here."""

from __future__ import annotations

import pathlib
import re

import jump
from jump import errors

HEADER = pathlib.Path(__file__).resolve().parents[3] / "include" / "jump.h"


def header_statuses() -> dict:
    enum = re.search(r"typedef enum jump_status \{(.*?)\} jump_status;", HEADER.read_text(), re.S)
    assert enum is not None, "no jump_status enum in include/jump.h"
    return {int(value): name for name, value in re.findall(r"\b(JUMP_(?:OK|E_[A-Z_]+))\s*=\s*(-?\d+)", enum.group(1))}


def test_status_names_are_the_headers() -> None:
    statuses = header_statuses()
    assert len(statuses) >= 20
    assert errors.STATUS_NAMES == statuses


def test_every_error_status_has_its_exception_class() -> None:
    for code, name in header_statuses().items():
        if code == 0:
            continue
        cls = errors.error_class(code)
        assert cls is not jump.JumpError and cls.code == code, name
