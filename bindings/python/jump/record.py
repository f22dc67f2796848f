"""Record: a live view of the signed-in user's record (a ``jump_record`` handle).

Paths are libjump's: ``"/"`` (the whole record), ``"/aboutMe"``, ``"/primaryAddress/city"``,
``"/photos#12/value"`` (a plural element by id; elements appended locally have negative ids until a sync);
a bare name like ``"aboutMe"`` is taken as ``"/aboutMe"``. The view reads like a dict::

    record["/primaryAddress/city"] = "Lyon"
    path = record.append("/photos", {"value": "me.png"})     # "/photos#-1"
    for element in record.elements("/photos"): ...            # paths, in order
    del record["/aboutMe"]                                    # clear: null, or no elements for a plural

Edits stay local (saved with the session, so they survive a restart) until ``Client.sync()``. After sign-out
or another sign-in the view's calls raise :class:`~jump.errors.NotSignedIn`.
"""

from __future__ import annotations

import json
from ctypes import byref, c_double, c_int, c_int64, c_size_t, c_void_p
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Union, cast

from . import _native
from ._handle import NativeHandle
from .errors import check

if TYPE_CHECKING:
    from .results import RecordChanges

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

    def get_int(self, path: Path) -> int:
        """The integer at ``path``; JSON null raises NotFound, another type InvalidArgument."""
        out = c_int64()
        check(_native.lib.jump_record_get_int64(self.handle, _path(path), byref(out)))
        return out.value

    def get_float(self, path: Path) -> float:
        """The number at ``path`` as a float; JSON null raises NotFound."""
        out = c_double()
        check(_native.lib.jump_record_get_double(self.handle, _path(path), byref(out)))
        return out.value

    def get_bool(self, path: Path) -> bool:
        """The boolean at ``path``; JSON null raises NotFound."""
        out = c_int()
        check(_native.lib.jump_record_get_bool(self.handle, _path(path), byref(out)))
        return bool(out.value)

    def get_or(self, path: Path, default: Any = None) -> Any:
        """The value at ``path``, or ``default`` when the path does not exist (dict.get)."""
        try:
            return self.get(path)
        except KeyError:
            return default

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, (str, bytes)):
            return False
        try:
            self.get(path)
            return True
        except KeyError:
            return False

    def __iter__(self) -> Iterator[str]:
        """The record's top-level attribute names (like iterating a dict)."""
        return iter(sorted(self.get("/").keys()))

    def keys(self) -> List[str]:
        return list(self)

    def clear(self, path: Path) -> None:
        """Clear ``path``: JSON null for a value or an object, no elements for a plural."""
        check(_native.lib.jump_record_clear(self.handle, _path(path)))

    def __delitem__(self, path: Path) -> None:
        self.clear(path)

    def append(self, plural_path: Path, element: Dict[str, Any]) -> str:
        """Append ``element`` (a dict without "id") to a plural; returns the new element's path."""
        text = json.dumps(element, ensure_ascii=False, allow_nan=False).encode("utf-8")
        out = c_void_p()
        check(_native.lib.jump_record_append(self.handle, _path(plural_path), text, byref(out)))
        return _native.take_string(out) or ""

    def remove(self, element_path: Path) -> None:
        """Remove the plural element at ``element_path`` (e.g. ``"/photos#12"``)."""
        check(_native.lib.jump_record_remove(self.handle, _path(element_path)))

    def replace(self, plural_path: Path, elements: List[Dict[str, Any]]) -> None:
        """Replace every element of a plural with ``elements`` (new elements: their ids are ignored)."""
        text = json.dumps(list(elements), ensure_ascii=False, allow_nan=False).encode("utf-8")
        check(_native.lib.jump_record_replace_plural(self.handle, _path(plural_path), text))

    def count(self, plural_path: Path) -> int:
        """The number of elements of a plural."""
        out = c_size_t()
        check(_native.lib.jump_record_element_count(self.handle, _path(plural_path), byref(out)))
        return out.value

    def elements(self, plural_path: Path) -> List[str]:
        """The paths of a plural's elements, in order (``["/photos#12", "/photos#-1"]``)."""
        out = c_void_p()
        check(_native.lib.jump_record_element_paths(self.handle, _path(plural_path), byref(out)))
        return cast("List[str]", _native.take_json(out))

    def revert(self, path: Path) -> None:
        """Drop the unsynced edits at ``path`` and below (e.g. to take the server's value after a Conflict)."""
        check(_native.lib.jump_record_revert(self.handle, _path(path)))

    def changes(self) -> RecordChanges:
        """What a sync would send now: ``{"changed": [paths], "update": {...}, "requests": [...]}``."""
        out = c_void_p()
        check(_native.lib.jump_record_changes(self.handle, byref(out)))
        return cast("RecordChanges", _native.take_json(out))

    def discard_changes(self) -> None:
        """Drop the unsynced changes, back to the last state the server acknowledged."""
        check(_native.lib.jump_record_discard_changes(self.handle))

    def to_dict(self) -> Dict[str, Any]:
        """The whole record (``get("/")``)."""
        return cast("Dict[str, Any]", self.get("/"))

    def close(self) -> None:
        """Release the view (idempotent). The record itself belongs to the client."""
        super().close()
