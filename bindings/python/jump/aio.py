"""asyncio support: a :class:`~jump.request.Request` as an ``asyncio.Future`` of the running loop.

``await client.sign_in_async(email, password)`` (``Request.__await__``) comes here. libjump delivers the
completion on its own thread ("jump-events"); asyncio objects may only be touched from their loop's thread,
so that thread does nothing but ``loop.call_soon_threadsafe(...)``: the future is resolved, and the awaiting
task woken, by the loop itself. The loop never blocks on libjump.

Cancelling the awaiting task (``task.cancel()``, ``asyncio.wait_for`` running out) cancels the operation
(``jump_request_cancel``); its completion then arrives as Cancelled and is dropped.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Optional, TypeVar

if TYPE_CHECKING:
    from .request import Request

__all__ = ["wrap_request"]

_R = TypeVar("_R")


def wrap_request(request: "Request[_R]", loop: Optional[asyncio.AbstractEventLoop] = None) -> "asyncio.Future[_R]":
    """An asyncio Future of ``loop`` (default: the running loop) that resolves like ``request.wait()``: its
    result dict, or the JumpError (or what the completion callback raised)."""
    if loop is None:
        loop = asyncio.get_running_loop()
    future: asyncio.Future[_R] = loop.create_future()

    def settle() -> None:  # on the loop's thread
        if future.done():  # cancelled by the awaiting task meanwhile
            return
        try:
            result = request.wait(0)  # done: returns or raises at once
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
            future.set_exception(exc)
        else:
            future.set_result(result)

    def on_done(_request: Any) -> None:  # on libjump's callback thread, or on this one when already done
        try:
            loop.call_soon_threadsafe(settle)
        except RuntimeError:
            pass  # the loop is closed: nobody is awaiting any more

    def on_future_done(f: "asyncio.Future[_R]") -> None:  # on the loop's thread
        if f.cancelled() and not request.done:
            try:
                request.cancel()
            except Exception:  # noqa: BLE001 - e.g. the Request was closed; nothing left to stop
                pass

    future.add_done_callback(on_future_done)
    request.add_done_callback(on_done)
    return future
