package jump

// Social sign-in (Engage): browser, loopback and native sign-ins, two-step registration, linking, sharing.

/*
#include "bridge.h"
*/
import "C"

import (
	"context"
	"time"
)

// LoadEngageConfig fetches the Engage app configuration (whether it changed, whether it came from the cache).
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) LoadEngageConfig(ctx context.Context) (*EngageConfigResult, error) {
	a := &cargs{op: "jump_client_load_engage_config"}
	text, err := c.blockingText(ctx, a.op, a, func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_load_engage_config(h, out)
	})
	return decoded(text, err, resultClientLoadEngageConfig)
}

// Providers are the sign-in and sharing providers, and whether to hide the Engage tagline.
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) Providers(ctx context.Context) (*SocialProviders, error) {
	a := &cargs{op: "jump_client_providers"}
	text, err := c.blockingText(ctx, a.op, a, func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_providers(h, out)
	})
	return decoded(text, err, resultClientProviders)
}

// SocialBegin begins a browser sign-in: open its URL in the system browser, then call SocialComplete with the URL it ends on. options may be nil.
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) SocialBegin(ctx context.Context, provider string, options any) (*SocialBegin, error) {
	a := &cargs{op: "jump_client_social_begin"}
	p, o := a.str("provider", provider), a.json("options_json", options)
	text, err := c.blockingText(ctx, a.op, a, func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_social_begin(h, p, o, out)
	})
	return decoded(text, err, resultClientSocialBegin)
}

// SocialComplete completes a begun sign-in with the URL the browser ended on.
func (c *Client) SocialComplete(ctx context.Context, url string) (*SocialOutcome, error) {
	a := &cargs{op: "jump_client_social_complete_async"}
	u := a.str("url", url)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_social_complete_async(h, u, f, d, r, o)
	})
	return decoded(text, err, resultClientSocialCompleteAsync)
}

// SocialSignInLoopback signs in through the system browser: libjump listens on 127.0.0.1, calls openURL
// once (on a libjump thread) with the sign-in URL, and completes when the browser lands on the listener.
// timeout <= 0 is 5 minutes; cancelling the context stops the wait.
func (c *Client) SocialSignInLoopback(ctx context.Context, provider string, options any, openURL func(url string) error,
	timeout time.Duration) (*SocialOutcome, error) {
	a := &cargs{op: "jump_client_social_sign_in_loopback_async"}
	p, o := a.str("provider", provider), a.json("options_json", options)
	if openURL == nil && a.err == nil {
		a.err = argumentError(a.op, "open_url", "openURL is nil")
	}
	ms := C.int32_t(0)
	if timeout > 0 {
		ms = C.int32_t(clampMillis(timeout))
	}
	text, err := c.async(ctx, a.op, a, &pending{openURL: openURL}, func(h *C.jump_client, f cb, d ud, r rel, out reqp) C.jump_status {
		return C.jump_client_social_sign_in_loopback_async(h, p, o, C.jump_go_open_url(), ms, f, d, r, out)
	})
	return decoded(text, err, resultClientSocialSignInLoopbackAsync)
}

func clampMillis(d time.Duration) int64 {
	ms := d.Milliseconds()
	if ms < 1 {
		return 1
	}
	if ms > 1<<31-1 {
		return 1<<31 - 1
	}
	return ms
}

// SocialSignInNative signs in with a provider SDK's own token (tokenSecret "" for none; options may be nil).
func (c *Client) SocialSignInNative(ctx context.Context, provider, token, tokenSecret string, options any) (*SocialOutcome, error) {
	a := &cargs{op: "jump_client_social_sign_in_native_async"}
	p, t, s, o := a.str("provider", provider), a.str("token", token), a.opt("token_secret", tokenSecret), a.json("options_json", options)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, out reqp) C.jump_status {
		return C.jump_client_social_sign_in_native_async(h, p, t, s, o, f, d, r, out)
	})
	return decoded(text, err, resultClientSocialSignInNativeAsync)
}

// SetTokenURL sets the Engage-only token URL ("" removes it).
func (c *Client) SetTokenURL(url string) error {
	a := &cargs{op: "jump_client_set_token_url"}
	defer a.free()
	u := a.opt("url", url)
	if a.err != nil {
		return a.err
	}
	return c.plain(a.op, func(h *C.jump_client) C.jump_status { return C.jump_client_set_token_url(h, u) })
}

// RegisterSocial is the two-step social registration after ErrRegistrationRequired (its Detail's
// social_registration_token and prereg_record).
func (c *Client) RegisterSocial(ctx context.Context, socialRegistrationToken string, attributes any) (*SignInResult, error) {
	a := &cargs{op: "jump_client_register_social_async"}
	t, attrs := a.str("social_registration_token", socialRegistrationToken), a.json("attributes_json", attributes)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_register_social_async(h, t, attrs, f, d, r, o)
	})
	return decoded(text, err, resultClientRegisterSocialAsync)
}

// LinkedProfiles are the signed-in user's linked identities.
func (c *Client) LinkedProfiles() ([]LinkedProfile, error) {
	text, err := c.outString("jump_client_linked_profiles", func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_linked_profiles(h, out)
	})
	return decoded(text, err, resultClientLinkedProfiles)
}

// UnlinkAccount unlinks an identity, then fetches the record.
func (c *Client) UnlinkAccount(ctx context.Context, identifier string) error {
	a := &cargs{op: "jump_client_unlink_account_async"}
	i := a.str("identifier", identifier)
	_, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_unlink_account_async(h, i, f, d, r, o)
	})
	return err
}

// Share shares an activity to each provider: Results holds each provider's outcome.
func (c *Client) Share(ctx context.Context, activity any, providers []string) (*ShareResult, error) {
	a := &cargs{op: "jump_client_share_async"}
	act, p := a.json("activity_json", activity), a.json("providers_json", providers)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_share_async(h, act, p, f, d, r, o)
	})
	return decoded(text, err, resultClientShareAsync)
}

// ShareContent is the email and SMS content of an activity, its URLs shortened (network).
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) ShareContent(ctx context.Context, activity any) (*ShareContent, error) {
	a := &cargs{op: "jump_client_share_content"}
	act := a.json("activity_json", activity)
	text, err := c.blockingText(ctx, a.op, a, func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_share_content(h, act, out)
	})
	return decoded(text, err, resultClientShareContent)
}
