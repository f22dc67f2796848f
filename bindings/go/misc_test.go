package jump

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestVersions(t *testing.T) {
	if Version() == "" || VersionNumber() == 0 && Version() != "0.0.0" {
		t.Fatalf("Version %q, number %d", Version(), VersionNumber())
	}
	if ABIVersion() != HeaderABIVersion {
		t.Fatalf("ABI %d, header %d", ABIVersion(), HeaderABIVersion)
	}
}

func TestConfig(t *testing.T) {
	c, err := NewConfig()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SetString(KeyCaptureLocale, "fr-FR"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetBool(KeyCaptureEnableThinRegistration, true); err != nil {
		t.Fatal(err)
	}
	if err := c.SetInt(KeyRequestTimeoutMs, 1234); err != nil {
		t.Fatal(err)
	}
	got, err := c.JSON()
	if err != nil || got[KeyCaptureLocale] != "fr-FR" || got[KeyCaptureEnableThinRegistration] != true || got[KeyRequestTimeoutMs] != float64(1234) {
		t.Fatalf("JSON: %v %v", got, err)
	}
	if err := c.Unset(KeyCaptureLocale); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.JSON(); got[KeyCaptureLocale] != "en-US" {
		t.Fatalf("Unset left %v", got[KeyCaptureLocale])
	}
	if err := c.SetInt("noSuchKey", 1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("an unknown key: %v", err)
	}
	if err := c.SetString(KeyCaptureLocale, "en\x00US"); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("a NUL in a value: %v", err)
	}
	c.Close()
	c.Close()
	if err := c.SetInt(KeyRequestTimeoutMs, 1); !errors.Is(err, ErrInvalidHandle) {
		t.Fatalf("a closed config: %v", err)
	}
}

func TestLogHandlerAndWebLogin(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	if err := SetLogHandler(func(line LogLine) {
		mu.Lock()
		lines = append(lines, string(line.Level)+": "+line.Message)
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	defer SetLogHandler(nil)
	c := newClient(t, map[string]any{KeyEmulatorHost: strings.TrimPrefix(emulatorURL, "http://")})
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(lines)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	if len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), "warning") {
		t.Fatalf("no warning logged for emulatorHost: %v", lines)
	}
	mu.Unlock()
	token, err := c.UseWebLogin("http://127.0.0.1:1/page", "", "oauth_token=abc123")
	if err != nil || token != "abc123" {
		t.Fatalf("UseWebLogin: %v (the token given back differs: %v)", err, token != "abc123")
	}
	if _, err := c.UseWebLogin("http://127.0.0.1:1/page", "", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("UseWebLogin without a token: %v", err)
	}
	engageOnly, err := Open(map[string]any{KeyEngageAppID: "jump-default-engage", KeyEngageDomain: emulatorURL,
		KeyStorageDirectory: ":memory:"})
	if err != nil {
		t.Fatal(err)
	}
	defer engageOnly.Close()
	if err := engageOnly.SetTokenURL("http://127.0.0.1:1/token"); err != nil {
		t.Fatalf("SetTokenURL: %v", err)
	}
	if err := engageOnly.SetTokenURL(""); err != nil {
		t.Fatalf("SetTokenURL(\"\"): %v", err)
	}
	if err := c.EraseQuarantine(); err != nil {
		t.Fatalf("EraseQuarantine: %v", err)
	}
}

// The finalizer is a safety net: clients, configs and records dropped without Close are freed by it, on the
// finalizer goroutine, without crashing and without disturbing the clients still in use.
func TestFinalizersFreeDroppedHandles(t *testing.T) {
	reset(t)
	kept := newClient(t, nil)
	register(t, kept)
	for i := 0; i < 20; i++ {
		c, err := Open(map[string]any{KeyStorageDirectory: ":memory:"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewConfig(); err != nil {
			t.Fatal(err)
		}
		if _, err := kept.Record(); err != nil {
			t.Fatal(err)
		}
		_ = c.IsSignedIn()
	}
	for i := 0; i < 3; i++ {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := kept.Sync(context.Background()); err != nil || !kept.IsSignedIn() {
		t.Fatalf("the client in use, after the others were finalized: %v", err)
	}
}
