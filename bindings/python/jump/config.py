"""Config: the settings a Client is created from (a ``jump_config`` handle).

Keys are the JSON names listed in jump.h (captureDomain, captureClientId, storageDirectory, ...). Unknown
keys and wrong value types are refused by the library with :class:`~jump.errors.InvalidArgument`.
"""

from __future__ import annotations

import json
from ctypes import byref, c_void_p
from typing import Any, Dict, Mapping, Optional, Union

from . import _native
from ._handle import NativeHandle
from .errors import check

__all__ = ["Config", "ConfigValue"]

ConfigValue = Union[str, bool, int, None]


class Config(NativeHandle):
    """A libjump configuration.

    ``Config({"captureDomain": url, ...}, captureLocale="fr-FR")`` creates it from a mapping and/or keyword
    arguments (keywords win); ``Config()`` holds the defaults. Use it as a context manager or call
    :meth:`close`; a Client keeps its own copy, so the Config may be closed right after creating clients.
    """

    _free_fn = "jump_config_free"
    _name = "Config"

    def __init__(self, mapping: Optional[Mapping[str, Any]] = None, **keys: Any) -> None:
        super().__init__()
        settings: Dict[str, Any] = dict(mapping or {})
        settings.update(keys)
        out = c_void_p()
        check(_native.lib.jump_config_from_json(json.dumps(settings).encode("utf-8"), byref(out)))
        self._handle = out.value

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Config":
        """A Config from JSON text as-is (e.g. a settings file's content)."""
        self = cls.__new__(cls)
        NativeHandle.__init__(self)  # not Config.__init__: it would parse a second document
        out = c_void_p()
        check(_native.lib.jump_config_from_json(_native.encode(text, "text"), byref(out)))
        self._handle = out.value
        return self

    def set(self, key: Union[str, bytes], value: ConfigValue) -> "Config":
        """Set one key: bool -> jump_config_set_bool, int -> _set_int, str/bytes -> _set_string, None -> default.

        Returns the Config, so calls can be chained.
        """
        k = _native.encode(key, "key")
        lib = _native.lib
        if isinstance(value, bool):
            status = lib.jump_config_set_bool(self.handle, k, 1 if value else 0)
        elif isinstance(value, int):
            if not -(2**63) <= value < 2**63:
                raise OverflowError(f"config value for {key!r} does not fit in int64")
            status = lib.jump_config_set_int(self.handle, k, value)
        elif value is None or isinstance(value, (str, bytes)):
            status = lib.jump_config_set_string(self.handle, k, _native.encode(value, "value"))
        else:
            raise TypeError(f"config value must be str, bool, int or None, not {type(value).__name__}")
        check(status)
        return self

    def __setitem__(self, key: str, value: ConfigValue) -> None:
        self.set(key, value)

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def to_dict(self) -> Dict[str, Any]:
        """The effective settings, defaults included."""
        out = c_void_p()
        check(_native.lib.jump_config_to_json(self.handle, byref(out)))
        return _native.take_json(out)
