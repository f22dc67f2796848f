"""Typed shapes of the JSON objects libjump returns (include/jump.h documents each).

They are ``TypedDict`` classes: at run time every result is still the plain ``dict`` the binding always
returned (``result["uuid"]``, ``result.get(...)``, ``json.dumps(result)`` and ``==`` with a dict keep working),
while a type checker knows the keys and their types. All are ``total=False``: a key the library does not send
in some case (or a newer library adds) is no type error, and code should read optional keys with ``.get``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict

__all__ = [
    "ClientState",
    "ClientStatus",
    "CompletionPayload",
    "Credentials",
    "EmptyResult",
    "EngageConfigResult",
    "Event",
    "HttpResponse",
    "IdentifyResult",
    "LinkedProfile",
    "LogLine",
    "QuarantineEntry",
    "RecordChanges",
    "RegistrationResult",
    "SignInResult",
    "SignInTokenInfo",
    "SignInWithTokenResult",
    "SocialBegin",
    "SocialOutcome",
    "SyncResult",
]

#: The result of an asynchronous call that gives an empty object (``fetch_record_async``, ...).
EmptyResult = Dict[str, Any]


class Credentials(TypedDict, total=False):
    """:meth:`Client.credentials`: the credential to send now and how long it lasts."""

    kind: Literal["capture", "sign_in_token", "api_key"]
    #: A secret: the bearer token, or in API-key mode the API key (sent in the ``apiKeyHeader`` header).
    access_token: str
    #: Epoch seconds by the local clock; None when unknown (and for an API key).
    expires_at: Optional[int]
    #: Seconds left when the call returned; None when unknown.
    expires_in: Optional[int]
    #: The call (or a refresh it joined) replaced the token.
    refreshed: bool


class SignInResult(TypedDict, total=False):
    """:meth:`Client.sign_in` (and :meth:`Client.sign_in_merge`, which adds ``merged``)."""

    is_new: bool
    uuid: str
    authorization_code: Optional[str]
    #: The same user's unsynced edits kept on top of the fresh record.
    kept_changes: List[str]
    merged: bool


class RegistrationResult(TypedDict, total=False):
    """:meth:`Client.register_traditional` and :meth:`Client.register_social`."""

    is_new: bool
    uuid: str
    authorization_code: Optional[str]


class QuarantineEntry(TypedDict, total=False):
    """A session set aside (``ClientState["quarantine"]``)."""

    entry: str
    reason: Literal["unreadable", "replaced"]
    uuid: Optional[str]
    unsynced_changes: bool
    #: Epoch seconds.
    quarantined_at: int
    message: str


class ClientState(TypedDict, total=False):
    """:attr:`Client.state`."""

    signed_in: bool
    uuid: Optional[str]
    email: Optional[str]
    reauthentication_required: bool
    #: Epoch seconds by the local clock, or None when the server gave no lifetime.
    access_token_expires_at: Optional[float]
    unsynced_changes: bool
    #: An error detail, or None: the saved session could not be read.
    restore_error: Optional[Dict[str, Any]]
    #: An error detail, or None: the last save or erase failed.
    storage_error: Optional[Dict[str, Any]]
    flow_version: Optional[str]
    quarantine: List[QuarantineEntry]
    #: Where the secrets are kept: "secret-service", "file", "host" or "memory" (the secretStore key).
    secret_store: str
    #: Capture's clock minus this device's, in seconds (from its answers' Date header; kept with the session).
    clock_offset_seconds: int


class ClientStatus(TypedDict, total=False):
    """:attr:`Client.status` (sign-in tokens and API keys)."""

    configured: bool
    signed_in: bool
    use_api_key: bool
    use_sign_in_token: bool
    pending_reauthentication: bool
    user_id: Optional[str]
    team_id: Optional[str]
    environment: Optional[str]
    region: Optional[str]
    external_user_id: Optional[str]
    restore_error: Optional[Dict[str, Any]]


class SyncResult(TypedDict, total=False):
    """:meth:`Client.sync`."""

    #: The record paths whose changes the server acknowledged.
    changed: List[str]
    #: How many requests the sync sent.
    requests: int
    #: Element paths whose id the server assigned: ``{"/photos#-1": "/photos#57"}``.
    renamed: Dict[str, str]


class RecordChanges(TypedDict, total=False):
    """:meth:`Record.changes`: exactly what a sync would send now."""

    changed: List[str]
    update: Dict[str, Any]
    requests: List[Dict[str, Any]]


class SignInTokenInfo(TypedDict, total=False):
    """:func:`jump.decode_sign_in_token`."""

    user_id: str
    team_id: Optional[str]
    environment: str
    region: str
    #: Epoch seconds.
    expires_at: Optional[int]


class SignInWithTokenResult(TypedDict, total=False):
    """:meth:`Client.sign_in_with_token`."""

    user_id: str
    changed: bool
    migrated: bool


class IdentifyResult(TypedDict, total=False):
    """:meth:`Client.identify_external_user`."""

    action: Literal["none", "kept", "reauthenticated", "signed_in", "switched"]
    user_id: Optional[str]


class HttpResponse(TypedDict, total=False):
    """:meth:`Client.request`. ``body`` is None and ``body_base64`` set when the body is not UTF-8."""

    status: int
    headers: List[List[str]]
    body: Optional[str]
    body_base64: str


class EngageConfigResult(TypedDict, total=False):
    """:meth:`Client.load_engage_config`."""

    changed: bool
    from_cache: bool


class SocialBegin(TypedDict, total=False):
    """:meth:`Client.social_begin`."""

    url: str
    state: str
    completion: Literal["device", "redirect"]
    completion_prefix: str


class SocialOutcome(TypedDict, total=False):
    """:meth:`Client.social_complete`, :meth:`Client.social_sign_in_loopback`,
    :meth:`Client.social_sign_in_native`. With Capture ``outcome`` is "signed_in", "registered" or "linked";
    Engage only (no captureDomain) it is "authenticated" and ``token`` (a secret), ``device_token``,
    ``profile`` and ``token_url_response`` are set instead of the Capture keys."""

    outcome: Literal["signed_in", "registered", "linked", "authenticated"]
    provider: str
    is_new: bool
    uuid: str
    authorization_code: Optional[str]
    merged: bool
    identifier: Optional[str]
    token: str
    device_token: Optional[str]
    profile: Dict[str, Any]
    token_url_response: Optional[Dict[str, Any]]


class LinkedProfile(TypedDict, total=False):
    """An element of :meth:`Client.linked_profiles`."""

    identifier: str
    domain: Optional[str]
    provider: Optional[str]
    display_name: Optional[str]
    email: Optional[str]
    path: str


class Event(TypedDict, total=False):
    """What :meth:`Client.on_event` callbacks receive."""

    version: int
    kind: Literal["event"]
    event: str
    uuid: Optional[str]
    status: ClientStatus
    user_id: str


class LogLine(TypedDict, total=False):
    """What :func:`jump.set_log_callback` callbacks receive (already redacted by libjump)."""

    version: int
    kind: Literal["log"]
    level: Literal["debug", "info", "warning", "error"]
    message: str


class CompletionPayload(TypedDict, total=False):
    """:attr:`Request.payload`: the completion document of an asynchronous call."""

    version: int
    kind: Literal["completion"]
    operation: str
    status: int
    result: Dict[str, Any]
    error: Dict[str, Any]
