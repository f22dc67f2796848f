"""The plumbing every part of :class:`jump.Client` shares: the handle, the native calls' three shapes (a string
out, JSON out, an asynchronous Request), the argument encoders. The methods live in the ``_client_*`` mixins,
one per area, each a subclass of :class:`ClientBase`; jump.client puts them together.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from ctypes import byref, c_void_p
from typing import Any, Callable, Dict, Mapping, Optional, Union

from . import _native
from ._handle import NativeHandle
from .config import Config
from .errors import check
from .request import CompletionCallback, Request

#: ``callback(event)`` with event like ``{"version":1,"kind":"event","event":"signed_in","uuid":"..."}``.
EventCallback = Callable[[Dict[str, Any]], None]
#: ``callback(line)`` with line like ``{"version":1,"kind":"log","level":"info","message":"..."}``.
LogCallback = Callable[[Dict[str, Any]], None]

_log = logging.getLogger("jump")
_live_clients: "weakref.WeakSet[ClientBase]" = weakref.WeakSet()

StrIn = Union[str, bytes, None]


class ClientBase(NativeHandle):
    """The state and plumbing of a libjump client; :class:`jump.Client` is the class to use."""

    _free_fn = "jump_client_free"
    _name = "Client"
    # __del__ may run on libjump's callback thread (when a callback's closure held the last reference), where
    # jump_client_free could wait for that very thread: it is deferred to a helper thread there.
    _free_may_wait = True

    def __init__(self, config: Union[Config, Mapping[str, Any]], **keys: Any) -> None:
        super().__init__()
        self._event_token: Optional[int] = None
        #: The on_event callback, also called by the loop that pumps this client (attach_event_loop).
        self._event_callback: Optional[EventCallback] = None
        self._pump_loop: Optional[asyncio.AbstractEventLoop] = None
        #: The last exception raised by the on_event callback (it runs on libjump's thread).
        self.last_event_error: Optional[BaseException] = None
        if isinstance(config, Config) and not keys:
            cfg, owned = config, False
        else:
            cfg, owned = Config(config.to_dict() if isinstance(config, Config) else config, **keys), True
        try:
            if owned and isinstance(config, Config) and config.storage is not None:
                cfg.set_storage(config.storage)  # the copy keeps the host storage
            out = c_void_p()
            check(_native.lib.jump_client_new(cfg.handle, byref(out)))
            self._handle = out.value
        finally:
            if owned:
                cfg.close()
        _live_clients.add(self)

    # -- plumbing -------------------------------------------------------------------------------------------

    def _string_call(self, fn: Callable[..., int], *args: Any) -> Optional[str]:
        out = c_void_p()
        check(fn(self.handle, *args, byref(out)))
        return _native.take_string(out)

    def _json_call(self, fn: Callable[..., int], *args: Any) -> Any:
        text = self._string_call(fn, *args)
        return None if text is None else json.loads(text)

    def _async(self, operation: str, callback: Optional[CompletionCallback], fn: Callable[..., int],
               *args: Any) -> Request[Any]:
        h = self.handle
        return Request._start(operation, callback, self, lambda cb, ud, free, out: fn(h, *args, cb, ud, free, out))

    @staticmethod
    def _attributes(attributes: Union[Mapping[str, Any], str, bytes, None]) -> Optional[bytes]:
        if isinstance(attributes, (str, bytes)) or attributes is None:
            return _native.encode(attributes, "attributes")
        return json.dumps(dict(attributes), ensure_ascii=False).encode("utf-8")

    @staticmethod
    def _social_options(**options: Any) -> Optional[bytes]:
        """The options_json of the social calls: the options that are set (None and False left out)."""
        chosen = {k: v for k, v in options.items() if v is not None and v is not False}
        return json.dumps(chosen, ensure_ascii=False).encode("utf-8") if chosen else None

    @staticmethod
    def _json_arg(value: Any, name: str) -> Optional[bytes]:
        """A JSON argument: text (str/bytes) as-is; a mapping as an object, another iterable as an array."""
        if isinstance(value, (str, bytes)) or value is None:
            return _native.encode(value, name)
        if isinstance(value, Mapping):
            value = dict(value)
        elif not isinstance(value, list):
            value = list(value)
        return json.dumps(value, ensure_ascii=False).encode("utf-8")
