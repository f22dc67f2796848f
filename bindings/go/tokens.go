package jump

// Sign-in tokens, API keys, external users, credentials and authorized requests.

/*
#include "bridge.h"
*/
import "C"

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"runtime"
	"runtime/cgo"
	"time"
)

// DecodeSignInToken decodes a sign-in token without using it: its user, team, environment, region and expiry
// (no client, no network).
func DecodeSignInToken(token string) (*SignInTokenInfo, error) {
	a := cargs{op: "jump_sign_in_token_decode"}
	defer a.free()
	t := a.str("sign_in_token", token)
	if a.err != nil {
		return nil, a.err
	}
	var out *C.char
	err := check(a.op, func() C.jump_status { return C.jump_sign_in_token_decode(t, &out) })
	return decoded(take(out), err, resultSignInTokenDecode)
}

// SignInWithToken exchanges a sign-in token (from the app's backend) for a session.
func (c *Client) SignInWithToken(ctx context.Context, token string) (*SignInWithTokenResult, error) {
	a := &cargs{op: "jump_client_sign_in_with_token_async"}
	t := a.str("sign_in_token", token)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_sign_in_with_token_async(h, t, f, d, r, o)
	})
	return decoded(text, err, resultClientSignInWithTokenAsync)
}

// UseAPIKey switches to API-key mode (userID may be ""; environment "production", "sandbox", "dev" or
// "local"; region "us" or "eu").
func (c *Client) UseAPIKey(apiKey, userID, environment, region string) error {
	a := cargs{op: "jump_client_use_api_key"}
	defer a.free()
	k, u, e, r := a.str("api_key", apiKey), a.opt("user_id", userID), a.str("environment", environment), a.str("region", region)
	if a.err != nil {
		return a.err
	}
	return c.plain(a.op, func(h *C.jump_client) C.jump_status { return C.jump_client_use_api_key(h, k, u, e, r) })
}

// Status is the sign-in status: whether a sign-in token or API key is in use, its user, environment and region.
func (c *Client) Status() (*SignInStatus, error) {
	text, err := c.outString("jump_client_status", func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_status(h, out)
	})
	return decoded(text, err, resultClientStatus)
}

// Credential is the app's answer for IdentifyExternalUser: a sign-in token, or an API key (with its user,
// environment and region).
type Credential struct {
	SignInToken string
	APIKey      string
	UserID      string
	Environment string
	Region      string
}

type authenticator struct {
	authenticate func(externalUserID string) (Credential, error)
}

func (a *authenticator) answer(externalUserID string) ([]byte, error) {
	c, err := a.authenticate(externalUserID)
	if err != nil {
		return nil, err
	}
	if c.SignInToken != "" {
		return json.Marshal(map[string]any{"type": "sign_in_token", "sign_in_token": c.SignInToken})
	}
	return json.Marshal(map[string]any{"type": "api_key", "api_key": c.APIKey, "user_id": c.UserID,
		"environment": c.Environment, "region": c.Region})
}

// IdentifyExternalUser makes the signed-in user the one of the app's externalUserID; authenticate supplies
// a credential when one is needed (on the calling goroutine's thread; it must not call this client).
// The result's Action says what it did (IdentifyResultActionSignedIn, ...).
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) IdentifyExternalUser(ctx context.Context, externalUserID string,
	authenticate func(externalUserID string) (Credential, error)) (*IdentifyResult, error) {
	a := &cargs{op: "jump_client_identify_external_user"}
	u := a.str("external_user_id", externalUserID)
	if authenticate == nil && a.err == nil {
		a.err = argumentError(a.op, "authenticate", "authenticate is nil")
	}
	text, err := c.blockingText(ctx, a.op, a, func(h *C.jump_client, out **C.char) C.jump_status {
		// No userdata_free here: the handle lives for this call only.
		handle := cgo.NewHandle(&authenticator{authenticate})
		defer handle.Delete()
		return C.jump_client_identify_external_user(h, u, C.jump_go_authenticate(), C.jump_go_userdata(C.uintptr_t(handle)), out)
	})
	return decoded(text, err, resultClientIdentifyExternalUser)
}

