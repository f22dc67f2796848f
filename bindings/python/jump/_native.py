"""Locate, load and declare libjump (the C ABI of include/jump.h) through ctypes.

Everything that touches raw pointers lives here:

* :func:`load` finds the shared library (``JUMP_LIBRARY_PATH``, then ``libjump.so`` next to this package,
  then ``ctypes.util.find_library("jump")``), loads it and refuses an ABI version other than 1. It runs on
  first use, not at import (:func:`library`, or reading :data:`lib`): ``import jump``, ``help(jump)`` and IDEs
  work on a machine without libjump, and the first call that needs it raises the ImportError saying where
  it looked;
* :data:`SIGNATURES` (generated into ``_signatures_generated.py`` from include/jump_api.json) declares argtypes/restype
  for every function of jump.h;
* :func:`encode`, :func:`take_string` and :func:`last_error_detail` convert strings in both directions;
* the callback registry keeps Python callables alive for as long as libjump may call them: one module-level
  trampoline per callback shape (never freed) plus a ``userdata`` token per registration, released by the
  ``userdata_free`` callback that libjump calls exactly once;
* the host storage trampolines (:data:`storage_load`, :data:`storage_save`, :data:`storage_erase`) turn
  jump_config_set_storage's callbacks into calls of a Python storage object registered the same way (its
  token is the ``context``; :data:`release` is the ``context_free``).

Handles (``jump_config*``, ``jump_client*``, ...) and ``json_t*`` are plain ``c_void_p`` values (Python ints).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import itertools
import json
import logging
import os
import sys
import threading
import time
from ctypes import c_void_p
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

# The C types, the callback types and SIGNATURES are generated from include/jump_api.json
# (scripts/generate-bindings.py); the package reaches them as _native.NAME, hence the explicit re-exports.
from ._signatures_generated import (
    AUTHENTICATE as AUTHENTICATE,
    CALLBACK as CALLBACK,
    FREE_FN as FREE_FN,
    OPEN_URL as OPEN_URL,
    SIGNATURES as SIGNATURES,
    STORAGE_ERASE as STORAGE_ERASE,
    STORAGE_LOAD as STORAGE_LOAD,
    STORAGE_SAVE as STORAGE_SAVE,
    STORAGE_SINK as STORAGE_SINK,
)
from ._statuses_generated import JUMP_E_NOT_FOUND, JUMP_E_STORAGE, JUMP_OK

#: The ABI version this binding is written for (JUMP_ABI_VERSION in jump.h).
ABI_VERSION = 1
#: The file name of the library.
LIBRARY_NAME = "libjump.so"

# ---------------------------------------------------------------------------------------------------------
# Locating and loading
# ---------------------------------------------------------------------------------------------------------


def candidates() -> List[Tuple[str, Optional[str]]]:
    """The places :func:`load` tries, in order, as (description, path or None when not applicable)."""
    here = os.path.dirname(os.path.abspath(__file__))
    env = os.environ.get("JUMP_LIBRARY_PATH")
    found = ctypes.util.find_library("jump")
    return [
        ("$JUMP_LIBRARY_PATH", env or None),
        ("next to the package", os.path.join(here, LIBRARY_NAME)),
        ('ctypes.util.find_library("jump")', found),
    ]


def check_abi(actual: int, path: str = "libjump") -> None:
    """Raise ImportError unless ``actual`` (the library's jump_abi_version()) is the one this binding speaks."""
    if actual != ABI_VERSION:
        raise ImportError(
            f"{path} has ABI version {actual}, but this Python binding needs ABI version {ABI_VERSION}; "
            "install a matching libjump or binding"
        )


def _declare(lib: ctypes.CDLL, path: str) -> None:
    for name, (restype, argtypes) in SIGNATURES.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise ImportError(f"{path} does not export {name}: not a libjump matching include/jump.h") from None
        fn.restype = restype
        fn.argtypes = argtypes


def load() -> Tuple[ctypes.CDLL, str]:
    """Find, load, declare and ABI-check libjump; return (library, path). Raises ImportError."""
    tried: List[str] = []
    for where, path in candidates():
        if not path:
            tried.append(f"{where}: not set" if where.startswith("$") else f"{where}: nothing found")
            continue
        if os.sep in path and not os.path.exists(path):
            tried.append(f"{where}: {path} (no such file)")
            if where.startswith("$"):
                # An explicit override that points nowhere is a configuration error, not a hint.
                break
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as exc:
            tried.append(f"{where}: {path} ({exc})")
            if where.startswith("$"):
                break
            continue
        _declare(lib, path)
        check_abi(int(lib.jump_abi_version()), path)
        return lib, path
    raise ImportError("cannot load libjump; tried:\n  " + "\n  ".join(tried))


#: The loaded library and where it came from. Not set until first use: reading ``_native.lib`` (or
#: ``library_path``) before that goes through the module ``__getattr__`` below, which loads it and binds both
#: names as plain module globals, so every later ``_native.lib.jump_x`` is an ordinary attribute lookup.
#: Code in this module calls :func:`library` instead (a global name lookup would not reach ``__getattr__``).
lib: ctypes.CDLL
library_path: str

_load_lock = threading.Lock()
# Called once, right after the library is loaded (e.g. jump.log's default logging bridge); see on_load.
_on_load: List[Callable[[], None]] = []


def library() -> ctypes.CDLL:
    """libjump, loaded on first use (raises the ImportError of :func:`load` when it cannot be)."""
    loaded: Optional[ctypes.CDLL] = globals().get("lib")
    if loaded is not None:
        return loaded
    with _load_lock:  # two threads using the package for the first time load (and declare) it once
        loaded = globals().get("lib")
        if loaded is None:
            loaded, path = load()  # raises; a later call tries again (the environment may have been fixed)
            globals()["library_path"] = path
            globals()["lib"] = loaded
            hooks = list(_on_load)
        else:
            hooks = []
    for hook in hooks:  # outside the lock: a hook calls into the library (through library())
        try:
            hook()
        except Exception:  # noqa: BLE001 - an optional extra (logging) must not make the library unusable
            pass
    return loaded


def loaded() -> bool:
    """True once the library has been loaded (nothing is loaded by asking)."""
    return "lib" in globals()


def on_load(hook: Callable[[], None]) -> None:
    """Run ``hook()`` once the library is loaded: now, when it already is. Exceptions are ignored."""
    _on_load.append(hook)
    if loaded():
        try:
            hook()
        except Exception:  # noqa: BLE001 - see library()
            pass


def __getattr__(name: str) -> Any:
    # PEP 562: only reached while ``lib`` and ``library_path`` are not module globals yet, i.e. before the
    # first load.
    if name in ("lib", "library_path"):
        library()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------------------------------------
# Strings
# ---------------------------------------------------------------------------------------------------------

StrIn = Union[str, bytes, None]


def encode(value: StrIn, name: str = "argument") -> Optional[bytes]:
    """A string argument for C: str -> UTF-8 bytes, bytes as-is (even invalid UTF-8), None -> NULL."""
    if value is None or isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"{name} must be str, bytes or None, not {type(value).__name__}")


