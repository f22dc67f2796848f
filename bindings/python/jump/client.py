"""Client: one app installation's session with Capture (a ``jump_client`` handle).

Blocking methods release the GIL while libjump works (ctypes.CDLL), so other Python threads keep running;
every method may be called from any thread. The ``*_async`` methods return a :class:`~jump.request.Request`,
which asyncio code may ``await``. Results are :mod:`jump.results` TypedDicts: plain dicts with typed keys.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import weakref
from ctypes import byref, c_int, c_void_p
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast

from . import _native
from ._handle import NativeHandle
from ._statuses import JUMP_E_CANCELLED, JUMP_E_NOT_FOUND
from .config import Config, _storage_configs
from .errors import check, last_error
from .record import Record
from .request import CompletionCallback, Request
from .results import (
    ClientState,
    ClientStatus,
    Credentials,
    EmptyResult,
    EngageConfigResult,
    HttpResponse,
    IdentifyResult,
    LinkedProfile,
    RegistrationResult,
    SignInResult,
    SignInWithTokenResult,
    SocialBegin,
    SocialOutcome,
    SyncResult,
)

__all__ = ["Client", "EventCallback", "LogCallback", "set_log_callback"]

#: ``callback(event)`` with event like ``{"version":1,"kind":"event","event":"signed_in","uuid":"..."}``.
EventCallback = Callable[[Dict[str, Any]], None]
#: ``callback(line)`` with line like ``{"version":1,"kind":"log","level":"info","message":"..."}``.
LogCallback = Callable[[Dict[str, Any]], None]

_log = logging.getLogger("jump")
_live_clients: "weakref.WeakSet[Client]" = weakref.WeakSet()

StrIn = Union[str, bytes, None]


class Client(NativeHandle):
    """A libjump client.

    ``Client(config)`` takes a :class:`~jump.config.Config` or a mapping of config keys; it restores the
    session saved in ``storageDirectory`` or in the Config's host storage (:meth:`Config.set_storage`; no
    network). Use it as a context manager or call :meth:`close`.
    """

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

    # -- sign-in tokens, API keys, authorized requests ------------------------------------------------------

    def sign_in_with_token(self, sign_in_token: StrIn) -> SignInWithTokenResult:
        """Exchange a backend-issued sign-in token for a session: ``{"user_id", "changed", "migrated"}``.

        The same user already signed in is a no-op; another one raises :class:`~jump.errors.AlreadySignedIn`
        (``detail["mismatch"]`` names what differs)."""
        return cast("SignInWithTokenResult", self._json_call(
            _native.lib.jump_client_sign_in_with_token, _native.encode(sign_in_token, "sign_in_token")))

    def sign_in_with_token_async(self, sign_in_token: StrIn, callback: Optional[CompletionCallback] = None) -> Request[SignInWithTokenResult]:
        """Asynchronous :meth:`sign_in_with_token`."""
        token = _native.encode(sign_in_token, "sign_in_token")
        return self._async("sign_in_with_token", callback, _native.lib.jump_client_sign_in_with_token_async, token)

    def use_api_key(self, api_key: StrIn, user_id: Optional[StrIn], environment: str = "production",
                    region: str = "us") -> None:
        """API-key mode: requests carry the key (header ``apiKeyHeader``). ``user_id`` may be None."""
        check(_native.lib.jump_client_use_api_key(
            self.handle, _native.encode(api_key, "api_key"), _native.encode(user_id, "user_id"),
            _native.encode(environment, "environment"), _native.encode(region, "region")))

    @property
    def status(self) -> ClientStatus:
        """``{"configured", "signed_in", "use_api_key", "use_sign_in_token", "pending_reauthentication",
        "user_id", "team_id", "environment", "region", "external_user_id", "restore_error"}``."""
        return cast("ClientStatus", self._json_call(_native.lib.jump_client_status))

    def identify_external_user(self, external_user_id: StrIn,
                               authenticate: Callable[[str], Mapping[str, Any]]) -> IdentifyResult:
        """Make the signed-in user the one of the app's ``external_user_id``.

        ``authenticate(external_user_id)`` is called (on this thread) only when the user differs; it returns
        ``{"type": "sign_in_token", "sign_in_token": ...}`` or ``{"type": "api_key", "api_key", "user_id",
        "environment", "region"}``. An exception in it fails the identify. Returns ``{"action", "user_id"}``."""
        failure: List[BaseException] = []

        def trampoline(_userdata: Optional[int], external: Optional[bytes], sink: Optional[int],
                       sink_context: Optional[int]) -> int:
            try:
                answer = authenticate((external or b"").decode("utf-8"))
                data = json.dumps(dict(answer)).encode("utf-8")
                if not sink:
                    raise ValueError("libjump passed no sink")
                _native.STORAGE_SINK(sink)(sink_context, data, len(data))
                return 0
            except BaseException as exc:  # noqa: BLE001 - reported after the call returns
                failure.append(exc)
                return -14  # JUMP_E_CANCELLED

        callback = _native.AUTHENTICATE(trampoline)
        out = c_void_p()
        status = _native.lib.jump_client_identify_external_user(
            self.handle, _native.encode(external_user_id, "external_user_id"), callback, None, byref(out))
        if failure:
            raise failure[0]
        check(status)
        return cast("IdentifyResult", _native.take_json(out))

    def use_web_login(self, page_url: str, cookies: Optional[str] = None, title: Optional[str] = None) -> str:
        """Take the token a web login left in the page's cookies (Cookie header or Set-Cookie lines) or title,
        for ``page_url``'s origin; :meth:`request` then sends it there. Returns the token (a secret)."""
        out = c_void_p()
        check(_native.lib.jump_client_use_web_login(
            self.handle, _native.encode(page_url, "page_url"), _native.encode(cookies, "cookies"),
            _native.encode(title, "title"), byref(out)))
        return _native.take_string(out) or ""

    def request(self, method: str, url: str, headers: Optional[Mapping[str, str]] = None,
                body: Union[str, bytes, None] = None) -> HttpResponse:
        """Send an authorized request with the client's credential (bearer token, API key or Capture token):
        ``{"status", "headers": [[name, value], ...], "body"}``. ``url`` is relative to the credential's
        server ("/v2/...") or absolute on it. A 401 refreshes once and replays once."""
        out = c_void_p()
        check(_native.lib.jump_client_request(self.handle, *self._request_args(method, url, headers, body), byref(out)))
        return cast("HttpResponse", _native.take_json(out))

    def request_async(self, method: str, url: str, headers: Optional[Mapping[str, str]] = None,
                      body: Union[str, bytes, None] = None,
                      callback: Optional[CompletionCallback] = None) -> Request[HttpResponse]:
        """:meth:`request` on a libjump thread (``await`` it, or wait); cancelling the Request stops it."""
        return self._async("request", callback, _native.lib.jump_client_request_async,
                           *self._request_args(method, url, headers, body))

    @staticmethod
    def _request_args(method: str, url: str, headers: Optional[Mapping[str, str]],
                      body: Union[str, bytes, None]) -> Tuple[Optional[bytes], Optional[bytes], Optional[bytes],
                                                              Optional[bytes], int]:
        data = body.encode("utf-8") if isinstance(body, str) else body
        headers_json = json.dumps(dict(headers)).encode("utf-8") if headers else None
        return (_native.encode(method, "method"), _native.encode(url, "url"), headers_json, data,
                len(data) if data else 0)

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

    # -- profile and password forms -------------------------------------------------------------------------

    def update_profile(self, attributes: Union[Mapping[str, Any], str, bytes, None] = None) -> None:
        """Update the profile through the edit-profile form (``captureEditUserProfileFormName``).

        The form is filled from the signed-in user's record, unsynced edits included, with ``attributes``
        (record attributes as a mapping or JSON text, e.g. ``{"givenName": "Ada", "birthday": "1815-12-10"}``)
        applied on top; then the record is fetched again. The attributes reach the local record only when
        the server accepted the form. Raises ValidationFailed with ``invalid_fields`` keyed by form field name
        (messages in ``captureLocale``), NotSignedIn without a session.
        """
        encoded = self._attributes(attributes)
        check(_native.lib.jump_client_update_profile(self.handle, encoded))

    def update_profile_async(
        self,
        attributes: Union[Mapping[str, Any], str, bytes, None] = None,
        callback: Optional[CompletionCallback] = None,
    ) -> Request[EmptyResult]:
        """Asynchronous :meth:`update_profile` (result ``{}``)."""
        encoded = self._attributes(attributes)
        return self._async("update_profile", callback, _native.lib.jump_client_update_profile_async, encoded)

    def change_password(self, current: StrIn, new: StrIn) -> None:
        """Change the signed-in user's password through the change-password form
        (``captureChangePasswordFormName``).

        A wrong current password raises ValidationFailed whose ``invalid_fields`` name the current-password
        field; an empty password raises InvalidArgument before anything is sent.
        """
        check(
            _native.lib.jump_client_change_password(
                self.handle, _native.encode(current, "current"), _native.encode(new, "new")
            )
        )

    def change_password_async(
        self, current: StrIn, new: StrIn, callback: Optional[CompletionCallback] = None
    ) -> Request[EmptyResult]:
        """Asynchronous :meth:`change_password` (result ``{}``)."""
        return self._async(
            "change_password",
            callback,
            _native.lib.jump_client_change_password_async,
            _native.encode(current, "current"),
            _native.encode(new, "new"),
        )

    def forgot_password(self, email: StrIn) -> None:
        """Ask Capture to email a password-reset link to ``email``; no sign-in needed.

        An unknown address raises ValidationFailed with a form-level message in ``invalid_fields`` under the
        form's name (``captureForgotPasswordFormName``, "forgotPasswordForm" by default).
        """
        check(_native.lib.jump_client_forgot_password(self.handle, _native.encode(email, "email")))

    def forgot_password_async(self, email: StrIn, callback: Optional[CompletionCallback] = None) -> Request[EmptyResult]:
        """Asynchronous :meth:`forgot_password` (result ``{}``)."""
        return self._async(
            "forgot_password", callback, _native.lib.jump_client_forgot_password_async, _native.encode(email, "email")
        )

    def resend_verification_email(self, email: StrIn) -> None:
        """Ask Capture to send the email-verification message to ``email`` again; no sign-in needed.

        Errors are reported like :meth:`forgot_password`'s, keyed by ``captureResendEmailVerificationFormName``.
        """
        check(_native.lib.jump_client_resend_verification_email(self.handle, _native.encode(email, "email")))

    def resend_verification_email_async(self, email: StrIn, callback: Optional[CompletionCallback] = None) -> Request[EmptyResult]:
        """Asynchronous :meth:`resend_verification_email` (result ``{}``)."""
        return self._async(
            "resend_verification_email",
            callback,
            _native.lib.jump_client_resend_verification_email_async,
            _native.encode(email, "email"),
        )

    # -- social sign-in (Engage), registration, merge, linking and sharing ---------------------------------

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

    def load_engage_config(self) -> EngageConfigResult:
        """Fetch the Engage app configuration now (If-None-Match with the cached ETag) and cache it:
        ``{"changed": bool, "from_cache": bool}``. A 304 or an unreachable server keeps the cached copy (an
        error only when there is none)."""
        return cast("EngageConfigResult", self._json_call(_native.lib.jump_client_load_engage_config))

    def providers(self) -> Dict[str, Any]:
        """The providers: ``{"sign_in": [{"name", "friendly_name", "requires_input", "input_prompt",
        "input_label", "custom": None|"openid"|"saml"}], "sharing": [{"name", "friendly_name", "properties"}],
        "hide_tagline"}`` -- the server's order, the app's custom providers (engageCustomProviders) last.
        Loads the configuration when needed (the cached copy when the server cannot be reached)."""
        return cast("Dict[str, Any]", self._json_call(_native.lib.jump_client_providers))

    def social_begin(
        self,
        provider: str,
        input: Optional[str] = None,  # noqa: A002 - the contract's name
        force_reauth: bool = False,
        link: bool = False,
        merge_token: Optional[str] = None,
        redirect_uri: Optional[str] = None,
    ) -> SocialBegin:
        """Begin a browser sign-in: ``{"url", "state", "completion": "device"|"redirect", "completion_prefix"}``.

        Open ``url`` in the system browser; when it lands on a URL starting with ``completion_prefix`` (the
        Engage /signin/device page, or ``redirect_uri`` / engageWhitelistedDomain with ``?token=``), pass that
        URL to :meth:`social_complete`. ``input`` is the user's text for providers with ``requires_input``
        (ValidationFailed with ``invalid_fields["input"]`` when missing); ``link`` adds the identity to the
        signed-in user; ``merge_token`` finishes a merge (see :class:`~jump.errors.MergeRequired`)."""
        options = self._social_options(input=input, force_reauth=force_reauth, link=link, merge_token=merge_token,
                                       redirect_uri=redirect_uri)
        return cast("SocialBegin", self._json_call(
            _native.lib.jump_client_social_begin, _native.encode(provider, "provider"), options))

    def social_complete(self, url: StrIn) -> SocialOutcome:
        """Complete a begun sign-in with the URL the browser ended on. Returns the outcome:
        ``{"outcome": "signed_in"|"registered"|"linked", "provider", "is_new", "uuid", "authorization_code",
        "merged", "identifier"}``, or without Capture (Engage-only) ``{"outcome": "authenticated", "provider",
        "token", "device_token", "profile", "token_url_response"}``.

        Raises RegistrationRequired (``social_registration_token``, ``prereg_record``), MergeRequired
        (``merge_token``, ``existing_provider``, ``conflicting_provider``), Cancelled (``reason`` "user_canceled")
        when the user cancelled on the provider, and InvalidArgument, changing nothing, for a URL that does
        not complete a sign-in begun here (``detail["reason"]`` "unknown_state" or "wrong_location")."""
        return cast("SocialOutcome", self._json_call(
            _native.lib.jump_client_social_complete, _native.encode(url, "url")))

    def social_complete_async(self, url: StrIn, callback: Optional[CompletionCallback] = None) -> Request[SocialOutcome]:
        """Asynchronous :meth:`social_complete`."""
        return self._async("social_complete", callback, _native.lib.jump_client_social_complete_async,
                           _native.encode(url, "url"))

    def social_sign_in_loopback(
        self,
        provider: str,
        open_url: Callable[[str], Any],
        timeout: Optional[float] = None,
        *,
        input: Optional[str] = None,  # noqa: A002
        force_reauth: bool = False,
        link: bool = False,
        merge_token: Optional[str] = None,
    ) -> SocialOutcome:
        """Browser sign-in for desktop and command-line apps: libjump listens on 127.0.0.1, calls
        ``open_url(url)`` once (on this thread; hand the URL to the browser and return, e.g.
        ``webbrowser.open``), and returns the outcome (as :meth:`social_complete`) once the browser lands on
        the listener. ``timeout`` in seconds (None: 5 minutes), then :class:`~jump.errors.Timeout`. An
        exception raised by ``open_url`` ends the sign-in and is raised here."""
        options = self._social_options(input=input, force_reauth=force_reauth, link=link, merge_token=merge_token)
        failure: List[BaseException] = []

        def trampoline(_userdata: Optional[int], url: Optional[bytes]) -> int:
            try:
                open_url((url or b"").decode("utf-8"))
                return 0
            except BaseException as exc:  # noqa: BLE001 - raised after the call returns
                failure.append(exc)
                return _JUMP_E_CANCELLED

        callback = _native.OPEN_URL(trampoline)  # alive until the call returns: open_url runs on this thread
        out = c_void_p()
        status = _native.lib.jump_client_social_sign_in_loopback(
            self.handle, _native.encode(provider, "provider"), options, callback, None, _timeout_ms(timeout),
            byref(out))
        if failure:
            _native.take_string(out)
            raise failure[0]
        check(status)
        return cast("SocialOutcome", _native.take_json(out))

    def social_sign_in_loopback_async(
        self,
        provider: str,
        open_url: Callable[[str], Any],
        timeout: Optional[float] = None,
        callback: Optional[CompletionCallback] = None,
        *,
        input: Optional[str] = None,  # noqa: A002
        force_reauth: bool = False,
        link: bool = False,
        merge_token: Optional[str] = None,
    ) -> Request[SocialOutcome]:
        """Asynchronous :meth:`social_sign_in_loopback`: ``open_url`` runs on a libjump thread; the result is
        the outcome. :meth:`Request.cancel` stops the wait (Cancelled). When ``open_url`` raises, the
        request fails (Cancelled) and the exception is logged to the "jump" logger."""
        options = self._social_options(input=input, force_reauth=force_reauth, link=link, merge_token=merge_token)
        h = self.handle
        name = _native.encode(provider, "provider")
        ms = _timeout_ms(timeout)
        return Request._start(
            "social_sign_in_loopback",
            callback,
            self,
            lambda cb, ud, free, out: _native.lib.jump_client_social_sign_in_loopback_async(
                h, name, options, _open_url_trampoline, ms, cb, ud, free, out),
            wrap=lambda on_payload: _LoopbackUserdata(on_payload, open_url),
        )

    def social_sign_in_native(
        self,
        provider: str,
        token: StrIn,
        token_secret: StrIn = None,
        link: bool = False,
        merge_token: Optional[str] = None,
    ) -> SocialOutcome:
        """Sign in with a provider SDK's own access token (and OAuth1 ``token_secret`` for twitter); the
        outcome as :meth:`social_complete`. No device token comes back, so such a sign-in cannot share."""
        return cast("SocialOutcome", self._json_call(
            _native.lib.jump_client_social_sign_in_native,
            _native.encode(provider, "provider"),
            _native.encode(token, "token"),
            _native.encode(token_secret, "token_secret"),
            self._social_options(link=link, merge_token=merge_token),
        ))

    def social_sign_in_native_async(
        self,
        provider: str,
        token: StrIn,
        token_secret: StrIn = None,
        link: bool = False,
        merge_token: Optional[str] = None,
        callback: Optional[CompletionCallback] = None,
    ) -> Request[SocialOutcome]:
        """Asynchronous :meth:`social_sign_in_native`."""
        return self._async(
            "social_sign_in_native",
            callback,
            _native.lib.jump_client_social_sign_in_native_async,
            _native.encode(provider, "provider"),
            _native.encode(token, "token"),
            _native.encode(token_secret, "token_secret"),
            self._social_options(link=link, merge_token=merge_token),
        )

    def set_token_url(self, url: Optional[str]) -> None:
        """Engage-only mode: the app backend URL the Engage token is POSTed to (``token=...``) after each
        social sign-in (its answer is the outcome's ``token_url_response``); None removes it."""
        check(_native.lib.jump_client_set_token_url(self.handle, _native.encode(url, "url")))

    def register_social(
        self, social_registration_token: StrIn, attributes: Union[Mapping[str, Any], str, bytes]
    ) -> RegistrationResult:
        """Finish a two-step social registration (after RegistrationRequired): ``attributes`` are record
        attributes (usually the error's ``prereg_record`` completed by the user), mapped to the social
        registration form. Signs the new user in: ``{"is_new": True, "uuid", ...}``. Raises ValidationFailed
        with ``invalid_fields`` keyed by form field name."""
        return cast("RegistrationResult", self._json_call(
            _native.lib.jump_client_register_social,
            _native.encode(social_registration_token, "social_registration_token"),
            self._attributes(attributes),
        ))

    def register_social_async(
        self,
        social_registration_token: StrIn,
        attributes: Union[Mapping[str, Any], str, bytes],
        callback: Optional[CompletionCallback] = None,
    ) -> Request[RegistrationResult]:
        """Asynchronous :meth:`register_social`."""
        return self._async(
            "register_social",
            callback,
            _native.lib.jump_client_register_social_async,
            _native.encode(social_registration_token, "social_registration_token"),
            self._attributes(attributes),
        )

    def sign_in_merge(self, user: StrIn, password: StrIn, merge_token: StrIn) -> SignInResult:
        """:meth:`sign_in` that also merges ``merge_token``'s identity (MergeRequired with existing_provider
        "capture") into the account: ``{"is_new": False, "uuid", "authorization_code", "merged": True}``."""
        return cast("SignInResult", self._json_call(
            _native.lib.jump_client_sign_in_merge,
            _native.encode(user, "user"),
            _native.encode(password, "password"),
            _native.encode(merge_token, "merge_token"),
        ))

    def sign_in_merge_async(
        self, user: StrIn, password: StrIn, merge_token: StrIn, callback: Optional[CompletionCallback] = None
    ) -> Request[SignInResult]:
        """Asynchronous :meth:`sign_in_merge`."""
        return self._async(
            "sign_in_merge",
            callback,
            _native.lib.jump_client_sign_in_merge_async,
            _native.encode(user, "user"),
            _native.encode(password, "password"),
            _native.encode(merge_token, "merge_token"),
        )

    def linked_profiles(self) -> List[LinkedProfile]:
        """The signed-in user's linked identities, from the record's profiles:
        ``[{"identifier", "domain", "provider", "display_name", "email", "path"}]``."""
        return cast("List[LinkedProfile]", self._json_call(_native.lib.jump_client_linked_profiles))

    def unlink_account(self, identifier: StrIn) -> None:
        """Unlink an identity from the signed-in user, then fetch the record. The last identity of an
        account without a password is refused before anything is sent: InvalidArgument with
        ``detail["reason"] == "last_identity"``."""
        check(_native.lib.jump_client_unlink_account(self.handle, _native.encode(identifier, "identifier")))

    def unlink_account_async(self, identifier: StrIn, callback: Optional[CompletionCallback] = None) -> Request[EmptyResult]:
        """Asynchronous :meth:`unlink_account` (result ``{}``)."""
        return self._async("unlink_account", callback, _native.lib.jump_client_unlink_account_async,
                           _native.encode(identifier, "identifier"))

    def share(self, activity: Union[Mapping[str, Any], str, bytes],
              providers: Union[Sequence[str], str, bytes]) -> Dict[str, Any]:
        """Share an activity (``{"action", "url", "title", "description", "user_generated_content",
        "action_links", "media", "properties"}``) to each sharing provider the user signed in with through the
        browser: ``{"results": {"<provider>": {"ok": True, "method": "activity"|"set_status"}}}``.

        When any provider failed: ServerError whose ``results`` (``detail["results"]``) has the same shape,
        a failed provider ``{"ok": False, "error_class", "code", "message"}`` with error_class one of
        invalid_parameter, reauthenticate, rate_limit, media, duplicate, character_limit, provider,
        not_signed_in, failed."""
        return cast("Dict[str, Any]", self._json_call(_native.lib.jump_client_share, self._json_arg(activity, "activity"),
                               self._json_arg(providers, "providers")))

    def share_async(
        self,
        activity: Union[Mapping[str, Any], str, bytes],
        providers: Union[Sequence[str], str, bytes],
        callback: Optional[CompletionCallback] = None,
    ) -> Request[Dict[str, Any]]:
        """Asynchronous :meth:`share`."""
        return self._async("share", callback, _native.lib.jump_client_share_async, self._json_arg(activity, "activity"),
                           self._json_arg(providers, "providers"))

    def share_content(self, activity: Union[Mapping[str, Any], str, bytes]) -> Dict[str, Any]:
        """Email and SMS content for the app to send, from the activity's ``email`` / ``sms`` members
        (defaults from title, description and url), URLs shortened by Engage (kept long when that fails):
        ``{"email": {"subject", "body", "urls": {long: short}}, "sms": {"message", "urls": {...}}}``."""
        return cast("Dict[str, Any]", self._json_call(_native.lib.jump_client_share_content, self._json_arg(activity, "activity")))

    # -- tokens ---------------------------------------------------------------------------------------------

    def access_token(self) -> str:
        """A valid access token (refreshed first when known to be expired). A secret: do not log it."""
        token = self._string_call(_native.lib.jump_client_access_token)
        return token or ""

    def refresh_access_token(self) -> None:
        """Refresh the access token now (concurrent refreshes are coalesced into one request)."""
        check(_native.lib.jump_client_refresh_access_token(self.handle))

    #: jump.h's JUMP_CREDENTIALS_FORCE_REFRESH.
    _FORCE_REFRESH = 1

    @staticmethod
    def _credentials_args(min_ttl: int, force_refresh: bool) -> Tuple[int, int]:
        # Checked here so a float or a huge int is a TypeError/ValueError, not a silent ctypes wrap-around.
        if isinstance(min_ttl, bool) or not isinstance(min_ttl, int):
            raise TypeError("min_ttl must be an int (seconds)")
        if not -(2**63) <= min_ttl < 2**63:
            raise ValueError("min_ttl does not fit in 64 bits")
        return min_ttl, Client._FORCE_REFRESH if force_refresh else 0

    def credentials(self, min_ttl: int = 0, force_refresh: bool = False) -> Credentials:
        """The credential :meth:`request` would send, valid for more than ``min_ttl`` seconds when the server
        allows: ``{"kind": "capture"|"sign_in_token"|"api_key", "access_token", "expires_at", "expires_in",
        "refreshed"}``. Refreshed first (one request for all concurrent callers) only when it has ``min_ttl``
        seconds or less left, or with ``force_refresh``; otherwise no request. ``access_token`` is a secret
        (the API key in API-key mode). Negative ``min_ttl``: InvalidArgument."""
        ttl, flags = self._credentials_args(min_ttl, force_refresh)
        return cast("Credentials", self._json_call(_native.lib.jump_client_credentials, ttl, flags))

    def credentials_async(self, min_ttl: int = 0, force_refresh: bool = False,
                          callback: Optional[CompletionCallback] = None) -> Request[Credentials]:
        """:meth:`credentials` on a libjump thread; the Request's result is the same dict."""
        ttl, flags = self._credentials_args(min_ttl, force_refresh)
        return self._async("credentials", callback, _native.lib.jump_client_credentials_async, ttl, flags)

    def has_valid_credentials(self, min_ttl: int = 0) -> bool:
        """True when the credential held now lasts more than ``min_ttl`` seconds (an API key always does). No
        network; never waits for a refresh in flight. False when signed out, closed, or ``min_ttl`` < 0."""
        h = self._handle
        if h is None or isinstance(min_ttl, bool) or not isinstance(min_ttl, int) or not -(2**63) <= min_ttl < 2**63:
            return False
        return bool(_native.lib.jump_client_has_valid_credentials(h, min_ttl))

    # -- events ---------------------------------------------------------------------------------------------

    def on_event(self, callback: Optional[EventCallback]) -> None:
        """Call ``callback(event_dict)`` for each client event (signed_in, signed_out, token_refreshed,
        record_synced, record_fetched, session_expired); None removes it.

        The callback runs on libjump's thread, one at a time and in order. Exceptions it raises are logged to
        the "jump" logger and kept in :attr:`last_event_error`.
        """
        h = self.handle
        self._event_callback = callback
        if callback is None:
            check(_native.lib.jump_client_set_event_callback(h, _native.CALLBACK(), None, _native.FREE_FN()))
            return
        owner = weakref.ref(self)

        def handler(raw: bytes) -> None:
            try:
                event = json.loads(raw.decode("utf-8"))
                if isinstance(event, dict) and event.get("kind", "event") == "event":
                    callback(event)
            except BaseException as exc:  # noqa: BLE001 - ctypes would swallow it
                client = owner()
                if client is not None:
                    client.last_event_error = exc
                _log.error("jump event callback raised", exc_info=exc)

        token = _native.register(handler)
        status = _native.lib.jump_client_set_event_callback(
            h, _native.trampoline, _native.userdata(token), _native.release
        )
        if status != 0:
            error = last_error(status)
            _native.unregister(token)  # not taken: libjump did not keep the callback
            raise error

    # -- queue mode: an asyncio loop pumps the client -------------------------------------------------------

    def attach_event_loop(self, loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
        """Let ``loop`` (default: the running loop) deliver this client's completions and events, on the loop's
        thread: libjump queues them (``jump_client_use_event_queue``) and the loop pumps the queue when its
        file descriptor is readable (``loop.add_reader``). No Python code then runs on a libjump thread, and
        awaiting a request needs no thread hop. :meth:`detach_event_loop` (or :meth:`close`) ends it."""
        if loop is None:
            loop = asyncio.get_running_loop()
        if self._pump_loop is loop:
            return
        if self._pump_loop is not None:
            raise RuntimeError("the client is already attached to another event loop")
        loop.add_reader(self.use_event_queue(True), self.pump_events)
        self._pump_loop = loop

    def detach_event_loop(self) -> None:
        """Back to callbacks on libjump's thread; what still waits in the queue goes to them."""
        loop, self._pump_loop = self._pump_loop, None
        if loop is None:
            return
        fd = c_int(-1)
        if _native.lib.jump_client_event_fd(self.handle, byref(fd)) == 0 and not loop.is_closed():
            loop.remove_reader(fd.value)
        self.use_event_queue(False)

    def use_event_queue(self, enabled: bool = True) -> int:
        """Queue mode on (returns the file descriptor readable while something waits; poll it, or call
        :meth:`pump_events` once per frame) or off (what still waits goes to the callbacks; returns -1)."""
        check(_native.lib.jump_client_use_event_queue(self.handle, 1 if enabled else 0))
        if not enabled:
            return -1
        fd = c_int(-1)
        check(_native.lib.jump_client_event_fd(self.handle, byref(fd)))
        return fd.value

    def pump_events(self) -> int:
        """Deliver what waits in the queue (queue mode), on this thread: completions resolve their
        requests, events go to the :meth:`on_event` callback. Returns how many documents it took. A game
        loop without asyncio calls :meth:`use_event_queue` once, then this once per frame."""
        taken = 0
        while True:
            out = c_void_p()
            status = _native.lib.jump_client_next_event(self.handle, byref(out))
            if status == JUMP_E_NOT_FOUND:
                return taken
            check(status)
            taken += 1
            text = _native.take_string(out)
            callback = self._event_callback
            if callback is None or text is None:
                continue
            try:
                event = json.loads(text)
                if isinstance(event, dict) and event.get("kind") == "event":
                    callback(event)
            except BaseException as exc:  # noqa: BLE001 - the loop must go on pumping
                self.last_event_error = exc
                _log.error("jump event callback raised", exc_info=exc)

    # -- lifetime -------------------------------------------------------------------------------------------

    async def __aenter__(self) -> "Client":
        """``async with jump.Client(config) as client:`` in a coroutine."""
        return self

    async def __aexit__(self, *exc: Any) -> None:
        # close() does not wait for the network: in-flight requests are cancelled, so the loop is not held.
        self.close()

    def close(self) -> None:
        """Release the client (idempotent). In-flight requests complete with Cancelled."""
        if self._pump_loop is not None and self._handle is not None:
            try:
                self.detach_event_loop()
            except Exception:  # noqa: BLE001 - closing anyway
                self._pump_loop = None
        super().close()


# ---------------------------------------------------------------------------------------------------------
# Loopback sign-in: the asynchronous open_url callback shares its userdata with the completion
# ---------------------------------------------------------------------------------------------------------

_JUMP_E_CANCELLED = JUMP_E_CANCELLED


def _timeout_ms(timeout: Optional[float]) -> int:
    """Seconds -> the int32 milliseconds libjump takes (None or <= 0: its default)."""
    if timeout is None or timeout <= 0:
        return 0
    return max(1, min(int(timeout * 1000), 2**31 - 1))


class _LoopbackUserdata:
    """The registry entry of an asynchronous loopback sign-in: called with the completion payload (like any
    completion handler), and holding the app's open_url for :data:`_open_url_trampoline`."""

    def __init__(self, on_payload: Callable[[bytes], None], open_url: Callable[[str], Any]) -> None:
        self._on_payload = on_payload
        self._open_url: Optional[Callable[[str], Any]] = open_url
        self.failure: Optional[BaseException] = None

    def __call__(self, raw: bytes) -> None:
        self._on_payload(raw)

    def open_url(self, url: str) -> int:
        opener, self._open_url = self._open_url, None  # called once; drop the closure early
        if opener is None:
            return 0
        try:
            opener(url)
            return 0
        except BaseException as exc:  # noqa: BLE001 - ctypes would swallow it
            self.failure = exc
            _log.error("jump open_url callback raised", exc_info=exc)
            return _JUMP_E_CANCELLED


def _open_url_async(userdata: Optional[int], url: Optional[bytes]) -> int:
    # Same bookkeeping as _native's completion trampoline: counted as a running callback (drain at exit) and
    # marked "in a callback" (Request.wait there is Busy, handle frees are deferred).
    _native._active.append(None)
    try:
        with _native._registry_lock:
            handler = _native._registry.get(userdata or 0)
        if not isinstance(handler, _LoopbackUserdata):
            return _JUMP_E_CANCELLED
        _native._in_callback.depth = getattr(_native._in_callback, "depth", 0) + 1
        try:
            return handler.open_url((url or b"").decode("utf-8"))
        finally:
            _native._in_callback.depth -= 1
    except BaseException:  # noqa: BLE001 - last line of defence
        return _JUMP_E_CANCELLED
    finally:
        _native._active.pop()


#: The one jump_open_url_fn every asynchronous loopback sign-in uses; lives as long as the process.
_open_url_trampoline = _native.OPEN_URL(_open_url_async)


# ---------------------------------------------------------------------------------------------------------
# Process-wide: log callback, shutdown
# ---------------------------------------------------------------------------------------------------------

_log_token: Optional[int] = None
# The callable installed by set_log_callback (so jump.log can tell whether its bridge is the one installed).
_log_callback: Optional[LogCallback] = None


def set_log_callback(callback: Optional[LogCallback]) -> None:
    """Install a process-wide log callback receiving redacted log lines as dicts (None removes it).

    It may run on any thread, concurrently; exceptions it raises are ignored. It replaces the default
    bridge to the standard ``logging`` logger ``"jump"`` (:mod:`jump.log`; there is one process-wide slot);
    :func:`jump.enable_logging` puts the bridge back.
    """
    if callback is None:
        install_log_handler(None, None)
        return

    def handler(raw: bytes) -> None:
        try:
            callback(json.loads(raw.decode("utf-8")))
        except BaseException:  # noqa: BLE001
            pass

    install_log_handler(handler, callback)


def install_log_handler(handler: Optional[Callable[[bytes], None]], callback: Optional[LogCallback]) -> None:
    """Put ``handler(raw_json_bytes)`` in libjump's log slot (None empties it); ``callback`` is what
    :func:`installed_log_callback` reports. jump.log passes a handler that reads only the lines the
    ``"jump"`` logger wants, so a program that does not log pays no JSON parsing per line."""
    global _log_token, _log_callback
    lib = _native.lib  # loads the library first: a failed load must not leave a registration behind
    if handler is None:
        check(lib.jump_set_log_callback(_native.CALLBACK(), None, _native.FREE_FN()))
        _log_token = None
        _log_callback = None
        return
    token = _native.register(handler)
    status = lib.jump_set_log_callback(_native.trampoline, _native.userdata(token), _native.release)
    if status != 0:
        error = last_error(status)
        _native.unregister(token)
        raise error
    _log_token = token
    _log_callback = callback


def installed_log_callback() -> Optional[LogCallback]:
    """The callback set with :func:`set_log_callback` (None when none is)."""
    return _log_callback


#: How long interpreter exit waits for libjump to deliver cancelled completions and release callbacks.
SHUTDOWN_TIMEOUT = 5.0


@atexit.register
def _shutdown() -> None:
    # Nothing may call into Python once it is finalizing: close the clients (their in-flight requests complete
    # with Cancelled), remove the log callback, then wait until libjump has released every callback.
    for client in list(_live_clients):
        try:
            client.close()
        except Exception:  # noqa: BLE001
            pass
    if _log_token is not None:
        try:
            _native.lib.jump_set_log_callback(_native.CALLBACK(), None, _native.FREE_FN())
        except Exception:  # noqa: BLE001
            pass
    for config in list(_storage_configs):  # a Config holding a host storage holds its registration
        try:
            config.close()
        except Exception:  # noqa: BLE001
            pass
    try:
        _native.drain(SHUTDOWN_TIMEOUT)
    except Exception:  # noqa: BLE001
        pass
