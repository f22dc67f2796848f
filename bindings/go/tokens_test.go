package jump

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

const teamKey = "jump-team-key"

func tokenAPI(t *testing.T, method, path string, body any) map[string]any {
	if body == nil {
		body = map[string]any{}
	}
	return admin(t, method, path, body, map[string]string{"x-jump-api-key": teamKey})
}

func newTokenUser(t *testing.T) string {
	return tokenAPI(t, "POST", "/v2/user", map[string]any{"client_user_id": fmt.Sprint(time.Now().UnixNano())})["user_id"].(string)
}

func mint(t *testing.T, userID string) string {
	return tokenAPI(t, "POST", "/v2/user/"+userID+"/sign_in_token", nil)["sign_in_token"].(string)
}

func tokenClient(t *testing.T) *Client {
	s := settings(t, map[string]any{KeySignInTokenAuthBaseURL: emulatorURL, KeySignInTokenAPIBaseURL: emulatorURL})
	for _, k := range []string{KeyCaptureDomain, KeyCaptureClientID, KeyCaptureAppID, KeyCaptureFlowName, KeyCaptureFlowDomain} {
		delete(s, k)
	}
	c, err := Open(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestSignInTokenSession(t *testing.T) {
	reset(t)
	ctx := context.Background()
	userID := newTokenUser(t)
	token := mint(t, userID)
	decoded, err := DecodeSignInToken(token)
	if err != nil || decoded.UserID != userID || decoded.Region != SignInTokenInfoRegionUS {
		t.Fatalf("DecodeSignInToken: %v %v", decoded, err)
	}
	c := tokenClient(t)
	var mu sync.Mutex
	var events []EventName
	var inHandler error = errors.New("not called")
	// The handler may wait for a call of the client: events do not hold libjump's delivery thread.
	if err := c.OnEvent(func(e Event) {
		_, err := c.Credentials(context.Background(), 0, false)
		mu.Lock()
		events = append(events, e.Name)
		inHandler = err
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	result, err := c.SignInWithToken(ctx, token)
	if err != nil || result.UserID != userID || !result.Changed {
		t.Fatalf("SignInWithToken: %v %v", result, err)
	}
	status, err := c.Status()
	if err != nil || !status.SignedIn || !status.UseSignInToken || status.UserID != userID || status.Region != SignInStatusRegionUS {
		t.Fatalf("Status: %v %v", status, err)
	}
	if !c.HasValidCredentials(time.Minute) {
		t.Fatal("no valid credential after the sign-in")
	}
	access, err := c.AccessToken(ctx)
	if err != nil || access == "" {
		t.Fatalf("AccessToken: %v", err)
	}
	cred, err := c.Credentials(ctx, 0, true)
	if err != nil || cred.Kind != CredentialsKindSignInToken || !cred.Refreshed || cred.AccessToken == "" ||
		cred.ExpiresIn == nil || *cred.ExpiresIn <= 0 || !cred.ExpiresAt.After(time.Now()) {
		t.Fatalf("Credentials: %v", err)
	}
	if err := c.RefreshAccessToken(ctx); err != nil {
		t.Fatalf("RefreshAccessToken: %v", err)
	}
	profile := "/v2/user/" + userID + "/profile"
	put, err := c.Request(ctx, "PUT", profile, map[string]string{"Content-Type": "application/json"}, []byte(`{"colour":"blue"}`))
	if err != nil || put.Status != 200 {
		t.Fatalf("Request PUT: %+v %v", put, err)
	}
	resp, err := c.Request(ctx, "GET", profile, nil, nil)
	if err != nil || resp.Status != 200 || !strings.Contains(string(resp.Bytes()), "blue") || len(resp.Headers) == 0 {
		t.Fatalf("Request GET: %+v %v", resp, err)
	}
	// The same token again: spent.
	other := tokenClient(t)
	if _, err := other.SignInWithToken(ctx, token); !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("a spent token: %v", err)
	}
	// Another user on the signed-in client.
	if _, err := c.SignInWithToken(ctx, mint(t, newTokenUser(t))); !errors.Is(err, ErrAlreadySignedIn) {
		t.Fatalf("another user's token: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := len(events)
		mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) == 0 || inHandler != nil {
		t.Fatalf("events %v; a call from the handler: %v", events, inHandler)
	}
}

func TestIdentifyExternalUserAndAPIKey(t *testing.T) {
	reset(t)
	ctx := context.Background()
	userID := newTokenUser(t)
	c := tokenClient(t)
	calls := 0
	result, err := c.IdentifyExternalUser(ctx, "ext-1", func(external string) (Credential, error) {
		calls++
		if external != "ext-1" {
			return Credential{}, ErrInvalidArgument
		}
		return Credential{SignInToken: mint(t, userID)}, nil
	})
	if err != nil || result.Action != IdentifyResultActionSignedIn || result.UserID != userID || calls != 1 {
		t.Fatalf("IdentifyExternalUser: %v %v (%d calls)", result, err, calls)
	}
	again, err := c.IdentifyExternalUser(ctx, "ext-1", func(string) (Credential, error) { calls++; return Credential{}, nil })
	if err != nil || again.Action != IdentifyResultActionNone || calls != 1 {
		t.Fatalf("the same user again: %v %v", again, err)
	}
	refused := tokenClient(t)
	if _, err := refused.IdentifyExternalUser(ctx, "ext-2", func(string) (Credential, error) {
		return Credential{}, ErrBadCredentials
	}); !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("authenticate refused: %v", err)
	}
	keyed := tokenClient(t)
	if err := keyed.UseAPIKey("an-api-key", "api-key-user", "dev", "us"); err != nil {
		t.Fatalf("UseAPIKey: %v", err)
	}
	if _, err := keyed.Credentials(ctx, 0, true); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("forcing a refresh of an API key: %v", err)
	}
}
