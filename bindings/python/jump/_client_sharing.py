""":class:`jump.Client`'s linked identities and sharing (Engage).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union, cast

from . import _native
from ._client_base import ClientBase, StrIn
from .errors import check
from .request import CompletionCallback, Request
from .results import EmptyResult, LinkedProfile

class _SharingMethods(ClientBase):
    """Linked identities and sharing."""

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
