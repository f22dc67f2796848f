package jump

// The tests' world: one real jump-emulator process for the whole run (started like the other suites do:
// --port 0, its address on the first stdout line), reset before each test, and its admin API over HTTP.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const password = "correct horse battery"

var emulatorURL string

func emulatorBinary() string {
	if p := os.Getenv("JUMP_EMULATOR"); p != "" {
		return p
	}
	root, _ := filepath.Abs("../..")
	return filepath.Join(root, "build", "bin", "jump-emulator")
}

func TestMain(m *testing.M) {
	if email := os.Getenv("JUMP_GO_BROWSER_DRIVER"); email != "" && len(os.Args) == 2 {
		browserDriver(email, os.Args[1]) // run as $BROWSER by TestExamples
	}
	if os.Getenv("JUMP_GO_NO_EMULATOR") == "1" { // the benchmarks (bench.sh) need none
		os.Exit(m.Run())
	}
	cmd := exec.Command(emulatorBinary(), "--port", "0", "--db", ":memory:", "--password-hash-cost", "4")
	logFile, _ := os.CreateTemp("", "jump-go-emulator-*.log")
	cmd.Stderr = logFile
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot start %s: %v (make emulator, or set JUMP_EMULATOR)\n", emulatorBinary(), err)
		os.Exit(1)
	}
	reader := bufio.NewReader(out)
	first := make(chan string, 1)
	go func() {
		line, _ := reader.ReadString('\n')
		first <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, reader) // keep draining: the emulator never blocks on a full pipe
	}()
	select {
	case emulatorURL = <-first:
	case <-time.After(60 * time.Second):
	}
	if !strings.HasPrefix(emulatorURL, "http") {
		_ = cmd.Process.Kill()
		log, _ := os.ReadFile(logFile.Name())
		fmt.Fprintf(os.Stderr, "jump-emulator did not print its URL; log: %s\n", log)
		os.Exit(1)
	}
	// The examples (example_test.go, package jump_test) read the address as the programs of examples/go do.
	os.Setenv("JUMP_EMULATOR_URL", emulatorURL)
	code := m.Run()
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
	}
	logFile.Close()
	os.Remove(logFile.Name())
	os.Exit(code)
}

// httpCall is one request, redirects not followed (a 302 is an answer like any other).
func httpCall(t testing.TB, method, url string, body []byte, headers map[string]string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	client := &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data
}

// admin calls the emulator's admin (or token) API with a JSON body and decodes its JSON answer.
func admin(t testing.TB, method, path string, body any, headers map[string]string) map[string]any {
	t.Helper()
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	h := map[string]string{"Content-Type": "application/json"}
	for k, v := range headers {
		h[k] = v
	}
	status, _, answer := httpCall(t, method, emulatorURL+path, data, h)
	if status >= 300 {
		t.Fatalf("%s %s -> %d: %s", method, path, status, answer)
	}
	out := map[string]any{}
	if len(bytes.TrimSpace(answer)) > 0 {
		if err := json.Unmarshal(answer, &out); err != nil {
			t.Fatalf("%s %s: not JSON: %s", method, path, answer)
		}
	}
	return out
}

// reset gives the test a clean emulator (users, clock, faults, counters).
func reset(t testing.TB) {
	t.Helper()
	admin(t, "POST", "/emulator/reset", nil, nil)
	admin(t, "DELETE", "/emulator/faults", nil, nil)
	admin(t, "DELETE", "/emulator/counters", nil, nil)
}

func settings(t testing.TB, overrides map[string]any) map[string]any {
	s := map[string]any{
		KeyCaptureDomain: emulatorURL, KeyCaptureClientID: "jump-default-client", KeyCaptureAppID: "default-app",
		KeyCaptureFlowName: "standard", KeyCaptureLocale: "en-US", KeyCaptureFlowDomain: emulatorURL,
		KeyStorageDirectory: t.TempDir(), KeyRequestTimeoutMs: 10000,
	}
	for k, v := range overrides {
		s[k] = v
	}
	return s
}

// newClient is a client against the emulator, closed when the test ends.
func newClient(t testing.TB, overrides map[string]any) *Client {
	t.Helper()
	c, err := Open(settings(t, overrides))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

var unique int64

func uniqueEmail(prefix string) string {
	return fmt.Sprintf("%s-%d-%d@example.com", prefix, time.Now().UnixNano(), atomic.AddInt64(&unique, 1))
}

type account struct{ email, uuid string }

// register makes a new traditional account through c (which is then signed in as it).
func register(t testing.TB, c *Client) account {
	t.Helper()
	email := uniqueEmail("go")
	result, err := c.RegisterTraditional(context.Background(), map[string]any{"email": email, "displayName": "Ada L",
		"givenName": "Ada", "familyName": "Lovelace", "username": fmt.Sprintf("go%d", atomic.AddInt64(&unique, 1)+time.Now().UnixNano()%1000000)}, password)
	if err != nil {
		t.Fatalf("RegisterTraditional: %v", err)
	}
	id := result.UUID
	if id == "" || !result.IsNew {
		t.Fatalf("RegisterTraditional result: %v", result)
	}
	return account{email, id}
}

// user is the server's copy of a user's record.
func user(t testing.TB, id string) map[string]any {
	u, _ := admin(t, "GET", "/emulator/users/"+id, nil, nil)["user"].(map[string]any)
	return u
}

// within fails the test unless f returns before d: no test hangs the suite.
func within(t testing.TB, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// httpRequest is a GET that may fail (httpCall fails the test instead).
func httpRequest(ctx context.Context, u string) (func() (int, error), error) {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return nil, err
	}
	return func() (int, error) {
		resp, err := (&http.Client{Transport: &http.Transport{Proxy: nil}}).Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}, nil
}
