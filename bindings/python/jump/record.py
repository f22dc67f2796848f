"""Record: a live view of the signed-in user's record (a ``jump_record`` handle).

Paths are libjump's: ``"/"`` (the whole record), ``"/aboutMe"``, ``"/primaryAddress/city"``,
``"/photos#12/value"`` (a plural element by id); a bare name like ``"aboutMe"`` is taken as ``"/aboutMe"``.
Edits stay local until ``Client.sync()``. After sign-out or another sign-in the view's calls raise
:class:`~jump.errors.NotSignedIn`.
"""

from __future__ import annotations

import json
from ctypes import byref, c_void_p
from typing import Any, Dict, Optional, Union

from . import _native
from ._handle import NativeHandle
from .errors import check

__all__ = ["Record"]

Path = Union[str, bytes]


def _path(path: Path) -> Optional[bytes]:
    if isinstance(path, str) and not path.startswith("/"):
        path = "/" + path
    return _native.encode(path, "path")


class Record(NativeHandle):
    """A view of the signed-in user's record. Get one from :attr:`Client.record`."""

    _free_fn = "jump_record_free"  # never waits, so __del__ may call it on any thread
    _name = "Record"
    _noun = "Record view"

    def __init__(self, handle: int, owner: Any = None) -> None:
        super().__init__(handle)
        self._owner = owner  # the Client: kept alive while the view is

    def get(self, path: Path = "/") -> Any:
        """The value at ``path`` as a Python value (dict, list, str, int, float, bool or None).

        Raises :class:`~jump.errors.NotFound` (also a KeyError) when the path does not exist.
        """
        out = c_void_p()
        check(_native.lib.jump_record_get(self.handle, _path(path), byref(out)))
        return _native.take_json(out)

    def __getitem__(self, path: Path) -> Any:
        return self.get(path)

    def get_string(self, path: Path) -> Optional[str]:
        """The string at ``path`` (None for a JSON null); another type raises InvalidArgument."""
        out = c_void_p()
        check(_native.lib.jump_record_get_string(self.handle, _path(path), byref(out)))
        return _native.take_string(out)

    def set(self, path: Path, value: Any) -> None:
        """Set the attribute at ``path`` to ``value`` (JSON-encoded). Local until Client.sync().

        Reserved attributes (id, uuid, created, lastUpdated), unknown attributes and plurals raise
        InvalidArgument naming the path.
        """
        text = json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
        check(_native.lib.jump_record_set(self.handle, _path(path), text))

    def __setitem__(self, path: Path, value: Any) -> None:
        self.set(path, value)

    def set_json(self, path: Path, value_json: Union[str, bytes]) -> None:
        """Set the attribute at ``path`` from JSON text as-is."""
        check(_native.lib.jump_record_set(self.handle, _path(path), _native.encode(value_json, "value_json")))

    def set_string(self, path: Path, value: Union[str, bytes, None]) -> None:
        """Set the attribute at ``path`` to a string (None sets JSON null)."""
        check(_native.lib.jump_record_set_string(self.handle, _path(path), _native.encode(value, "value")))

    def changes(self) -> Dict[str, Any]:
        """The unsynced changes: ``{"changed": ["/aboutMe", ...], "update": {...}}``."""
        out = c_void_p()
        check(_native.lib.jump_record_changes(self.handle, byref(out)))
        return _native.take_json(out)

    def discard_changes(self) -> None:
        """Drop the unsynced changes, back to the last state the server acknowledged."""
        check(_native.lib.jump_record_discard_changes(self.handle))

    def to_dict(self) -> Dict[str, Any]:
        """The whole record (``get("/")``)."""
        return self.get("/")

    def close(self) -> None:
        """Release the view (idempotent). The record itself belongs to the client."""
        super().close()
