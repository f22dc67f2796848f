package jump

// The calls without an _async form in the C API (issue 41): a context cannot stop them once they started,
// so the binding looks at it only before starting, then returns the call's own result. What is returned
// must tell what happened: a SignOut that reports the context's error must not have signed out.

import (
	"context"
	"errors"
	"testing"
	"time"
)

const revokePath = "/v1/revoke"

// signedInTokenClient is a sign-in-token session, whose sign-out revokes its refresh token on the server
// (a Capture sign-out has no network: it would end before any context could be cancelled).
func signedInTokenClient(t *testing.T) *Client {
	t.Helper()
	c := tokenClient(t)
	if _, err := c.SignInWithToken(context.Background(), mint(t, newTokenUser(t))); err != nil || !tokenSignedIn(t, c) {
		t.Fatalf("SignInWithToken: %v (signed in %v)", err, tokenSignedIn(t, c))
	}
	return c
}

// tokenSignedIn is the sign-in-token session's state (IsSignedIn is the Capture session's).
func tokenSignedIn(t *testing.T, c *Client) bool {
	t.Helper()
	status, err := c.Status()
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	return status.SignedIn
}

// TestSignOutCancelledWhileRunning: the context is cancelled while the revocation (delayed by the emulator)
// is in flight. The result is the call's own, and the state agrees with it. On the old binding SignOut
// returned ErrCancelled after 200 ms while the C call went on and signed out.
func TestSignOutCancelledWhileRunning(t *testing.T) {
	reset(t)
	c := signedInTokenClient(t)
	delay(t, revokePath, 1500)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(200*time.Millisecond, cancel)
	started := time.Now()
	var err error
	within(t, 20*time.Second, "SignOut", func() { err = c.SignOut(ctx) })
	elapsed := time.Since(started)
	if ctx.Err() == nil {
		t.Fatal("the context was not cancelled during the call")
	}
	switch {
	case err == nil:
		if tokenSignedIn(t, c) {
			t.Fatal("SignOut returned nil and the user is still signed in")
		}
	case errors.Is(err, context.Canceled):
		if !tokenSignedIn(t, c) {
			t.Fatalf("SignOut returned the context's error (%v) after %v, yet the user was signed out", err, elapsed)
		}
	default:
		t.Fatalf("SignOut: %v", err)
	}
	// It started before the cancel, so it ran to its end: the real result, after the server answered.
	if err != nil || elapsed < 1400*time.Millisecond {
		t.Fatalf("SignOut returned %v after %v: it did not wait for the call it started", err, elapsed)
	}
}

// TestSignOutWithDoneContext: a context done before the call starts nothing; the user stays signed in.
func TestSignOutWithDoneContext(t *testing.T) {
	reset(t)
	c := signedInTokenClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := c.SignOut(ctx)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrCancelled) {
		t.Fatalf("SignOut with a done context: %v", err)
	}
	if !tokenSignedIn(t, c) {
		t.Fatal("SignOut with a done context signed out")
	}
	if err := c.SignOut(context.Background()); err != nil || tokenSignedIn(t, c) {
		t.Fatalf("SignOut: %v (signed in %v)", err, tokenSignedIn(t, c))
	}
}

// TestBlockingCallsHonestAboutContext: every call without an _async form, with a context done before it,
// returns the context's error and starts nothing (no request reaches the emulator); with a context that
// ends while it runs, it returns its own result.
func TestBlockingCallsHonestAboutContext(t *testing.T) {
	reset(t)
	c := newClient(t, nil)
	register(t, c)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]func(ctx context.Context) error{
		"LoadFlow":         func(ctx context.Context) error { return c.LoadFlow(ctx) },
		"LoadSchema":       func(ctx context.Context) error { return c.LoadSchema(ctx) },
		"LoadEngageConfig": func(ctx context.Context) error { _, err := c.LoadEngageConfig(ctx); return err },
		"Providers":        func(ctx context.Context) error { _, err := c.Providers(ctx); return err },
		"SocialBegin":      func(ctx context.Context) error { _, err := c.SocialBegin(ctx, "google", nil); return err },
		"ShareContent": func(ctx context.Context) error {
			_, err := c.ShareContent(ctx, map[string]any{"url": "https://example.com/"})
			return err
		},
		"AccessToken":        func(ctx context.Context) error { _, err := c.AccessToken(ctx); return err },
		"RefreshAccessToken": func(ctx context.Context) error { return c.RefreshAccessToken(ctx) },
		"IdentifyExternalUser": func(ctx context.Context) error {
			_, err := c.IdentifyExternalUser(ctx, "someone", func(string) (Credential, error) {
				return Credential{}, errors.New("not asked")
			})
			return err
		},
		"SignOut": func(ctx context.Context) error { return c.SignOut(ctx) },
	}
	for name, call := range calls {
		admin(t, "DELETE", "/emulator/counters", nil, nil)
		if err := call(done); !errors.Is(err, context.Canceled) || !errors.Is(err, ErrCancelled) {
			t.Errorf("%s with a done context: %v", name, err)
		}
		if counted, _ := admin(t, "GET", "/emulator/counters", nil, nil)["counters"].(map[string]any); len(counted) != 0 {
			t.Errorf("%s with a done context reached the server: %v", name, counted)
		}
		if !c.IsSignedIn() {
			t.Fatalf("%s with a done context signed out", name)
		}
	}
	// Started, then the context ends while the server takes its time: the call's own result (the flow is
	// loaded: nil), after the answer, not the context's error at the cancel.
	admin(t, "POST", "/emulator/faults", map[string]any{"kind": "delay", "count": 1, "delay_ms": 1000}, nil)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	time.AfterFunc(200*time.Millisecond, stop)
	started := time.Now()
	if err := c.LoadFlow(ctx); err != nil || time.Since(started) < 900*time.Millisecond {
		t.Fatalf("LoadFlow cancelled while running: %v after %v (want its own result, nil, after the answer)", err, time.Since(started))
	}
	if ctx.Err() == nil {
		t.Fatal("the context was not cancelled during LoadFlow")
	}
}