def take_string(ptr: c_void_p) -> Optional[str]:
    """Copy an owned ``char*`` out-string into a Python str and free it with jump_string_free (NULL -> None)."""
    address = ptr.value
    if not address:
        return None
    try:
        return ctypes.string_at(address).decode("utf-8")
    finally:
        library().jump_string_free(address)


def take_json(ptr: c_void_p) -> Any:
    """Like :func:`take_string`, parsed as JSON (NULL -> None)."""
    text = take_string(ptr)
    return None if text is None else json.loads(text)


def last_error_detail() -> Dict[str, Any]:
    """The calling thread's jump_error_last() as a dict (call right after the failing function)."""
    raw = library().jump_error_last()
    if not raw:
        return {}
    try:
        detail = json.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return {"message": raw.decode("utf-8", "replace")}
    return detail if isinstance(detail, dict) else {"message": str(detail)}


def status_str(status: int) -> str:
    """jump_status_str(status) as a Python str."""
    raw = library().jump_status_str(status)
    return raw.decode("utf-8", "replace") if raw else f"status {status}"


# ---------------------------------------------------------------------------------------------------------
# Callback registry
# ---------------------------------------------------------------------------------------------------------

# A registration is a payload handler (Callable[[bytes], None]) or a host storage object (see storage_load).
_registry: Dict[int, Any] = {}
_registry_lock = threading.Lock()
_tokens = itertools.count(1)
_in_callback = threading.local()
# One element per callback currently running Python code (list.append/pop are atomic under the GIL).
_active: List[None] = []
_ever_called = False  # set once any callback ran


def register(handler: Any) -> int:
    """Keep ``handler`` alive and return the userdata token to pass with :data:`trampoline`.

    The entry is dropped when libjump calls :data:`release` with the token (exactly once), or by
    :func:`unregister` when the function it was given to failed before taking ownership.
    """
    token = next(_tokens)
    with _registry_lock:
        _registry[token] = handler
    return token


def unregister(token: int) -> None:
    """Drop a registration (no-op when already released)."""
    with _registry_lock:
        handler = _registry.pop(token, None)
    del handler  # dropped outside the lock: its referents' __del__ may call into the registry again


def in_callback() -> bool:
    """True while the calling thread is running a libjump callback through this binding."""
    return bool(getattr(_in_callback, "depth", 0))


def _trampoline(userdata: Optional[int], payload: Optional[bytes]) -> None:
    # Never let an exception escape: ctypes would print and swallow it. Handlers catch their own errors;
    # this is the last line of defence (e.g. during interpreter shutdown).
    global _ever_called
    _active.append(None)
    _ever_called = True
    try:
        with _registry_lock:
            handler = _registry.get(userdata or 0)
        if handler is None:
            return
        _in_callback.depth = getattr(_in_callback, "depth", 0) + 1
        try:
            handler(payload or b"")
        finally:
            _in_callback.depth -= 1
    except BaseException:  # noqa: BLE001 - see above
        pass
    finally:
        _active.pop()


