package jump

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

func socialClient(t *testing.T, thin bool) *Client {
	return newClient(t, map[string]any{KeyEngageAppID: "jump-default-engage", KeyEngageDomain: emulatorURL,
		KeyCaptureEnableThinRegistration: thin})
}

// browser plays the system browser for libjump's openURL: on a goroutine of its own (a browser returns
// at once), the provider's page, then the redirect to the loopback listener.
type browser struct {
	t           *testing.T
	name, email string
	cancel      bool
	wg          sync.WaitGroup
	mu          sync.Mutex
	urls        []string
	landed      int
	page        string
}

func (b *browser) open(u string) error {
	b.mu.Lock()
	b.urls = append(b.urls, u)
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		back := finishAtIdP(b.t, u, b.name, b.email, b.cancel)
		status, _, body := httpCall(b.t, "GET", back, nil, nil)
		b.mu.Lock()
		b.landed, b.page = status, string(body)
		b.mu.Unlock()
	}()
	return nil
}

func TestSocialSignInLoopback(t *testing.T) {
	reset(t)
	ctx := context.Background()
	c := socialClient(t, true)
	providers, err := c.Providers(ctx)
	if err != nil || len(providers.SignIn) == 0 || providers.SignIn[0].Name == "" {
		t.Fatalf("Providers: %v %v", providers, err)
	}
	b := &browser{t: t, name: "Lou Pback", email: uniqueEmail("loop")}
	result, err := c.SocialSignInLoopback(ctx, "facebook", nil, b.open, 30*time.Second)
	b.wg.Wait()
	if err != nil {
		t.Fatalf("SocialSignInLoopback: %v", err)
	}
	if result.Outcome != SocialOutcomeOutcomeRegistered || result.Provider != "facebook" || !result.IsNew || !c.IsSignedIn() {
		t.Fatalf("outcome: %v", result)
	}
	if len(b.urls) != 1 || b.landed != 200 || !strings.Contains(strings.ToLower(b.page), "close") {
		t.Fatalf("the browser: %d URLs, landed %d", len(b.urls), b.landed)
	}
	profiles, err := c.LinkedProfiles()
	if err != nil || len(profiles) != 1 || profiles[0].Provider != "facebook" || profiles[0].Identifier == "" {
		t.Fatalf("LinkedProfiles: %v %v", profiles, err)
	}
	// Cancelled on the provider's page: ErrCancelled, the reason in the detail.
	other := socialClient(t, true)
	_, err = other.SocialSignInLoopback(ctx, "facebook", nil, (&browser{t: t, cancel: true}).open, 30*time.Second)
	var jerr *Error
	if !errors.As(err, &jerr) || jerr.Status != StatusCancelled || jerr.Detail["reason"] != "user_canceled" {
		t.Fatalf("cancelled on the page: %v", err)
	}
}

func TestSocialLoopbackContextAndOpenURLFailure(t *testing.T) {
	reset(t)
	c := socialClient(t, true)
	// The app's own error from openURL comes back (errors.Is), at once.
	mine := errors.New("no browser here")
	if _, err := c.SocialSignInLoopback(context.Background(), "facebook", nil, func(string) error { return mine },
		30*time.Second); !errors.Is(err, mine) {
		t.Fatalf("openURL's error: %v", err)
	}
	// Nobody comes: cancelling the context stops the wait and closes the listener.
	ctx, cancel := context.WithCancel(context.Background())
	var opened string
	started := time.Now()
	_, err := c.SocialSignInLoopback(ctx, "facebook", nil, func(u string) error {
		opened = u
		time.AfterFunc(200*time.Millisecond, cancel)
		return nil
	}, time.Minute)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrCancelled) || time.Since(started) > 5*time.Second {
		t.Fatalf("cancelled wait: %v after %v", err, time.Since(started))
	}
	q, _ := url.Parse(opened)
	if listener := q.Query().Get("token_url"); listener != "" {
		if _, err := (&browser{t: t}).probe(listener); err == nil {
			t.Fatal("the loopback listener still answers")
		}
	}
}

func (b *browser) probe(u string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, _ := httpRequest(ctx, u)
	resp, err := req()
	if err != nil {
		return 0, err
	}
	return resp, nil
}
