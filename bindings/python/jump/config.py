"""Config: the settings a Client is created from (a ``jump_config`` handle).

Keys are the JSON names listed in jump.h (captureDomain, captureClientId, storageDirectory, ...). Unknown
keys and wrong value types are refused by the library with :class:`~jump.errors.InvalidArgument`.
:meth:`Config.set_storage` puts the session in a host store (keychain, keystore, ...) instead of files.
"""

from __future__ import annotations

import json
import weakref
from ctypes import byref, c_void_p
from typing import Any, Dict, Mapping, Optional, Protocol, Sequence, Union, cast

from . import _native
from ._handle import NativeHandle
from .errors import check, last_error

__all__ = ["Config", "ConfigValue", "Storage"]

#: A list (pinnedPublicKeys) is a sequence of strings.
ConfigValue = Union[str, bool, int, Sequence[str], None]

#: Configs that hold a host storage: closed at interpreter exit so libjump releases the storage objects
#: (their context_free) before Python finalizes.
_storage_configs: "weakref.WeakSet[Config]" = weakref.WeakSet()


class Storage(Protocol):
    """What :meth:`Config.set_storage` takes: a key/value store for libjump's few entries (short ASCII keys).

    * ``load(key) -> bytes | None``: the bytes saved under key, or None when nothing is saved;
    * ``save(key, data)``: store data under key, replacing what was there (atomically if the store can);
    * ``erase(key)``: delete key (a missing key is not an error).

    An exception raised by any of them is reported to libjump as JUMP_E_STORAGE (and logged to the "jump"
    logger): a failing load is a read failure (the client is not signed in, ``state["restore_error"]`` is
    set, nothing is erased and :meth:`Client.restore` retries), a failing save after a sign-in shows in
    ``state["storage_error"]``, a failing erase makes :meth:`Client.sign_out` raise StorageError.
    The methods may run on any thread (never concurrently for one key of one client) and must not call
    methods of the Client they serve.
    """

    def load(self, key: str) -> Optional[bytes]: ...

    def save(self, key: str, data: bytes) -> None: ...

    def erase(self, key: str) -> None: ...


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
        self._storage: Optional[Storage] = None
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
        self._storage = None
        out = c_void_p()
        check(_native.lib.jump_config_from_json(_native.encode(text, "text"), byref(out)))
        self._handle = out.value
        return self

    def set(self, key: Union[str, bytes], value: ConfigValue) -> "Config":
        """Set one key: bool -> jump_config_set_bool, int -> _set_int, str/bytes -> _set_string, None -> default,
        a list or tuple of strings (pinnedPublicKeys) -> _set_string with its JSON text.

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
        elif isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
            status = lib.jump_config_set_string(self.handle, k, json.dumps(list(value)).encode("utf-8"))
        else:
            raise TypeError(f"config value must be str, bool, int, a list of str or None, not {type(value).__name__}")
        check(status)
        return self

    def set_storage(self, storage: Optional[Storage]) -> "Config":
        """Make clients created from this Config keep their session (and cached flow) in ``storage``, an
        object with ``load(key) -> bytes | None``, ``save(key, data)`` and ``erase(key)`` (see
        :class:`Storage`), instead of files in storageDirectory; None goes back to files.

        libjump keeps a reference to ``storage`` until no Config or Client uses it any more (clients created
        earlier keep the storage they were created with). Returns the Config, so calls can be chained.
        """
        h = self.handle
        lib = _native.lib
        if storage is None:
            check(lib.jump_config_set_storage(
                h, _native.STORAGE_LOAD(), _native.STORAGE_SAVE(), _native.STORAGE_ERASE(), None, _native.FREE_FN()
            ))
            self._storage = None
            return self
        missing = [name for name in ("load", "save", "erase") if not callable(getattr(storage, name, None))]
        if missing:
            raise TypeError(
                f"storage must have callable load, save and erase methods; {type(storage).__name__} lacks "
                + ", ".join(missing)
            )
        token = _native.register(storage)
        status = lib.jump_config_set_storage(
            h, _native.storage_load, _native.storage_save, _native.storage_erase, _native.userdata(token),
            _native.release,
        )
        if status != 0:
            error = last_error(status)
            _native.unregister(token)  # libjump released it already (context_free runs on errors too): a no-op
            raise error
        self._storage = storage
        _storage_configs.add(self)
        return self

    def close(self) -> None:
        """Release the config (idempotent). Clients created from it keep their copy (and its storage)."""
        super().close()
        self._storage = None

    @property
    def storage(self) -> Optional[Storage]:
        """The host storage set with :meth:`set_storage`, or None (files in storageDirectory)."""
        return self._storage

    def __setitem__(self, key: str, value: ConfigValue) -> None:
        self.set(key, value)

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def to_dict(self) -> Dict[str, Any]:
        """The effective settings, defaults included."""
        out = c_void_p()
        check(_native.lib.jump_config_to_json(self.handle, byref(out)))
        return cast("Dict[str, Any]", _native.take_json(out))