def _release(userdata: Optional[int]) -> None:
    # Dropping the handler may drop the last reference to user objects (closures, even a Client); mark the
    # thread as "in a callback" so their __del__ defers anything that could wait on this thread.
    _active.append(None)
    try:
        _in_callback.depth = getattr(_in_callback, "depth", 0) + 1
        try:
            unregister(userdata or 0)
        finally:
            _in_callback.depth -= 1
    except BaseException:  # noqa: BLE001
        pass
    finally:
        _active.pop()


#: The one jump_callback every registration uses; lives as long as the module (i.e. the process).
trampoline = CALLBACK(_trampoline)
#: The one jump_free_fn every registration uses.
release = FREE_FN(_release)


# ---------------------------------------------------------------------------------------------------------
# Host storage (jump_config_set_storage)
# ---------------------------------------------------------------------------------------------------------


_storage_log = logging.getLogger("jump")


def _storage_call(userdata: Optional[int], key: Optional[bytes], what: str, call: Callable[[Any, str], int]) -> int:
    # Runs call(storage, key) for a registered storage object. Never lets an exception escape: ctypes would
    # print it and return 0 (JUMP_OK) to libjump. Anything that goes wrong is JUMP_E_STORAGE.
    try:
        _active.append(None)
        try:
            with _registry_lock:
                storage = _registry.get(userdata or 0)
            if storage is None:
                return JUMP_E_STORAGE
            name = (key or b"").decode("utf-8", "replace")
            _in_callback.depth = getattr(_in_callback, "depth", 0) + 1
            try:
                return call(storage, name)
            except BaseException as exc:  # noqa: BLE001 - the storage's failure is a JUMP_E_STORAGE status
                try:
                    _storage_log.warning("jump host storage %s(%r) raised %r", what, name, exc)
                except BaseException:  # noqa: BLE001
                    pass
                return JUMP_E_STORAGE
            finally:
                _in_callback.depth -= 1
        finally:
            _active.pop()
    except BaseException:  # noqa: BLE001 - last line of defence (e.g. during interpreter shutdown)
        return JUMP_E_STORAGE


def _load(userdata: Optional[int], key: Optional[bytes], sink: Optional[int], sink_context: Optional[int]) -> int:
    def call(storage: Any, name: str) -> int:
        data = storage.load(name)
        if data is None:
            return JUMP_E_NOT_FOUND
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"load() must return bytes or None, not {type(data).__name__}")
        data = bytes(data)
        if not sink:
            raise ValueError("libjump passed no sink")
        STORAGE_SINK(sink)(sink_context, data, len(data))
        return JUMP_OK

    return _storage_call(userdata, key, "load", call)


def _save(userdata: Optional[int], key: Optional[bytes], data: Optional[int], length: int) -> int:
    def call(storage: Any, name: str) -> int:
        if length and not data:
            raise ValueError("libjump passed NULL data")
        storage.save(name, ctypes.string_at(data or 0, length) if length else b"")
        return JUMP_OK

    return _storage_call(userdata, key, "save", call)


def _erase(userdata: Optional[int], key: Optional[bytes]) -> int:
    def call(storage: Any, name: str) -> int:
        storage.erase(name)
        return JUMP_OK

    return _storage_call(userdata, key, "erase", call)


#: The jump_storage_*_fn every storage registration uses; live as long as the module.
storage_load = STORAGE_LOAD(_load)
storage_save = STORAGE_SAVE(_save)
storage_erase = STORAGE_ERASE(_erase)


def userdata(token: int) -> c_void_p:
    """The ``void *userdata`` value for a registry token."""
    return c_void_p(token)


def run_outside_callbacks(fn: Callable[[], None]) -> None:
    """Run ``fn`` now, or on a short-lived Python thread when called from a libjump callback thread (where a
    call such as jump_client_free could wait for that very thread)."""
    if in_callback():
        threading.Thread(target=fn, name="jump-deferred-free", daemon=True).start()
    else:
        fn()


def drain(timeout: float) -> bool:
    """Wait (at most ``timeout`` seconds) until libjump holds no Python callback and none is running.

    Used at interpreter exit: CPython ends any foreign thread that calls into Python once finalization has
    started (pthread_exit, before 3.14), which libjump's callback threads (libdispatch workers) do not survive.
    Returns True when drained.
    """
    if not _registry and not _active and not _ever_called:
        return True
    deadline = time.monotonic() + timeout
    while _registry or _active:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    # A callback thread that just left Python code may still need the GIL once to return; let it.
    time.sleep(0.05)
    return True


def is_finalizing() -> bool:
    """True during interpreter shutdown, when __del__ methods must not call into the library."""
    return sys is None or sys.is_finalizing()
