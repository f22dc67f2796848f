"""Request: an in-flight asynchronous operation (a ``jump_request`` handle plus its completion).

Returned by the ``*_async`` methods of :class:`~jump.client.Client`. It behaves like a small
``concurrent.futures.Future``, and :meth:`Request.future` gives a real one: :meth:`Request.wait` / :meth:`Request.result` block for the result dict (or
raise the mapped :class:`~jump.errors.JumpError`), :meth:`Request.cancel` asks libjump to stop, and
:attr:`Request.done` says whether the completion arrived. An optional user callback receives
``(result_dict_or_None, error_or_None)`` on libjump's callback thread.

A Request is also awaitable from asyncio (``result = await client.sign_in_async(email, password)``): the
event loop is not blocked, and the completion, which arrives on libjump's thread, only schedules the
future's resolution on the loop's own thread (see :mod:`jump.aio`). A Request is generic in its result type
(``Request[SignInResult]``) for type checkers; at run time the result is a plain dict.
"""

from __future__ import annotations

import json
import threading
from ctypes import byref, c_void_p
from typing import TYPE_CHECKING, Any, Callable, Dict, Generator, Generic, List, Optional, TypeVar, cast

from . import _native
from ._handle import NativeHandle
from .errors import Busy, InternalError, JumpError, Timeout, error_from_detail, last_error, local_error

if TYPE_CHECKING:
    import concurrent.futures

    from .results import CompletionPayload

__all__ = ["Request", "CompletionCallback"]

#: The result type of a Request (a TypedDict of jump.results, or Dict[str, Any]).
_R = TypeVar("_R")

#: ``callback(result, error)``: exactly one of the two is not None.
CompletionCallback = Callable[[Optional[Dict[str, Any]], Optional[JumpError]], None]


class _Completion:
    """The callback-owned half of a Request. It holds no libjump handle, so dropping it (which libjump does
    from its own thread, through userdata_free) can never call back into the library."""

    def __init__(self, operation: str, callback: Optional[CompletionCallback]) -> None:
        self.operation = operation
        self.callback = callback
        self.event = threading.Event()
        self.lock = threading.Lock()
        self.resolved = False
        self.payload: Optional[Dict[str, Any]] = None
        self.result: Optional[Dict[str, Any]] = None
        self.error: Optional[JumpError] = None
        self.callback_exception: Optional[BaseException] = None
        # Run once the completion is recorded (Request.add_done_callback); None once they have run.
        self.done_callbacks: Optional[List[Callable[[], None]]] = []
        # Request.future()'s concurrent.futures.Future, made on first request.
        self.future: Optional[Any] = None

    # Runs on libjump's callback thread (or on the caller's, when the call fails to start).
    def on_payload(self, raw: bytes) -> None:
        try:
            payload = json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            self.resolve(None, local_error(InternalError, f"unreadable completion payload from libjump: {exc}"))
            return
        if not isinstance(payload, dict) or payload.get("kind") not in (None, "completion"):
            return  # unknown kinds must be ignored
        status = payload.get("status", 0)
        if not isinstance(status, int):
            status = -17
        if status == 0:
            result = payload.get("result")
            self.resolve(result if isinstance(result, dict) else {}, None, payload)
        else:
            error = payload.get("error")
            self.resolve(None, error_from_detail(error if isinstance(error, dict) else {}, status), payload)

    def resolve(
        self,
        result: Optional[Dict[str, Any]],
        error: Optional[JumpError],
        payload: Optional[Dict[str, Any]] = None,
    ) -> None:
        with self.lock:
            if self.resolved:
                return
            self.resolved = True
            self.payload, self.result, self.error = payload, result, error
        try:
            if self.callback is not None:
                try:
                    self.callback(result, error)
                except BaseException as exc:  # noqa: BLE001 - ctypes would swallow it; surfaced by wait()
                    self.callback_exception = exc
                finally:
                    self.callback = None  # drop closures (and whatever they hold) as early as possible
        finally:
            self.event.set()
            with self.lock:
                callbacks, self.done_callbacks = self.done_callbacks, None
            for fn in callbacks or ():
                try:
                    fn()
                except BaseException:  # noqa: BLE001 - ctypes would swallow it; one must not stop the others
                    pass

    def add_done_callback(self, fn: Callable[[], None]) -> None:
        with self.lock:
            if self.done_callbacks is not None:
                self.done_callbacks.append(fn)
                return
        fn()  # already done: run now, on the caller's thread


