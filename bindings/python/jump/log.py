"""The bridge from libjump's log lines to the standard :mod:`logging` module, on by default.

When the library is loaded (on first use of the package, not at import), every line libjump logs becomes a
record of the ``"jump"`` logger, with libjump's level mapped (debug -> DEBUG, info -> INFO, warning ->
WARNING, error -> ERROR; an unknown level -> INFO) and that level also kept as ``record.jump_level``.
Configure handlers and levels the usual way (``logging.basicConfig(level=logging.DEBUG)``,
``logging.getLogger("jump").setLevel(...)``); with none configured, Python's last-resort handler shows
warnings and errors on stderr, as for any library.

Cheap when nobody listens: a line whose level the ``"jump"`` logger does not want (``isEnabledFor``; the
default is WARNING, and most of libjump's lines are debug) is dropped after reading its level from the raw
text, before any JSON parsing or record; what is left is the call into Python that libjump's thread makes
for each line (the one process-wide slot cannot know who listens).

libjump has one process-wide log slot (``jump_set_log_callback``): :func:`jump.set_log_callback` puts the
application's own callback there instead of the bridge, :func:`disable_logging` empties it (also when
called before the library is loaded: the bridge is then not installed), and :func:`enable_logging` puts
the bridge back.

libjump redacts its lines before they leave the library: passwords, tokens and secrets never reach the
records. The lines come from libjump's threads, concurrently; ``logging`` is thread-safe.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Mapping

from . import _native
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
# The level member of a raw line ({"version":1,"kind":"log","level":"debug","message":"..."}). Inside a JSON
# string a quote is always escaped, so this cannot match text of the message; a line it does not match is
# parsed in full.
_LEVEL = re.compile(rb'"level"\s*:\s*"([a-z]+)"')
_RAW_LEVELS = {name.encode("ascii"): level for name, level in LEVELS.items()}
# False once disable_logging() was called (or set_log_callback took the slot) before the library was loaded:
# then loading it installs nothing.
_wanted = True


def forward(line: Mapping[str, Any]) -> None:
    """Log one libjump line (``{"kind": "log", "level", "message"}``) to the ``"jump"`` logger."""
    name = str(line.get("level") or "info")
    level = LEVELS.get(name, logging.INFO)
    if _logger.isEnabledFor(level):  # cheap early out: most lines are debug, most programs log at INFO+
        # The message is the whole msg (no args): a "%" in it is never taken for a format directive.
        _logger.log(level, str(line.get("message") or ""), extra={"jump_level": name})


def _forward_raw(raw: bytes) -> None:
    # libjump's thread, for every line: decide from the raw text whether the logger wants it before parsing.
    match = _LEVEL.search(raw)
    if match is not None and not _logger.isEnabledFor(_RAW_LEVELS.get(match.group(1), logging.INFO)):
        return
    try:
        line = json.loads(raw.decode("utf-8"))
    except ValueError:
        return
    if isinstance(line, dict) and line.get("kind", "log") == "log":
        forward(line)


def enable_logging() -> None:
    """Forward libjump's log lines to the ``"jump"`` logger (the default; replaces a
    :func:`jump.set_log_callback` callback). Idempotent. Loads the library if it is not loaded yet."""
    global _wanted
    _wanted = True
    if not logging_enabled():
        _client.install_log_handler(_forward_raw, forward)


def disable_logging() -> None:
    """Stop forwarding (only when the bridge is what is installed; a later set_log_callback is left alone).
    Before the library is loaded: it will not be installed when it is."""
    global _wanted
    if not _native.loaded():
        _wanted = False
    elif logging_enabled():
        _client.install_log_handler(None, None)


def logging_enabled() -> bool:
    """True while the bridge is libjump's log callback (False before the library is loaded)."""
    return _client.installed_log_callback() is forward


def _install_default() -> None:
    # Runs once, right after the library is loaded (jump._native.on_load). Not when the application took the
    # slot already (set_log_callback before that, which is what loaded the library) or declined the bridge.
    if _wanted and _client.installed_log_callback() is None:
        _client.install_log_handler(_forward_raw, forward)


_native.on_load(_install_default)