// Bytes is the body of the answer: Body as bytes, or BodyBase64 decoded when the body is not UTF-8.
func (r *HTTPResponse) Bytes() []byte {
	if r.BodyBase64 != "" {
		b, _ := base64.StdEncoding.DecodeString(r.BodyBase64)
		return b
	}
	return []byte(r.Body)
}

// Request sends method to url with the client's credential (url relative to that credential's server, or
// absolute on it); headers and body may be nil. An HTTP error status is an answer, not a failure.
func (c *Client) Request(ctx context.Context, method, url string, headers map[string]string, body []byte) (*HTTPResponse, error) {
	a := &cargs{op: "jump_client_request_async"}
	m, u := a.str("method", method), a.str("url", url)
	var hj *C.char
	if headers != nil {
		hj = a.json("headers_json", headers)
	}
	var b *C.char
	if body != nil {
		b = (*C.char)(C.CBytes(body)) // copied by libjump before the call returns
		defer C.free(unsafePointer(b))
	}
	raw, err := await(ctx, a.op, a, nil, func(f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_request_async(c.handle(), m, u, hj, b, C.size_t(len(body)), f, d, r, o)
	})
	runtime.KeepAlive(c)
	return decoded(string(raw), err, resultClientRequestAsync)
}

// UseWebLogin takes the token a web login page left in its cookies or title and keeps it for pageURL's
// origin; it returns the token (a secret). cookies and title may be "".
func (c *Client) UseWebLogin(pageURL, cookies, title string) (string, error) {
	a := cargs{op: "jump_client_use_web_login"}
	defer a.free()
	p, k, t := a.str("page_url", pageURL), a.opt("cookies", cookies), a.opt("title", title)
	if a.err != nil {
		return "", a.err
	}
	return c.outString(a.op, func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_use_web_login(h, p, k, t, out)
	})
}

// AccessToken is a valid access token, refreshed first if it is about to expire (a secret).
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) AccessToken(ctx context.Context) (string, error) {
	return blocking(ctx, "jump_client_access_token", func() (string, error) {
		return c.outString("jump_client_access_token", func(h *C.jump_client, out **C.char) C.jump_status {
			return C.jump_client_access_token(h, out)
		})
	})
}

// RefreshAccessToken refreshes the session now.
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) RefreshAccessToken(ctx context.Context) error {
	return c.blockingPlain(ctx, "jump_client_refresh_access_token", func(h *C.jump_client) C.jump_status {
		return C.jump_client_refresh_access_token(h)
	})
}

// Credentials is the credential Request would send (its AccessToken is a secret), refreshed first when it has minTTL or less left, or when forceRefresh.
func (c *Client) Credentials(ctx context.Context, minTTL time.Duration, forceRefresh bool) (*Credentials, error) {
	a := &cargs{op: "jump_client_credentials_async"}
	flags := C.uint32_t(0)
	if forceRefresh {
		flags = C.JUMP_CREDENTIALS_FORCE_REFRESH
	}
	ttl := C.int64_t(minTTL / time.Second)
	text, err := c.async(ctx, a.op, a, nil, func(h *C.jump_client, f cb, d ud, r rel, o reqp) C.jump_status {
		return C.jump_client_credentials_async(h, ttl, flags, f, d, r, o)
	})
	return decoded(text, err, resultClientCredentialsAsync)
}

// HasValidCredentials reports whether the credential held now lasts more than minTTL (memory only).
func (c *Client) HasValidCredentials(minTTL time.Duration) bool {
	ok := C.jump_client_has_valid_credentials(c.handle(), C.int64_t(minTTL/time.Second)) == 1
	runtime.KeepAlive(c)
	return ok
}
