"""Client: one app installation's session with Capture (a ``jump_client`` handle).

Blocking methods release the GIL while libjump works (ctypes.CDLL), so other Python threads keep running;
every method may be called from any thread. The ``*_async`` methods return a :class:`~jump.request.Request`,
which asyncio code may ``await``. Results are :mod:`jump.results` TypedDicts: plain dicts with typed keys.
"""

from __future__ import annotations

import atexit
import json
from typing import Any, Callable, Optional

from . import _native
from ._client_accounts import _AccountMethods
from ._client_base import EventCallback, LogCallback, _live_clients
from ._client_events import _EventMethods
from ._client_forms import _FormMethods
from ._client_session import _SessionMethods
from ._client_sharing import _SharingMethods
from ._client_social import _SocialMethods
from ._client_tokens import _TokenMethods
from .config import _storage_configs
from .errors import check, last_error

__all__ = ["Client", "EventCallback", "LogCallback", "set_log_callback"]


class Client(_SessionMethods, _TokenMethods, _FormMethods, _SocialMethods, _SharingMethods, _AccountMethods,
             _EventMethods):
    """A libjump client.

    ``Client(config)`` takes a :class:`~jump.config.Config` or a mapping of config keys; it restores the
    session saved in ``storageDirectory`` or in the Config's host storage (:meth:`Config.set_storage`; no
    network). Use it as a context manager or call :meth:`close`.
    """
    # The methods are grouped by area in the _client_* modules (ClientBase: the plumbing they share).

    # -- lifetime -------------------------------------------------------------------------------------------

    async def __aenter__(self) -> "Client":
        """``async with jump.Client(config) as client:`` in a coroutine."""
        return self

    async def __aexit__(self, *exc: Any) -> None:
        # close() does not wait for the network: in-flight requests are cancelled, so the loop is not held.
        self.close()

    def close(self) -> None:
        """Release the client (idempotent). In-flight requests complete with Cancelled."""
        if self._pump_loop is not None and self._handle is not None:
            try:
                self.detach_event_loop()
            except Exception:  # noqa: BLE001 - closing anyway
                self._pump_loop = None
        super().close()

# ---------------------------------------------------------------------------------------------------------
# Process-wide: log callback, shutdown
# ---------------------------------------------------------------------------------------------------------

_log_token: Optional[int] = None
# The callable installed by set_log_callback (so jump.log can tell whether its bridge is the one installed).
_log_callback: Optional[LogCallback] = None


def set_log_callback(callback: Optional[LogCallback]) -> None:
    """Install a process-wide log callback receiving redacted log lines as dicts (None removes it).

    It may run on any thread, concurrently; exceptions it raises are ignored. It replaces the default
    bridge to the standard ``logging`` logger ``"jump"`` (:mod:`jump.log`; there is one process-wide slot);
    :func:`jump.enable_logging` puts the bridge back.
    """
    if callback is None:
        install_log_handler(None, None)
        return

    def handler(raw: bytes) -> None:
        try:
            callback(json.loads(raw.decode("utf-8")))
        except BaseException:  # noqa: BLE001
            pass

    install_log_handler(handler, callback)


def install_log_handler(handler: Optional[Callable[[bytes], None]], callback: Optional[LogCallback]) -> None:
    """Put ``handler(raw_json_bytes)`` in libjump's log slot (None empties it); ``callback`` is what
    :func:`installed_log_callback` reports. jump.log passes a handler that reads only the lines the
    ``"jump"`` logger wants, so a program that does not log pays no JSON parsing per line."""
    global _log_token, _log_callback
    lib = _native.lib  # loads the library first: a failed load must not leave a registration behind
    if handler is None:
        check(lib.jump_set_log_callback(_native.CALLBACK(), None, _native.FREE_FN()))
        _log_token = None
        _log_callback = None
        return
    token = _native.register(handler)
    status = lib.jump_set_log_callback(_native.trampoline, _native.userdata(token), _native.release)
    if status != 0:
        error = last_error(status)
        _native.unregister(token)
        raise error
    _log_token = token
    _log_callback = callback


def installed_log_callback() -> Optional[LogCallback]:
    """The callback set with :func:`set_log_callback` (None when none is)."""
    return _log_callback


#: How long interpreter exit waits for libjump to deliver cancelled completions and release callbacks.
SHUTDOWN_TIMEOUT = 5.0


@atexit.register
def _shutdown() -> None:
    # Nothing may call into Python once it is finalizing: close the clients (their in-flight requests complete
    # with Cancelled), remove the log callback, then wait until libjump has released every callback.
    for client in list(_live_clients):
        try:
            client.close()
        except Exception:  # noqa: BLE001
            pass
    if _log_token is not None:
        try:
            _native.lib.jump_set_log_callback(_native.CALLBACK(), None, _native.FREE_FN())
        except Exception:  # noqa: BLE001
            pass
    for config in list(_storage_configs):  # a Config holding a host storage holds its registration
        try:
            config.close()
        except Exception:  # noqa: BLE001
            pass
    try:
        _native.drain(SHUTDOWN_TIMEOUT)
    except Exception:  # noqa: BLE001
        pass
