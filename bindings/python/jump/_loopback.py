"""The asynchronous loopback sign-in's open_url callback, which shares its userdata with the completion
(jump.Client.social_sign_in_loopback_async)."""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional

from . import _native
from ._statuses_generated import JUMP_E_CANCELLED

_log = logging.getLogger("jump")

_JUMP_E_CANCELLED = JUMP_E_CANCELLED


def _timeout_ms(timeout: Optional[float]) -> int:
    """Seconds -> the int32 milliseconds libjump takes (None or <= 0: its default)."""
    if timeout is None or timeout <= 0:
        return 0
    return max(1, min(int(timeout * 1000), 2**31 - 1))


class _LoopbackUserdata:
    """The registry entry of an asynchronous loopback sign-in: called with the completion payload (like any
    completion handler), and holding the app's open_url for :data:`_open_url_trampoline`."""

    def __init__(self, on_payload: Callable[[bytes], None], open_url: Callable[[str], Any]) -> None:
        self._on_payload = on_payload
        self._open_url: Optional[Callable[[str], Any]] = open_url
        self.failure: Optional[BaseException] = None

    def __call__(self, raw: bytes) -> None:
        self._on_payload(raw)

    def open_url(self, url: str) -> int:
        opener, self._open_url = self._open_url, None  # called once; drop the closure early
        if opener is None:
            return 0
        try:
            opener(url)
            return 0
        except BaseException as exc:  # noqa: BLE001 - ctypes would swallow it
            self.failure = exc
            _log.error("jump open_url callback raised", exc_info=exc)
            return _JUMP_E_CANCELLED


def _open_url_async(userdata: Optional[int], url: Optional[bytes]) -> int:
    # Same bookkeeping as _native's completion trampoline: counted as a running callback (drain at exit) and
    # marked "in a callback" (Request.wait there is Busy, handle frees are deferred).
    _native._active.append(None)
    try:
        with _native._registry_lock:
            handler = _native._registry.get(userdata or 0)
        if not isinstance(handler, _LoopbackUserdata):
            return _JUMP_E_CANCELLED
        _native._in_callback.depth = getattr(_native._in_callback, "depth", 0) + 1
        try:
            return handler.open_url((url or b"").decode("utf-8"))
        finally:
            _native._in_callback.depth -= 1
    except BaseException:  # noqa: BLE001 - last line of defence
        return _JUMP_E_CANCELLED
    finally:
        _native._active.pop()


#: The one jump_open_url_fn every asynchronous loopback sign-in uses; lives as long as the process.
_open_url_trampoline = _native.OPEN_URL(_open_url_async)
