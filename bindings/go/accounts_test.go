package jump

// Several accounts in one client (config key "accounts" = "multiple"), against the real emulator: two users
// signed in, listed, switched back and forth without a password, one removed while the other stays usable.

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"
	"time"
)

// adminUser makes a user through the emulator's admin API: its uuid.
func adminUser(t *testing.T, email, displayName string) string {
	t.Helper()
	u, _ := admin(t, "POST", "/emulator/users", map[string]any{"email": email, "password": password,
		"record": map[string]any{"displayName": displayName}}, nil)["user"].(map[string]any)
	id, _ := u["uuid"].(string)
	if id == "" {
		t.Fatalf("POST /emulator/users: no uuid in %v", u)
	}
	return id
}

func recordEmail(t *testing.T, c *Client) string {
	t.Helper()
	r, err := c.Record()
	if err != nil {
		t.Fatalf("Record: %v", err)
	}
	defer r.Close()
	s, err := r.GetString("/email")
	if err != nil || s == nil {
		t.Fatalf("GetString(/email): %v %v", s, err)
	}
	return *s
}

func activeUUID(t *testing.T, c *Client) string {
	t.Helper()
	state, err := c.State()
	if err != nil {
		t.Fatalf("State: %v", err)
	}
	return state.UUID
}

func TestSeveralAccounts(t *testing.T) {
	reset(t)
	ctx := context.Background()
	aEmail, bEmail := uniqueEmail("go-acct-a"), uniqueEmail("go-acct-b")
	aUUID, bUUID := adminUser(t, aEmail, "Ann"), adminUser(t, bEmail, "Bob")
	c := newClient(t, map[string]any{KeyAccounts: "multiple"})
	var mu sync.Mutex
	var switched []string
	if err := c.OnEvent(func(e Event) {
		if e.Name == EventAccountSwitched {
			mu.Lock()
			switched = append(switched, e.UUID)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if listed, err := c.Accounts(); err != nil || len(listed.Accounts) != 0 || listed.Active != "" {
		t.Fatalf("Accounts of a new client: %v %v", listed, err)
	}
	for _, email := range []string{aEmail, bEmail} {
		if _, err := c.SignIn(ctx, email, password); err != nil {
			t.Fatalf("SignIn %s: %v", email, err)
		}
	}
	listed, err := c.Accounts()
	if err != nil {
		t.Fatalf("Accounts: %v", err)
	}
	if len(listed.Accounts) != 2 || listed.Active != bUUID || listed.Accounts[0].UUID != bUUID || !listed.Accounts[0].Active ||
		listed.Accounts[1].UUID != aUUID || listed.Accounts[1].Active {
		t.Fatalf("Accounts after two sign-ins (B active and first): %v", listed)
	}
	var emails, names []string
	for _, a := range listed.Accounts {
		emails, names = append(emails, a.Email), append(names, a.DisplayName)
		if !a.SignedIn || a.ReauthenticationRequired || a.LastUsed.IsZero() || time.Since(a.LastUsed) > time.Hour {
			t.Fatalf("a saved account's fields: %+v", a)
		}
	}
	sort.Strings(names)
	if emails[0] != bEmail || emails[1] != aEmail || names[0] != "Ann" || names[1] != "Bob" {
		t.Fatalf("emails %v, display names %v", emails, names)
	}

	// Back and forth, no password: the state's uuid and the record follow.
	admin(t, "DELETE", "/emulator/counters", nil, nil)
	for _, want := range []account{{aEmail, aUUID}, {bEmail, bUUID}, {aEmail, aUUID}} {
		if err := c.SwitchAccount(ctx, want.uuid); err != nil {
			t.Fatalf("SwitchAccount(%s): %v", want.email, err)
		}
		if !c.IsSignedIn() || activeUUID(t, c) != want.uuid || recordEmail(t, c) != want.email {
			t.Fatalf("after SwitchAccount(%s): uuid %s, record email %s", want.email, activeUUID(t, c), recordEmail(t, c))
		}
	}
	counters, _ := admin(t, "GET", "/emulator/counters", nil, nil)["counters"].(map[string]any)
	if n, _ := counters["POST /oauth/auth_native_traditional"].(float64); n != 0 {
		t.Fatalf("a switch signed in again: %v", counters)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := append([]string(nil), switched...)
		mu.Unlock()
		if len(got) >= 3 && got[len(got)-3] == aUUID && got[len(got)-2] == bUUID && got[len(got)-1] == aUUID {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("account_switched events: %v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A done context: the switch does not happen.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := c.SwitchAccount(done, bUUID); !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) || activeUUID(t, c) != aUUID {
		t.Fatalf("SwitchAccount with a done context: %v, active %s", err, activeUUID(t, c))
	}
	if err := c.RemoveAccount(done, bUUID); !errors.Is(err, ErrCancelled) {
		t.Fatalf("RemoveAccount with a done context: %v", err)
	}

	// Unknown uuids.
	if err := c.SwitchAccount(ctx, "no-such-uuid"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("SwitchAccount(unknown): want ErrNotFound, got %v", err)
	}
	if err := c.RemoveAccount(ctx, "no-such-uuid"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("RemoveAccount(unknown): want ErrNotFound, got %v", err)
	}

	// Remove B (not active): A stays signed in and usable.
	if err := c.RemoveAccount(ctx, bUUID); err != nil {
		t.Fatalf("RemoveAccount(B): %v", err)
	}
	listed, err = c.Accounts()
	if err != nil || len(listed.Accounts) != 1 || listed.Active != aUUID || listed.Accounts[0].Email != aEmail {
		t.Fatalf("Accounts after removing B: %v %v", listed, err)
	}
	if err := c.SwitchAccount(ctx, bUUID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("SwitchAccount(removed B): want ErrNotFound, got %v", err)
	}
	r, err := c.Record()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetString("/aboutMe", "still usable"); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if _, err := c.Sync(ctx); err != nil || !c.IsSignedIn() {
		t.Fatalf("Sync as A after removing B: %v (signed in %v)", err, c.IsSignedIn())
	}
	if got := user(t, aUUID)["aboutMe"]; got != "still usable" {
		t.Fatalf("A's aboutMe on the server: %v", got)
	}

	// Removing the active account leaves no one active.
	if err := c.RemoveAccount(ctx, aUUID); err != nil || c.IsSignedIn() {
		t.Fatalf("RemoveAccount(A, active): %v, signed in %v", err, c.IsSignedIn())
	}
	if listed, err := c.Accounts(); err != nil || len(listed.Accounts) != 0 || listed.Active != "" {
		t.Fatalf("Accounts after removing both: %v %v", listed, err)
	}
}
