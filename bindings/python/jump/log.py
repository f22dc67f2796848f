"""The bridge from libjump's log lines to the standard :mod:`logging` module.

Opt-in: ``jump.enable_logging()`` makes every line libjump logs a record of the ``"jump"`` logger, with
libjump's level mapped (debug -> DEBUG, info -> INFO, warning -> WARNING, error -> ERROR; an unknown level ->
INFO) and that level also kept as ``record.jump_level``. Configure handlers and levels the usual way
(``logging.basicConfig(level=logging.DEBUG)``, ``logging.getLogger("jump").setLevel(...)``).

Why opt-in rather than at import: libjump has one process-wide log slot (``jump_set_log_callback``), which
:func:`jump.set_log_callback` also uses, and every line it logs costs a call into Python (taking the GIL)
from libjump's threads; a program that never looks at the logs should not pay for them. Installing the
bridge replaces a callback set with :func:`jump.set_log_callback`, and that function replaces the bridge.

libjump redacts its lines before they leave the library: passwords, tokens and secrets never reach the
records. The lines come from libjump's threads, concurrently; ``logging`` is thread-safe.
"""

from __future__ import annotations

import logging
from typing import Any, Mapping

from . import client as _client

__all__ = ["LEVELS", "LOGGER_NAME", "disable_logging", "enable_logging", "forward", "logging_enabled"]

#: The logger libjump's lines go to (the binding's own warnings use it too).
LOGGER_NAME = "jump"
#: libjump's level names -> logging levels.
LEVELS: Mapping[str, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}

_logger = logging.getLogger(LOGGER_NAME)


def forward(line: Mapping[str, Any]) -> None:
    """Log one libjump line (``{"kind": "log", "level", "message"}``) to the ``"jump"`` logger."""
    name = str(line.get("level") or "info")
    level = LEVELS.get(name, logging.INFO)
    if _logger.isEnabledFor(level):  # cheap early out: most lines are debug, most programs log at INFO+
        # The message is the whole msg (no args): a "%" in it is never taken for a format directive.
        _logger.log(level, str(line.get("message") or ""), extra={"jump_level": name})


def enable_logging() -> None:
    """Forward libjump's log lines to the ``"jump"`` logger (replaces a :func:`jump.set_log_callback`
    callback). Idempotent."""
    if not logging_enabled():
        _client.set_log_callback(forward)


def disable_logging() -> None:
    """Stop forwarding (only when the bridge is what is installed; a later set_log_callback is left alone)."""
    if logging_enabled():
        _client.set_log_callback(None)


def logging_enabled() -> bool:
    """True while the bridge is libjump's log callback."""
    return _client.installed_log_callback() is forward
