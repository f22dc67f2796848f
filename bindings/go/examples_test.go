package jump

// The examples (examples/go) built and run as a user would run them, against the test emulator, so they
// cannot rot. The social one opens its URL with $BROWSER: a script that runs this test binary as the
// browser (browserDriver), which plays the fake identity provider's page and comes back to the listener.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func buildExamples(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", dir, "./...")
	cmd.Dir = filepath.Join("..", "..", "examples", "go")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build examples/go: %v\n%s", err, out)
	}
	return dir
}

func runExample(t *testing.T, binary string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(append(os.Environ(), "JUMP_EMULATOR_URL="+emulatorURL), env...)
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s did not finish: %s", filepath.Base(binary), out)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(binary), err, out)
	}
	return string(out)
}

func expectLines(t *testing.T, out string, wanted ...string) {
	t.Helper()
	for _, w := range wanted {
		if !strings.Contains(out, w) {
			t.Fatalf("no %q in the output:\n%s", w, out)
		}
	}
}

func TestExamples(t *testing.T) {
	reset(t)
	dir := buildExamples(t)
	out := runExample(t, filepath.Join(dir, "quickstart"), nil)
	expectLines(t, out, "registered quickstart-", "ErrBadCredentials", "synced [/aboutMe] in 1 request(s)",
		`restored from disk: signed in true, aboutMe "Written by the Go quickstart"`, "quickstart done")

	out = runExample(t, filepath.Join(dir, "token_session"), nil)
	expectLines(t, out, "signed in as ", "use_sign_in_token true", "/profile -> 200", "blue", "signed out: true")

	// The social example: $BROWSER is this test binary as the browser.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "browser")
	email := uniqueEmail("social-example")
	if err := os.WriteFile(script, []byte(fmt.Sprintf("#!/bin/sh\nJUMP_GO_BROWSER_DRIVER=%s exec '%s' \"$1\"\n",
		email, self)), 0o755); err != nil {
		t.Fatal(err)
	}
	out = runExample(t, filepath.Join(dir, "social_signin"), []string{"BROWSER=" + script}, "-timeout", "60s")
	expectLines(t, out, "Opening your browser", "signed in with facebook: outcome registered", "linked identity: facebook")
	if strings.Contains(out, "sign_in_token") || strings.Contains(out, "merge_token") {
		t.Fatalf("the example printed a secret's name:\n%s", out)
	}
}

// driverTB lets the browser driver use the tests' HTTP helpers outside a test.
type driverTB struct{ testing.TB }

func (driverTB) Helper() {}
func (driverTB) Fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "browser driver: "+format+"\n", args...)
	os.Exit(1)
}

// browserDriver is the test binary run as $BROWSER (JUMP_GO_BROWSER_DRIVER holds the identity's email).
func browserDriver(email, start string) {
	tb := driverTB{}
	back := finishAtIdP(tb, start, "Go Example", email, false)
	if status, _, _ := httpCall(tb, "GET", back, nil, nil); status != 200 {
		tb.Fatalf("the listener answered %d", status)
	}
	os.Exit(0)
}

// The README's Install line for Go, as an app outside the checkout follows it: a module of its own that
// requires libjump.io/jump and replaces it with bindings/go; cgo finds libjump through pkg-config (the jump.pc
// of run-tests.sh here; make install's elsewhere).
func TestInstallLine(t *testing.T) {
	app := t.TempDir()
	binding, _ := filepath.Abs(".")
	steps := [][]string{
		{"go", "mod", "init", "example.com/app"},
		{"go", "mod", "edit", "-require=libjump.io/jump@v0.0.0", "-replace=libjump.io/jump=" + binding},
	}
	for _, step := range steps {
		cmd := exec.Command(step[0], step[1:]...)
		cmd.Dir = app
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", step, err, out)
		}
	}
	main := "package main\n\nimport (\n\t\"fmt\"\n\n\t\"libjump.io/jump\"\n)\n\nfunc main() { fmt.Println(\"libjump\", jump.Version()) }\n"
	if err := os.WriteFile(filepath.Join(app, "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", "app", ".")
	build.Dir = app
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(app, "app")).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "libjump "+Version() {
		t.Fatalf("the app: %v: %s", err, out)
	}
}
