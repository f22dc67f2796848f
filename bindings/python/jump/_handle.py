"""NativeHandle: the lifetime of one libjump handle, shared by Config, Client, Record and Request.

A subclass names its ``jump_*_free`` function; this class frees the handle exactly once, whichever of
close(), ``with`` or garbage collection comes first, and from whichever thread.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar, Optional, TypeVar

from . import _native
from .errors import InvalidHandle, local_error

__all__ = ["NativeHandle"]

_Self = TypeVar("_Self", bound="NativeHandle")


class NativeHandle:
    """Owns a raw libjump handle (``_handle``, None once closed) and frees it once."""

    #: The libjump function releasing the handle, looked up on each close ("jump_config_free", ...).
    _free_fn: ClassVar[str]
    #: The public class name, for repr: "<jump.Config 0x...>" (set here so subclasses of it keep it).
    _name: ClassVar[str]
    #: What InvalidHandle calls the object ("the Record view is closed"); _name when None.
    _noun: ClassVar[Optional[str]] = None
    #: True when the free function may wait for libjump's callback thread; __del__ then never calls it there.
    _free_may_wait: ClassVar[bool] = False

    def __init__(self, handle: Optional[int] = None) -> None:
        self._handle: Optional[int] = handle
        self._lock = threading.Lock()

    @property
    def handle(self) -> int:
        """The raw handle (raises InvalidHandle once closed)."""
        h = self._handle  # read once: close() may run on another thread
        if h is None:
            raise local_error(InvalidHandle, f"the {self._noun or self._name} is closed")
        return h

    def close(self) -> None:
        """Release the handle (idempotent)."""
        # Swap under the lock so that concurrent close() calls free the handle once.
        with self._lock:
            h, self._handle = self._handle, None
        if h is not None:
            getattr(_native.lib, self._free_fn)(h)

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        # _handle may be missing when __init__ failed. Once the interpreter is finalizing nothing may call into
        # the library. Runs on whatever thread dropped the last reference, libjump's callback thread included.
        try:
            if getattr(self, "_handle", None) is not None and not _native.is_finalizing():
                if self._free_may_wait:
                    _native.run_outside_callbacks(self.close)
                else:
                    self.close()
        except Exception:  # noqa: BLE001 - never raise from __del__
            pass

    def __repr__(self) -> str:
        return f"<jump.{self._name} {'closed' if self._handle is None else hex(self._handle)}>"
