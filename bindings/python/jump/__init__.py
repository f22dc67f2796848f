"""jump: Python binding of libjump, the JUMP (Janrain Capture) sign-in and user-record SDK core.

    import jump

    with jump.Client({"captureDomain": url, "captureClientId": "...", ...}) as client:
        client.sign_in("ada@example.com", "correct horse")
        with client.record as record:
            record["/aboutMe"] = "Hello"
        client.sync()

Beyond the C API: the exceptions are also builtin ones where that fits (``NetworkError`` is a
``ConnectionError``, ``Timeout`` a ``TimeoutError``, ``InvalidArgument`` and ``InvalidHandle`` are ``ValueError``,
``NotFound`` a ``KeyError``); libjump's log lines are records of the ``"jump"`` logger (:mod:`jump.log`;
``jump.disable_logging()`` turns that off); results are typed (:mod:`jump.results`, TypedDicts: plain dicts at
run time); ``await client.sign_in_async(...)`` works in asyncio and ``request.future()`` is a
``concurrent.futures.Future``; ``python -m jump`` is a small command line (``python -m jump --help``).

The shared library is found through ``$JUMP_LIBRARY_PATH``, then ``libjump.so`` next to this package (where
the platform wheel of ``make wheel`` puts it), then ``ctypes.util.find_library("jump")``. It is loaded on
first use, not at import, so that ``import jump`` and ``help(jump)`` work on a machine without it: the first
call that needs it raises ImportError when none of those works or when its ABI version is not the one this
binding speaks.
"""

from __future__ import annotations

from typing import Union, cast

from . import _native
from .client import Client, EventCallback, LogCallback, set_log_callback
from .config import Config, Storage
from .errors import (
    BadCredentials,
    Busy,
    Cancelled,
    InternalError,
    Conflict,
    AlreadySignedIn,
    InvalidArgument,
    InvalidHandle,
    JumpError,
    MergeRequired,
    NetworkError,
    NotFound,
    NotSignedIn,
    RegistrationRequired,
    ServerError,
    SessionExpired,
    StorageError,
    Timeout,
    Unsupported,
    ValidationFailed,
    error_class,
)
from .log import disable_logging, enable_logging, logging_enabled
from .record import Record
from .request import CompletionCallback, Request
from .results import (
    ClientState,
    ClientStatus,
    Credentials,
    RecordChanges,
    RegistrationResult,
    SignInResult,
    SignInTokenInfo,
    SignInWithTokenResult,
    SocialOutcome,
    SyncResult,
)

#: The binding's own version.
__version__ = "0.1.0"
#: The ABI version this binding speaks (the library's must be equal).
ABI_VERSION = _native.ABI_VERSION


def version() -> str:
    """The library's version string, e.g. "0.1.0"."""
    return cast(bytes, _native.lib.jump_version()).decode("utf-8")


def version_number() -> int:
    """The library's version as (major << 16) | (minor << 8) | patch."""
    return int(_native.lib.jump_version_number())


def abi_version() -> int:
    """The library's ABI version."""
    return int(_native.lib.jump_abi_version())


def status_str(status: int) -> str:
    """The library's description of a status code."""
    return _native.status_str(status)


def decode_sign_in_token(sign_in_token: Union[str, bytes]) -> SignInTokenInfo:
    """What a sign-in token says, without using it: ``{"user_id", "team_id", "environment", "region",
    "expires_at"}``. A malformed token raises InvalidArgument saying what is wrong."""
    import json
    from ctypes import byref, c_void_p

    from .errors import check

    out = c_void_p()
    check(_native.lib.jump_sign_in_token_decode(_native.encode(sign_in_token, "sign_in_token"), byref(out)))
    return cast(SignInTokenInfo, json.loads(_native.take_string(out) or "null"))


def library_path() -> str:
    """The path libjump was loaded from."""
    return _native.library_path


__all__ = [
    "ABI_VERSION",
    "ClientState",
    "ClientStatus",
    "Credentials",
    "RecordChanges",
    "RegistrationResult",
    "SignInResult",
    "SignInTokenInfo",
    "SignInWithTokenResult",
    "SocialOutcome",
    "SyncResult",
    "disable_logging",
    "enable_logging",
    "logging_enabled",
    "decode_sign_in_token",
    "BadCredentials",
    "Busy",
    "Cancelled",
    "Client",
    "CompletionCallback",
    "Config",
    "EventCallback",
    "InternalError",
    "Conflict",
    "AlreadySignedIn",
    "InvalidArgument",
    "InvalidHandle",
    "JumpError",
    "LogCallback",
    "MergeRequired",
    "NetworkError",
    "NotFound",
    "NotSignedIn",
    "Record",
    "RegistrationRequired",
    "Request",
    "ServerError",
    "SessionExpired",
    "Storage",
    "StorageError",
    "Timeout",
    "Unsupported",
    "ValidationFailed",
    "__version__",
    "abi_version",
    "error_class",
    "library_path",
    "set_log_callback",
    "status_str",
    "version",
    "version_number",
]
