""":class:`jump.Client`'s social sign-in (Engage): providers, the browser and loopback sign-ins, native
tokens, social registration and merge.
"""

from __future__ import annotations

from ctypes import byref, c_void_p
from typing import Any, Callable, Dict, List, Mapping, Optional, Union, cast

from . import _native
from ._client_base import ClientBase, StrIn
from ._loopback import _JUMP_E_CANCELLED, _LoopbackUserdata, _open_url_trampoline, _timeout_ms
from .errors import check
from .request import CompletionCallback, Request
from .results import EngageConfigResult, RegistrationResult, SignInResult, SocialBegin, SocialOutcome

class _SocialMethods(ClientBase):
    """Social sign-in (Engage), registration and merge."""

    # -- social sign-in (Engage), registration, merge, linking and sharing ---------------------------------

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
