""":class:`jump.Client`'s events: the callback, and queue mode pumped by an asyncio loop.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from ctypes import byref, c_int, c_void_p
from typing import Optional

from . import _native
from ._client_base import ClientBase, EventCallback, _log
from ._statuses_generated import JUMP_E_NOT_FOUND
from .errors import check, last_error

class _EventMethods(ClientBase):
    """Events: a callback, or queue mode pumped by an asyncio loop."""

    # -- events ---------------------------------------------------------------------------------------------

    def on_event(self, callback: Optional[EventCallback]) -> None:
        """Call ``callback(event_dict)`` for each client event (signed_in, signed_out, token_refreshed,
        record_synced, record_fetched, session_expired); None removes it.

        The callback runs on libjump's thread, one at a time and in order. Exceptions it raises are logged to
        the "jump" logger and kept in :attr:`last_event_error`.
        """
        h = self.handle
        self._event_callback = callback
        if callback is None:
            check(_native.lib.jump_client_set_event_callback(h, _native.CALLBACK(), None, _native.FREE_FN()))
            return
        owner = weakref.ref(self)

        def handler(raw: bytes) -> None:
            try:
                event = json.loads(raw.decode("utf-8"))
                if isinstance(event, dict) and event.get("kind", "event") == "event":
                    callback(event)
            except BaseException as exc:  # noqa: BLE001 - ctypes would swallow it
                client = owner()
                if client is not None:
                    client.last_event_error = exc
                _log.error("jump event callback raised", exc_info=exc)

        token = _native.register(handler)
        status = _native.lib.jump_client_set_event_callback(
            h, _native.trampoline, _native.userdata(token), _native.release
        )
        if status != 0:
            error = last_error(status)
            _native.unregister(token)  # not taken: libjump did not keep the callback
            raise error

    # -- queue mode: an asyncio loop pumps the client -------------------------------------------------------

    def attach_event_loop(self, loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
        """Let ``loop`` (default: the running loop) deliver this client's completions and events, on the loop's
        thread: libjump queues them (``jump_client_use_event_queue``) and the loop pumps the queue when its
        file descriptor is readable (``loop.add_reader``). No Python code then runs on a libjump thread, and
        awaiting a request needs no thread hop. :meth:`detach_event_loop` (or :meth:`close`) ends it."""
        if loop is None:
            loop = asyncio.get_running_loop()
        if self._pump_loop is loop:
            return
        if self._pump_loop is not None:
            raise RuntimeError("the client is already attached to another event loop")
        loop.add_reader(self.use_event_queue(True), self.pump_events)
        self._pump_loop = loop

    def detach_event_loop(self) -> None:
        """Back to callbacks on libjump's thread; what still waits in the queue goes to them."""
        loop, self._pump_loop = self._pump_loop, None
        if loop is None:
            return
        fd = c_int(-1)
        if _native.lib.jump_client_event_fd(self.handle, byref(fd)) == 0 and not loop.is_closed():
            loop.remove_reader(fd.value)
        self.use_event_queue(False)

    def use_event_queue(self, enabled: bool = True) -> int:
        """Queue mode on (returns the file descriptor readable while something waits; poll it, or call
        :meth:`pump_events` once per frame) or off (what still waits goes to the callbacks; returns -1)."""
        check(_native.lib.jump_client_use_event_queue(self.handle, 1 if enabled else 0))
        if not enabled:
            return -1
        fd = c_int(-1)
        check(_native.lib.jump_client_event_fd(self.handle, byref(fd)))
        return fd.value

    def pump_events(self) -> int:
        """Deliver what waits in the queue (queue mode), on this thread: completions resolve their
        requests, events go to the :meth:`on_event` callback. Returns how many documents it took. A game
        loop without asyncio calls :meth:`use_event_queue` once, then this once per frame."""
        taken = 0
        while True:
            out = c_void_p()
            status = _native.lib.jump_client_next_event(self.handle, byref(out))
            if status == JUMP_E_NOT_FOUND:
                return taken
            check(status)
            taken += 1
            text = _native.take_string(out)
            callback = self._event_callback
            if callback is None or text is None:
                continue
            try:
                event = json.loads(text)
                if isinstance(event, dict) and event.get("kind") == "event":
                    callback(event)
            except BaseException as exc:  # noqa: BLE001 - the loop must go on pumping
                self.last_event_error = exc
                _log.error("jump event callback raised", exc_info=exc)