class Request(NativeHandle, Generic[_R]):
    """An asynchronous libjump operation. Create it through ``Client.*_async``, not directly.

    ``await request`` (in a coroutine) gives the result like :meth:`wait`, without blocking the event loop;
    cancelling the awaiting task cancels the operation."""

    _free_fn = "jump_request_free"  # never waits, so __del__ may call it on any thread
    _name = "Request"
    # A Request has no public raw handle (none until started, nor when starting failed): a property without a
    # getter hides the inherited one, so reading it raises AttributeError.
    handle = property(doc="Not available on a Request.")

    def __init__(self, operation: str, callback: Optional[CompletionCallback] = None, owner: Any = None) -> None:
        self._completion = _Completion(operation, callback)
        super().__init__()
        self._owner = owner  # keeps the Client alive while the Request is referenced

    @classmethod
    def _start(
        cls,
        operation: str,
        callback: Optional[CompletionCallback],
        owner: Any,
        start: Callable[..., int],
        wrap: Optional[Callable[[Callable[[bytes], None]], Any]] = None,
    ) -> "Request[Any]":
        """Run ``start(callback_fn, userdata, userdata_free, out_request_ptr) -> status``.

        libjump runs the completion exactly once, also when starting fails; the Request then completes with
        that error (it is not raised here, as with ``concurrent.futures.Executor.submit``). ``wrap``, when
        given, turns the completion handler into the object registered under the userdata (for functions
        whose other callbacks share that userdata, e.g. the loopback sign-in's open_url); it must stay
        callable with the payload.
        """
        self: Request[Any] = cls(operation, callback, owner)
        completion = self._completion
        token = _native.register(completion.on_payload if wrap is None else wrap(completion.on_payload))
        out = c_void_p()
        status = start(_native.trampoline, _native.userdata(token), _native.release, byref(out))
        self._handle = out.value or None
        if status != 0 and not completion.event.is_set():
            # Read the detail now, on this thread, before anything else calls into libjump. If libjump also
            # delivers the completion later, the first resolution wins.
            completion.resolve(None, last_error(status))
        return self

    @property
    def operation(self) -> str:
        """The operation's name ("sign_in", "sync", ...)."""
        return self._completion.operation

    @property
    def done(self) -> bool:
        """True once the completion has been delivered (and the user callback has returned)."""
        return self._completion.event.is_set()

    @property
    def payload(self) -> Optional[CompletionPayload]:
        """The raw completion document, once done."""
        return cast("Optional[CompletionPayload]", self._completion.payload)

    @property
    def callback_exception(self) -> Optional[BaseException]:
        """What the user callback raised, if it raised."""
        return self._completion.callback_exception

    def wait(self, timeout: Optional[float] = None) -> _R:
        """Block until done (at most ``timeout`` seconds) and return the result dict.

        Raises the operation's JumpError subclass on failure; :class:`~jump.errors.Timeout` when ``timeout``
        passes first; :class:`~jump.errors.Busy` when called from a libjump callback while not done (it would
        deadlock); and re-raises what the user callback raised, if it raised.
        """
        c = self._completion
        if not c.event.is_set():
            if _native.in_callback():
                h = self._handle
                if h is not None:
                    status = _native.lib.jump_request_wait(h, 0)
                    if status != 0 and not c.event.is_set():
                        raise last_error(status)
                if not c.event.is_set():
                    raise local_error(Busy, "Request.wait called from a libjump callback; it would deadlock")
            elif not c.event.wait(timeout):
                raise local_error(Timeout, f"the {c.operation} operation did not finish within {timeout} s")
        if c.error is not None:
            raise c.error
        if c.callback_exception is not None:
            raise c.callback_exception
        return cast(_R, dict(c.result or {}))

    def result(self, timeout: Optional[float] = None) -> _R:
        """Same as :meth:`wait` (concurrent.futures spelling)."""
        return self.wait(timeout)

    def add_done_callback(self, fn: Callable[["Request[_R]"], Any]) -> None:
        """Call ``fn(request)`` once the operation is done (after the completion callback): at once, on this
        thread, when it already is; otherwise on libjump's callback thread. Keep ``fn`` short and
        thread-safe; what it raises is ignored. (concurrent.futures spelling.)"""
        self._completion.add_done_callback(lambda: fn(self))

    def future(self) -> "concurrent.futures.Future[_R]":
        """This operation as a :class:`concurrent.futures.Future` (the same one on every call).

        It resolves like :meth:`wait` (the result dict, or the exception ``wait`` would raise) when the
        completion arrives, on libjump's callback thread (no thread of its own), so it composes with
        ``concurrent.futures.wait``/``as_completed`` and with ``asyncio.wrap_future``. It stays PENDING until
        then (libjump, not an executor, runs the operation): ``future.cancel()`` therefore succeeds while the
        operation runs and cancels it (:meth:`cancel`), which is also what cancelling an
        ``asyncio.wrap_future`` of it does. The Future keeps this Request alive."""
        import concurrent.futures  # only programs that ask for a Future pay for the import

        c = self._completion
        with c.lock:
            if c.future is not None:
                return cast("concurrent.futures.Future[_R]", c.future)
            future: concurrent.futures.Future[_R] = concurrent.futures.Future()
            c.future = future

        def on_future_done(f: "concurrent.futures.Future[_R]") -> None:
            if f.cancelled() and not self.done:  # cancelled by its holder (or asyncio): stop the operation
                try:
                    self.cancel()
                except Exception:  # noqa: BLE001 - e.g. the Request was closed; nothing left to stop
                    pass

        def settle(request: "Request[_R]") -> None:
            if not future.set_running_or_notify_cancel():
                return  # cancelled meanwhile
            try:
                result = request.wait(0)  # done: returns or raises at once
            except BaseException as exc:  # noqa: BLE001 - handed to the Future's holder
                future.set_exception(exc)
            else:
                future.set_result(result)

        future.add_done_callback(on_future_done)
        self.add_done_callback(settle)
        return future

    def __await__(self) -> Generator[Any, None, _R]:
        from .aio import wrap_request  # asyncio is imported only by programs that await

        return wrap_request(self).__await__()

    def exception(self, timeout: Optional[float] = None) -> Optional[JumpError]:
        """The operation's error (None on success), waiting like :meth:`wait`."""
        try:
            self.wait(timeout)
        except JumpError as exc:
            if exc is self._completion.error:
                return exc
            raise
        except BaseException:
            if self._completion.callback_exception is None:
                raise
        return self._completion.error

    def cancel(self) -> bool:
        """Ask libjump to stop the operation; its completion then reports Cancelled unless it had finished.

        Returns True when the request was still running when asked (as far as Python knows).
        """
        with self._lock:
            h = self._handle
        if h is None or self.done:
            return False
        status = _native.lib.jump_request_cancel(h)
        if status != 0:
            raise last_error(status)
        return True

    def cancelled(self) -> bool:
        """True when the operation finished with Cancelled."""
        from .errors import Cancelled

        return self.done and isinstance(self._completion.error, Cancelled)

    def close(self) -> None:
        """Release the jump_request handle (the operation goes on; its completion is still recorded)."""
        super().close()

    def __repr__(self) -> str:
        c = self._completion
        state = "pending" if not self.done else ("failed" if c.error is not None else "done")
        return f"<jump.Request {c.operation} {state}>"
