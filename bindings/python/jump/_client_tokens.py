""":class:`jump.Client`'s sign-in tokens, API keys and authorized requests, and its access tokens and
credentials.
"""

from __future__ import annotations

import json
from ctypes import byref, c_void_p
from typing import Any, Callable, List, Mapping, Optional, Tuple, Union, cast

from . import _native
from ._client_base import ClientBase, StrIn
from .errors import check
from .request import CompletionCallback, Request
from .results import ClientStatus, Credentials, HttpResponse, IdentifyResult, SignInWithTokenResult

class _TokenMethods(ClientBase):
    """Sign-in tokens, API keys, authorized requests, access tokens and credentials."""

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
        return min_ttl, _TokenMethods._FORCE_REFRESH if force_refresh else 0

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
