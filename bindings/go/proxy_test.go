package jump

// The module fetched as an app outside the checkout fetches it: make-proxy.sh writes a GOPROXY directory,
// then a fresh module (its own GOPATH and module cache, no replace directive) requires libjump.io/jump from
// file://, and the quickstart of examples/go, built there, runs against the test emulator.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestModuleProxy(t *testing.T) {
	reset(t)
	work := t.TempDir()
	proxy := filepath.Join(work, "proxy")
	if out, err := exec.Command("bash", "make-proxy.sh", proxy).CombinedOutput(); err != nil {
		t.Fatalf("make-proxy.sh: %v\n%s", err, out)
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(mod)[1]
	list, err := os.ReadFile(filepath.Join(proxy, string(module), "@v", "list"))
	if err != nil {
		t.Fatalf("the proxy has no list for %s: %v", module, err)
	}
	version := "v" + Version()
	if !strings.Contains(string(list), version+"\n") {
		t.Fatalf("the list names no %s: %q", version, list)
	}
	for _, ext := range []string{".info", ".mod", ".zip"} {
		if _, err := os.Stat(filepath.Join(proxy, string(module), "@v", version+ext)); err != nil {
			t.Fatal(err)
		}
	}

	app := filepath.Join(work, "app")
	gopath := filepath.Join(work, "gopath")
	if err := os.MkdirAll(filepath.Join(app, "quickstart"), 0o755); err != nil {
		t.Fatal(err)
	}
	quickstart, err := os.ReadFile(filepath.Join("..", "..", "examples", "go", "quickstart", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "quickstart", "main.go"), quickstart, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOPROXY=file://"+filepath.ToSlash(proxy), "GOSUMDB=off", "GONOSUMDB="+string(module),
		"GOFLAGS=-mod=mod", "GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"), "GOTOOLCHAIN=local")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = app, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// The module cache is read-only: it is emptied by the go command before t.TempDir removes it.
	t.Cleanup(func() {
		cmd := exec.Command("go", "clean", "-modcache")
		cmd.Dir, cmd.Env = app, env
		_ = cmd.Run()
	})
	run("mod", "init", "example.com/app")
	run("get", string(module)+"@"+version)
	required := run("list", "-m", string(module))
	if strings.TrimSpace(required) != string(module)+" "+version {
		t.Fatalf("go list -m: %q", required)
	}
	gomod, _ := os.ReadFile(filepath.Join(app, "go.mod"))
	if strings.Contains(string(gomod), "replace") {
		t.Fatalf("the app's go.mod has a replace:\n%s", gomod)
	}
	// From the module cache, not the checkout.
	dir := strings.TrimSpace(run("list", "-m", "-f", "{{.Dir}}", string(module)))
	if !strings.HasPrefix(dir, gopath) {
		t.Fatalf("the module is not in the temporary module cache: %s", dir)
	}
	run("build", "-o", filepath.Join(work, "quickstart-bin"), "./quickstart")
	out := runExample(t, filepath.Join(work, "quickstart-bin"), nil)
	expectLines(t, out, "libjump "+Version(), "registered quickstart-", "ErrBadCredentials",
		"synced [/aboutMe] in 1 request(s)", `restored from disk: signed in true, aboutMe "Written by the Go quickstart"`,
		"quickstart done")
}
