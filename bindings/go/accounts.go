package jump

// Several signed-in users in one client (config key "accounts" = "multiple"): list, switch, remove.

/*
#include "bridge.h"
*/
import "C"

import "context"

// Accounts lists the saved accounts, the active one first, then the most recently used: each with its UUID,
// Email, DisplayName, SignedIn, ReauthenticationRequired, LastUsed and Active; Active is the active account's
// uuid ("" when no user is active). With accounts "single" (the default): the signed-in user, if any. It reads
// the saved index again, so accounts another process sharing the storage directory added are listed too; it
// waits for nothing but storage and its lock (at most requestTimeoutMs), so it takes no context.
func (c *Client) Accounts() (*SavedAccounts, error) {
	text, err := c.outString("jump_client_accounts", func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_accounts(h, out)
	})
	if err != nil {
		return nil, err
	}
	return resultClientAccounts(text)
}

// SwitchAccount makes the saved account of uuid the active one, without a password (ErrNotFound when no saved
// account has that uuid); event EventAccountSwitched tells the app. Its token is refreshed first when stale.
// Unsynced edits stay with the account that made them: a Record taken before the switch still edits its own
// account's record. It runs jump_client_switch_account_async: cancelling ctx cancels the refresh (ErrCancelled).
func (c *Client) SwitchAccount(ctx context.Context, uuid string) error {
	a := &cargs{op: "jump_client_switch_account_async"}
	u := a.str("uuid", uuid)
	_, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_switch_account_async(h, u, f, d, r, o)
	})
	return err
}

// RemoveAccount signs the saved account of uuid out and erases everything of it on storage (its session, its
// unsynced edits, its quarantine, its secrets); the other accounts stay signed in. A removed active account
// leaves no user active (IsSignedIn false until a sign-in or a SwitchAccount). ErrNotFound when no saved
// account has that uuid; ErrStorage when an erase failed (call again).
//
// Not cancellable once started (the C API has no _async form of it; it may wait for the account's earlier
// operations, at most requestTimeoutMs): a ctx already done returns its error (ErrCancelled; errors.Is finds
// ctx.Err()) and nothing is done; otherwise the call runs to its end and returns its own result.
func (c *Client) RemoveAccount(ctx context.Context, uuid string) error {
	a := &cargs{op: "jump_client_remove_account"}
	defer a.free()
	u := a.str("uuid", uuid)
	if a.err != nil {
		return a.err
	}
	return c.blockingPlain(ctx, a.op, func(h *C.jump_client) C.jump_status { return C.jump_client_remove_account(h, u) })
}
