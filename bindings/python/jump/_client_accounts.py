""":class:`jump.Client`'s saved accounts (config key ``accounts`` = ``"multiple"``): list, switch, remove.
"""

from __future__ import annotations

from typing import Optional, cast

from . import _native
from ._client_base import ClientBase, StrIn
from .errors import check
from .request import CompletionCallback, Request
from .results import EmptyResult, SavedAccounts


class _AccountMethods(ClientBase):
    """Several signed-in users in one client, one of them active."""

    def accounts(self) -> SavedAccounts:
        """The saved accounts, the most recently used first: ``{"accounts": [{"uuid", "email", "display_name",
        "signed_in", "reauthentication_required", "last_used", "active"}], "active": uuid or None}``. With
        ``accounts`` ``"single"``: the signed-in user, if any."""
        return cast("SavedAccounts", self._json_call(_native.lib.jump_client_accounts))

    def switch_account(self, uuid: StrIn) -> None:
        """Make the saved account of ``uuid`` the active one, without a password (NotFound if there is none);
        its token is refreshed first when stale. Unsynced edits stay with the account that made them."""
        check(_native.lib.jump_client_switch_account(self.handle, _native.encode(uuid, "uuid")))

    def switch_account_async(self, uuid: StrIn, callback: Optional[CompletionCallback] = None) -> Request[EmptyResult]:
        """Asynchronous :meth:`switch_account` (result ``{}``)."""
        return self._async("switch_account", callback, _native.lib.jump_client_switch_account_async,
                           _native.encode(uuid, "uuid"))

    def remove_account(self, uuid: StrIn) -> None:
        """Sign the account of ``uuid`` out and erase its session, journal, quarantine and secrets; the other
        accounts stay signed in. A removed active account leaves no user active."""
        check(_native.lib.jump_client_remove_account(self.handle, _native.encode(uuid, "uuid")))
