"""Exceptions: one :class:`JumpError` subclass per ``jump_status`` code of jump.h.

A synchronous failure is turned into an exception right after the failing call, on the same thread, from
``jump_error_last()`` (thread-local in libjump). An asynchronous failure carries the same detail object in
its completion payload (``"error"`` key); :func:`error_from_detail` builds the exception from either.

Where a builtin exception means the same thing, the class is also that builtin (multiple inheritance), so
code that knows nothing of jump catches it the Python way:

=====================  ======================  =================================================
class                  also an instance of     why
=====================  ======================  =================================================
InvalidArgument        ``ValueError``          a bad value was passed in
InvalidHandle          ``ValueError``          like I/O on a closed file: the object is closed
NetworkError           ``ConnectionError``     the server could not be reached
Timeout                ``TimeoutError``        no answer in time (also ``Request.wait(timeout)``)
NotFound               ``KeyError``            ``record[path]`` of a missing path
=====================  ======================  =================================================

``ConnectionError`` and ``TimeoutError`` are ``OSError`` subclasses: on these two ``errno`` and ``filename``
are None and ``strerror`` is the message (libjump does not report the OS error number).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple, Type

from . import _native
from ._statuses_generated import ERROR_CLASSES, STATUS_NAMES

__all__ = [
    "JumpError",
    "InvalidArgument",
    "InvalidHandle",
    "NetworkError",
    "Timeout",
    "ServerError",
    "NotSignedIn",
    "BadCredentials",
    "MergeRequired",
    "RegistrationRequired",
    "ValidationFailed",
    "NotFound",
    "SessionExpired",
    "StorageError",
    "Cancelled",
    "Unsupported",
    "Busy",
    "InternalError",
    "Conflict",
    "AlreadySignedIn",
    "STATUS_NAMES",
    "check",
    "error_from_detail",
    "last_error",
]


class JumpError(Exception):
    """A libjump failure.

    Attributes:
        status: the negative ``jump_status`` code.
        status_name: its name, e.g. ``"JUMP_E_VALIDATION"`` (as given by the library's detail).
        message: the human-readable message (never contains secrets).
        detail: the whole error detail object (``jump_error_last()`` parsed, or a completion's ``"error"``).
        server, invalid_fields, argument, merge_token, existing_provider, conflicting_provider,
        social_registration_token, prereg_record, reason: the detail's fields of the same name, None when
        absent.
    """

    #: The status code this class stands for (None for the base class; set below, from _statuses_generated.ERROR_CLASSES).
    code: Optional[int] = None

    def __init__(self, status: int, message: str = "", detail: Optional[Mapping[str, Any]] = None) -> None:
        detail = dict(detail or {})
        self.status: int = status
        self.detail: Dict[str, Any] = detail
        self.message: str = message or str(detail.get("message") or "") or _native.status_str(status)
        self.status_name: Optional[str] = detail.get("status_name")
        self.server: Optional[Dict[str, Any]] = detail.get("server")
        self.invalid_fields: Optional[Dict[str, Any]] = detail.get("invalid_fields")
        self.argument: Optional[str] = detail.get("argument")
        self.merge_token: Optional[str] = detail.get("merge_token")
        self.existing_provider: Optional[str] = detail.get("existing_provider")
        self.conflicting_provider: Optional[str] = detail.get("conflicting_provider")
        self.social_registration_token: Optional[str] = detail.get("social_registration_token")
        self.prereg_record: Optional[Dict[str, Any]] = detail.get("prereg_record")
        self.reason: Optional[str] = detail.get("reason")
        super().__init__(status, self.message, detail)

    @property
    def outcome_unknown(self) -> bool:
        """True for a write whose answer was lost after it was sent (``reason == "outcome_unknown"``): the
        server may or may not have applied it. libjump settles what it can (appends, record updates,
        registration, password change); this is left for what it cannot (a share, a record delete, a
        sign-in-token call, ``Client.request``), and for a write that timed out after it left (a ``Timeout``,
        not settled: a server too slow to answer is not sent more). Read back before sending it again."""
        return self.reason == "outcome_unknown"

    def __str__(self) -> str:
        name = self.status_name or type(self).__name__
        return f"{self.message} ({name}, {self.status})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, message={self.message!r})"

    def __reduce__(self) -> Tuple[Type["JumpError"], Tuple[int, str, Dict[str, Any]]]:
        # Pickling (e.g. through multiprocessing) keeps the subclass and detail. Also overrides OSError's
        # __reduce__ for the classes that are OSErrors too.
        return (type(self), (self.status, self.message, self.detail))


class _OSErrorFix(JumpError, OSError):
    """For the JumpErrors that are also OSErrors: OSError.__init__ takes the (status, message, detail) args
    for (errno, strerror, filename). A jump status is no errno and the detail no file name, so put right
    what OSError's own code (and code catching OSError) reads."""

    def __init__(self, status: int, message: str = "", detail: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__(status, message, detail)
        self.args = (self.status, self.message, self.detail)  # OSError keeps only (errno, strerror)
        self.errno = None
        self.strerror = self.message
        self.filename = None


class InvalidArgument(JumpError, ValueError):
    """JUMP_E_INVALID_ARGUMENT: NULL where a value is needed, bad UTF-8/JSON, unknown config key, ... Also a
    ``ValueError``."""


class InvalidHandle(JumpError, ValueError):
    """JUMP_E_INVALID_HANDLE: a freed, NULL or wrong kind of handle (e.g. a closed object used again). Also a
    ``ValueError``, as I/O on a closed file is."""


class NetworkError(_OSErrorFix, ConnectionError):
    """JUMP_E_NETWORK: could not reach the server (DNS, refused, TLS, reset). Also a ``ConnectionError``."""


class Timeout(_OSErrorFix, TimeoutError):
    """JUMP_E_TIMEOUT: the server did not answer in time (or Request.wait ran out of time). Also a
    ``TimeoutError`` (which ``concurrent.futures.TimeoutError`` and, from Python 3.11,
    ``asyncio.TimeoutError`` are)."""


class ServerError(JumpError):
    """JUMP_E_SERVER: the server answered with an error, or with something that is not JSON.

    After :meth:`Client.share`, :attr:`results` has every provider's outcome (the failed ones with
    ``error_class``, ``code`` and ``message``)."""

    @property
    def results(self) -> Dict[str, Any]:
        """``detail["results"]`` of a failed share: ``{provider: {"ok", "method"|"error_class", ...}}``."""
        return dict(self.detail.get("results") or {})


class NotSignedIn(JumpError):
    """JUMP_E_NOT_SIGNED_IN: the operation needs a signed-in user."""


class BadCredentials(JumpError):
    """JUMP_E_BAD_CREDENTIALS: wrong user name, email or password."""


class MergeRequired(JumpError):
    """JUMP_E_MERGE_REQUIRED: the identity's email belongs to an existing account.

    ``existing_provider`` is how that account signs in ("capture" for a password: use
    ``Client.sign_in_merge(user, password, merge_token)``; else a provider: sign in with it passing
    ``merge_token=``), ``conflicting_provider`` the provider just used, ``merge_token`` a secret to hand back."""


class RegistrationRequired(JumpError):
    """JUMP_E_REGISTRATION_REQUIRED: no account has this social identity; complete ``prereg_record`` (record
    attributes from the provider's profile) and call ``Client.register_social(social_registration_token,
    attributes)``. The token is a secret."""

    @property
    def provider(self) -> Optional[str]:
        """The provider of the identity to register."""
        return self.detail.get("provider")

    @property
    def prereg_fields(self) -> Dict[str, Any]:
        """The social registration form's fields as the server pre-filled them."""
        return dict(self.detail.get("prereg_fields") or {})


class ValidationFailed(JumpError):
    """JUMP_E_VALIDATION: form validation failed; invalid_fields maps form field names to messages."""


class NotFound(JumpError, KeyError):
    """JUMP_E_NOT_FOUND: no such attribute, path, user or flow (also a KeyError, for record[path])."""


class SessionExpired(JumpError):
    """JUMP_E_EXPIRED: the session can no longer be refreshed; sign in again."""


class StorageError(JumpError):
    """JUMP_E_STORAGE: the session store could not be read or written (nothing was deleted)."""


class Cancelled(JumpError):
    """JUMP_E_CANCELLED: the operation was cancelled (Request.cancel, client closed), or the user cancelled
    a social sign-in on the provider's page (``reason == "user_canceled"``)."""


class Unsupported(JumpError):
    """JUMP_E_UNSUPPORTED: not possible with this configuration, or not implemented."""


class Busy(JumpError):
    """JUMP_E_BUSY: would deadlock or conflict (e.g. Request.wait inside a libjump callback)."""


class InternalError(JumpError):
    """JUMP_E_INTERNAL: a bug in libjump; the detail says where."""


class Conflict(JumpError):
    """JUMP_E_CONFLICT: the record changed both here and on the server. ``detail["conflicts"]`` lists
    ``{"path", "local", "server", "base"}``; the local values were kept (``Record.revert(path)`` takes the
    server's, ``Client.sync()`` sends the local ones)."""

    @property
    def conflicts(self) -> List[Dict[str, Any]]:
        return list(self.detail.get("conflicts") or [])


class AlreadySignedIn(JumpError):
    """JUMP_E_ALREADY_SIGNED_IN: another user is signed in. ``detail["mismatch"]`` names what differs
    (user_id, environment or region); sign out first, or use ``Client.identify_external_user``."""


# The codes, their names and which class stands for which are generated from include/jump_api.json
# (_statuses_generated.py): a class of this file is named there, and gets its code here.
_BY_CODE: Dict[int, Type[JumpError]] = {code: globals()[name] for code, name in ERROR_CLASSES.items()}
for _code, _class in _BY_CODE.items():
    _class.code = _code


def error_class(status: int) -> Type[JumpError]:
    """The exception class for a status code (JumpError for unknown codes)."""
    return _BY_CODE.get(status, JumpError)


def error_from_detail(detail: Optional[Mapping[str, Any]], status: Optional[int] = None) -> JumpError:
    """Build the exception for an error detail object (``status`` wins over the detail's own "status")."""
    detail = dict(detail or {})
    if status is None:
        try:
            status = int(detail.get("status", -17))
        except (TypeError, ValueError):
            status = -17
    return error_class(status)(status, str(detail.get("message") or ""), detail)


def last_error(status: int) -> JumpError:
    """The exception for ``status`` with this thread's jump_error_last() detail. Call right after the failure."""
    return error_from_detail(_native.last_error_detail(), status)


def check(status: int) -> None:
    """Raise the mapped JumpError when ``status`` is not JUMP_OK (reads jump_error_last on this thread)."""
    if status != 0:
        raise last_error(status)


def local_error(cls: Type[JumpError], message: str, **fields: Any) -> JumpError:
    """An error raised by the binding itself (no library call failed), shaped like the library's."""
    assert cls.code is not None
    detail: Dict[str, Any] = {"status": cls.code, "status_name": STATUS_NAMES.get(cls.code), "message": message}
    detail.update(fields)
    return cls(cls.code, message, detail)
