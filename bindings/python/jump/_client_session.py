""":class:`jump.Client`'s session: its state, sign-in and registration, sign-out, the record.
"""

from __future__ import annotations

from ctypes import byref, c_void_p
from typing import Any, Mapping, Optional, Union, cast

from . import _native
from ._client_base import ClientBase, StrIn
from .errors import check
from .record import Record
from .request import CompletionCallback, Request
from .results import ClientState, EmptyResult, RegistrationResult, SignInResult, SyncResult

class _SessionMethods(ClientBase):
    """State, sign-in and registration, the record."""

    # -- state ----------------------------------------------------------------------------------------------

    @property
    def state(self) -> ClientState:
        """``{"signed_in", "uuid", "email", "reauthentication_required", "access_token_expires_at",
        "unsynced_changes", "restore_error", "storage_error", "flow_version", "quarantine", "secret_store"}``."""
        return cast("ClientState", self._json_call(_native.lib.jump_client_state))

    @property
    def is_signed_in(self) -> bool:
        """True when a user is signed in (False for a closed client)."""
        h = self._handle
        return h is not None and bool(_native.lib.jump_client_is_signed_in(h))

    def restore(self) -> None:
        """Read the saved session again (after a StorageError restore error)."""
        check(_native.lib.jump_client_restore(self.handle))

    def erase_quarantine(self) -> None:
        """Erase the sessions set aside (``state()["quarantine"]``): unreadable ones, and other users'
        sessions with unsynced edits."""
        check(_native.lib.jump_client_erase_quarantine(self.handle))

    def load_flow(self) -> None:
        """Download the Capture flow now and cache it (falls back to the cached copy)."""
        check(_native.lib.jump_client_load_flow(self.handle))

    # -- sign-in and registration ---------------------------------------------------------------------------

    def register_traditional(self, attributes: Union[Mapping[str, Any], str, bytes], password: StrIn) -> RegistrationResult:
        """Register a traditional account and sign it in: ``{"is_new": True, "uuid", "authorization_code"}``.

        ``attributes`` are record attributes (email, givenName, birthday "yyyy-MM-dd", ...) as a mapping, or
        JSON text. Raises ValidationFailed with ``invalid_fields`` keyed by form field name.
        """
        return cast("RegistrationResult", self._json_call(
            _native.lib.jump_client_register_traditional,
            self._attributes(attributes),
            _native.encode(password, "password"),
        ))

    def register_traditional_async(
        self,
        attributes: Union[Mapping[str, Any], str, bytes],
        password: StrIn,
        callback: Optional[CompletionCallback] = None,
    ) -> Request[RegistrationResult]:
        """Asynchronous :meth:`register_traditional`."""
        return self._async(
            "register_traditional",
            callback,
            _native.lib.jump_client_register_traditional_async,
            self._attributes(attributes),
            _native.encode(password, "password"),
        )

    def sign_in(self, user: StrIn, password: StrIn) -> SignInResult:
        """Sign in with an email or user name (as the sign-in form expects) and a password.

        Returns ``{"is_new": False, "uuid", "authorization_code", "kept_changes"}`` (the same user's unsynced
        edits kept from before); raises BadCredentials on a wrong password, Conflict (signed in all the same)
        when a kept edit also changed on the server, StorageError when another user's unsynced edits cannot
        be set aside.
        """
        return cast("SignInResult", self._json_call(
            _native.lib.jump_client_sign_in, _native.encode(user, "user"), _native.encode(password, "password")
        ))

    def sign_in_async(self, user: StrIn, password: StrIn, callback: Optional[CompletionCallback] = None) -> Request[SignInResult]:
        """Asynchronous :meth:`sign_in`."""
        return self._async(
            "sign_in",
            callback,
            _native.lib.jump_client_sign_in_async,
            _native.encode(user, "user"),
            _native.encode(password, "password"),
        )

    def sign_out(self) -> None:
        """Forget the session in memory and erase it from storage (unsynced changes are discarded)."""
        check(_native.lib.jump_client_sign_out(self.handle))

    # -- record ---------------------------------------------------------------------------------------------

    @property
    def record(self) -> Record:
        """A new :class:`~jump.record.Record` view of the signed-in user's record (NotSignedIn otherwise)."""
        out = c_void_p()
        check(_native.lib.jump_client_record(self.handle, byref(out)))
        return Record(cast(int, out.value), self)  # JUMP_OK always sets the handle

    def fetch_record(self) -> None:
        """Fetch the record from the server, keeping unsynced local edits on top (refreshes tokens as needed).

        Raises :class:`~jump.errors.Conflict` when an edited value also changed on the server (the record is
        fetched; the local values are kept)."""
        check(_native.lib.jump_client_fetch_record(self.handle))

    def fetch_record_async(self, callback: Optional[CompletionCallback] = None) -> Request[EmptyResult]:
        """Asynchronous :meth:`fetch_record` (result ``{}``)."""
        return self._async("fetch_record", callback, _native.lib.jump_client_fetch_record_async)

    def load_schema(self) -> None:
        """Download the record schema (and this client's write access schema) and cache it; record edits are
        then checked against it before any request (InvalidArgument naming the path)."""
        check(_native.lib.jump_client_load_schema(self.handle))

    def sync(self) -> SyncResult:
        """Send the record's unsynced changes with the fewest requests:
        ``{"changed": ["/aboutMe", ...], "requests": N, "renamed": {"/photos#-1": "/photos#57"}}``.

        A failure part-way raises with ``detail["synced"]`` and ``detail["pending"]``; what was synced is not
        sent again."""
        return cast("SyncResult", self._json_call(_native.lib.jump_client_sync))

    def sync_async(self, callback: Optional[CompletionCallback] = None) -> Request[SyncResult]:
        """Asynchronous :meth:`sync`."""
        return self._async("sync", callback, _native.lib.jump_client_sync_async)
