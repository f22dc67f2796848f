package jump

// Capture sign-in, registration, the record's sync and the profile and password forms: each through the
// _async form of its C function, so the context can cancel it.

/*
#include "bridge.h"
*/
import "C"

import (
	"context"
	"unsafe"
)

type (
	cb   = C.jump_callback
	rel  = C.jump_free_fn
	reqp = **C.jump_request
	ud   = unsafe.Pointer
)

// RegisterTraditional registers a traditional account (attributes: a JSON object of record attributes, as
// a map, struct or JSON text) and signs the new user in (IsNew true). ErrValidation carries
// "invalid_fields" in its Detail.
func (c *Client) RegisterTraditional(ctx context.Context, attributes any, password string) (*SignInResult, error) {
	a := &cargs{op: "jump_client_register_traditional_async"}
	attrs, pw := a.json("attributes", attributes), a.str("password", password)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, u ud, r rel, o reqp) C.jump_status {
		return C.jump_client_register_traditional_async(h, attrs, pw, f, u, r, o)
	})
	return decoded(text, err, resultClientRegisterTraditionalAsync)
}

// SignIn signs in with an email or user name and a password (KeptChanges: the same user's unsynced edits kept).
// A wrong password is ErrBadCredentials.
func (c *Client) SignIn(ctx context.Context, user, password string) (*SignInResult, error) {
	a := &cargs{op: "jump_client_sign_in_async"}
	u, pw := a.str("user", user), a.str("password", password)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_sign_in_async(h, u, pw, f, d, r, o)
	})
	return decoded(text, err, resultClientSignInAsync)
}

// SignInMerge signs in and merges mergeToken's identity (ErrMergeRequired with existing_provider "capture").
func (c *Client) SignInMerge(ctx context.Context, user, password, mergeToken string) (*SignInResult, error) {
	a := &cargs{op: "jump_client_sign_in_merge_async"}
	u, pw, m := a.str("user", user), a.str("password", password), a.str("merge_token", mergeToken)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_sign_in_merge_async(h, u, pw, m, f, d, r, o)
	})
	return decoded(text, err, resultClientSignInMergeAsync)
}

// FetchRecord fetches the record from the server, keeping unsynced local edits on top (ErrConflict when an
// edited attribute changed on the server too: its Detail lists "conflicts").
func (c *Client) FetchRecord(ctx context.Context) error {
	a := &cargs{op: "jump_client_fetch_record_async"}
	_, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_fetch_record_async(h, f, d, r, o)
	})
	return err
}

// Sync sends the record's unsynced changes: the paths sent, the number of requests, the element paths renamed.
func (c *Client) Sync(ctx context.Context) (*SyncResult, error) {
	a := &cargs{op: "jump_client_sync_async"}
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_sync_async(h, f, d, r, o)
	})
	return decoded(text, err, resultClientSyncAsync)
}

// UpdateProfile updates the profile through the edit-profile form (attributes may be nil).
func (c *Client) UpdateProfile(ctx context.Context, attributes any) error {
	a := &cargs{op: "jump_client_update_profile_async"}
	attrs := a.json("attributes", attributes)
	_, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_update_profile_async(h, attrs, f, d, r, o)
	})
	return err
}

// ChangePassword changes the signed-in user's password through the change-password form.
func (c *Client) ChangePassword(ctx context.Context, current, replacement string) error {
	a := &cargs{op: "jump_client_change_password_async"}
	cur, nw := a.str("current_password", current), a.str("new_password", replacement)
	_, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_change_password_async(h, cur, nw, f, d, r, o)
	})
	return err
}

// ForgotPassword asks Capture to email a password-reset link (no sign-in needed).
func (c *Client) ForgotPassword(ctx context.Context, email string) error {
	a := &cargs{op: "jump_client_forgot_password_async"}
	e := a.str("email", email)
	_, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_forgot_password_async(h, e, f, d, r, o)
	})
	return err
}

// ResendVerificationEmail asks Capture to send the email-verification message again.
func (c *Client) ResendVerificationEmail(ctx context.Context, email string) error {
	a := &cargs{op: "jump_client_resend_verification_email_async"}
	e := a.str("email", email)
	_, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_resend_verification_email_async(h, e, f, d, r, o)
	})
	return err
}
