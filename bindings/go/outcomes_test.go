package jump

// Real failures of a session, each reaching Go as its sentinel with libjump's detail: an expired session
// (the server refuses the refresh) and a conflict (the same attribute edited here and on the server).

import (
	"context"
	"errors"
	"testing"
)

func TestExpiredSessionKeepsEdits(t *testing.T) {
	reset(t)
	ctx := context.Background()
	c := newClient(t, nil)
	acct := register(t, c)
	r, err := c.Record()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.SetString("/aboutMe", "kept through the expiry"); err != nil {
		t.Fatal(err)
	}
	// Capture refuses the next refresh as it does a revoked session.
	admin(t, "POST", "/emulator/faults", map[string]any{"kind": "capture_error", "count": 1,
		"path": "/oauth/refresh_access_token", "code": 200}, nil)
	if err := c.RefreshAccessToken(ctx); !errors.Is(err, ErrExpired) {
		t.Fatalf("a refused refresh: %v", err)
	}
	if err := c.FetchRecord(ctx); !errors.Is(err, ErrExpired) {
		t.Fatalf("a fetch after it: %v", err)
	}
	if state, _ := c.State(); state == nil || !state.UnsyncedChanges {
		t.Fatalf("the edit was dropped: %v", state)
	}
	result, err := c.SignIn(ctx, acct.email, password)
	if err != nil {
		t.Fatalf("signing in again: %v", err)
	}
	if kept := result.KeptChanges; len(kept) != 1 || kept[0] != "/aboutMe" {
		t.Fatalf("kept_changes: %v", result.KeptChanges)
	}
}

func TestConflictCarriesTheConflicts(t *testing.T) {
	reset(t)
	ctx := context.Background()
	c := newClient(t, nil)
	acct := register(t, c)
	// The same user changes /aboutMe from another device.
	other := newClient(t, map[string]any{KeyStorageDirectory: ":memory:"})
	if _, err := other.SignIn(ctx, acct.email, password); err != nil {
		t.Fatal(err)
	}
	theirs, _ := other.Record()
	defer theirs.Close()
	if err := theirs.SetString("/aboutMe", "from the other device"); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	mine, _ := c.Record()
	defer mine.Close()
	if err := mine.SetString("/aboutMe", "from this device"); err != nil {
		t.Fatal(err)
	}
	err := c.FetchRecord(ctx)
	var jerr *Error
	if !errors.Is(err, ErrConflict) || !errors.As(err, &jerr) {
		t.Fatalf("want ErrConflict, got %v", err)
	}
	conflicts, _ := jerr.Detail["conflicts"].([]any)
	if len(conflicts) != 1 || conflicts[0].(map[string]any)["path"] != "/aboutMe" ||
		conflicts[0].(map[string]any)["server"] != "from the other device" {
		t.Fatalf("conflicts: %s", jerr.DetailJSON)
	}
	if err := mine.Revert("/aboutMe"); err != nil {
		t.Fatal(err)
	}
	if s, _ := mine.GetString("/aboutMe"); s == nil || *s != "from the other device" {
		t.Fatal("Revert did not take the server's value")
	}
}
