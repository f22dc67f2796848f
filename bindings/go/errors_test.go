package jump

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Every status of jump.h has its constant, name and sentinel, and an *Error of it matches that sentinel
// alone, through errors.Is, also wrapped.
func TestEveryStatusMaps(t *testing.T) {
	all := Statuses()
	if len(all) != 20 || all[0] != StatusOK || all[19] != StatusAlreadySignedIn {
		t.Fatalf("Statuses: %v", all)
	}
	if StatusOK.Err() != nil {
		t.Fatal("StatusOK has an error")
	}
	seen := map[error]Status{}
	for _, s := range all[1:] {
		sentinel := s.Err()
		if sentinel == nil || !strings.HasPrefix(s.String(), "JUMP_E_") || s.Description() == "" || s.Meaning() == "" {
			t.Fatalf("%d: sentinel %v, name %q, description %q", int32(s), sentinel, s.String(), s.Description())
		}
		if prior, dup := seen[sentinel]; dup {
			t.Fatalf("%v and %v share a sentinel", prior, s)
		}
		seen[sentinel] = s
		err := fmt.Errorf("wrapped: %w", newError("jump_test", s, fmt.Sprintf(`{"status":%d,"message":"m"}`, int32(s))))
		for _, other := range all[1:] {
			if errors.Is(err, other.Err()) != (other == s) {
				t.Fatalf("errors.Is(%v, %v) = %v", s, other, !(other == s))
			}
		}
		var jerr *Error
		if !errors.As(err, &jerr) || jerr.Status != s || jerr.Message != "m" {
			t.Fatalf("errors.As for %v: %#v", s, jerr)
		}
	}
	if ErrExpired != StatusExpired.Err() || ErrBadCredentials.Error() != "jump: JUMP_E_BAD_CREDENTIALS" {
		t.Fatal("the sentinels are not the generated ones")
	}
	if Status(-99).String() != "jump_status(-99)" || Status(-99).Err() != nil {
		t.Fatal("an unknown status")
	}
}

// Real failures from libjump, each mapped to its sentinel with libjump's detail.
func TestLibjumpFailuresMap(t *testing.T) {
	reset(t)
	ctx := context.Background()
	c := newClient(t, nil)
	cases := []struct {
		sentinel error
		call     func() error
	}{
		{ErrInvalidArgument, func() error { _, err := ConfigFromJSON(`{"noSuchKey": 1}`); return err }},
		{ErrInvalidArgument, func() error { _, err := ConfigFromJSON(`not json`); return err }},
		{ErrNotSignedIn, func() error { _, err := c.Record(); return err }},
		{ErrNotSignedIn, func() error { _, err := c.Sync(ctx); return err }},
		{ErrInvalidArgument, func() error { _, err := DecodeSignInToken("not base64 !"); return err }},
		{ErrInvalidArgument, func() error { _, err := c.SignIn(ctx, "a\x00b", password); return err }},
	}
	for i, k := range cases {
		err := k.call()
		var jerr *Error
		if !errors.Is(err, k.sentinel) || !errors.As(err, &jerr) || jerr.Message == "" || jerr.Detail["status"] == nil {
			t.Fatalf("case %d: want %v with a detail, got %v (%#v)", i, k.sentinel, err, jerr)
		}
	}
	// The detail belongs to the failing call, also when the goroutine could have moved between threads.
	done := make(chan error, 64)
	for i := 0; i < 64; i++ {
		go func(i int) {
			if i%2 == 0 {
				_, err := ConfigFromJSON(`{"noSuchKey": 1}`)
				done <- err
			} else {
				_, err := c.Record()
				done <- err
			}
		}(i)
	}
	for i := 0; i < 64; i++ {
		var jerr *Error
		if err := <-done; !errors.As(err, &jerr) || jerr.Detail["status"] != float64(jerr.Status) {
			t.Fatalf("a detail that is not the call's own: %v %s", err, jerr.DetailJSON)
		}
	}
}
