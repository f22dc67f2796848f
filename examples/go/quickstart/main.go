// Quickstart (Go): register, sign out and in, edit and sync the record, restore the session from disk in a
// new client, sign out. Run against a local emulator:
//
//	scripts/with-emulator.sh sh -c 'cd examples/go && go run ./quickstart'
//
// JUMP_EMULATOR_URL is the emulator's base URL (or -emulator). Build flags: see bindings/go/README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"libjump.io/jump"
)

func main() {
	emulator := flag.String("emulator", os.Getenv("JUMP_EMULATOR_URL"), "the emulator's base URL")
	flag.Parse()
	if *emulator == "" {
		fail("set JUMP_EMULATOR_URL or -emulator (e.g. http://127.0.0.1:9080)")
	}
	storage, err := os.MkdirTemp("", "jump-go-quickstart-")
	check("a storage directory", err)
	defer os.RemoveAll(storage)
	settings := map[string]any{
		jump.KeyCaptureDomain: *emulator, jump.KeyCaptureClientID: "jump-default-client",
		jump.KeyCaptureAppID: "default-app", jump.KeyCaptureFlowName: "standard",
		jump.KeyCaptureFlowDomain: *emulator, jump.KeyCaptureLocale: "en-US", jump.KeyStorageDirectory: storage,
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fmt.Printf("libjump %s\n", jump.Version())

	client, err := jump.Open(settings)
	check("a client", err)
	email := fmt.Sprintf("quickstart-%d@example.com", time.Now().UnixNano())
	const password = "correct horse battery"
	registered, err := client.RegisterTraditional(ctx, map[string]any{"email": email, "givenName": "Ada",
		"familyName": "Lovelace", "displayName": "Ada L"}, password)
	check("register", err)
	fmt.Printf("registered %s (uuid %v)\n", email, registered.UUID)

	check("sign out", client.SignOut(ctx))
	_, err = client.SignIn(ctx, email, "not the password")
	if !errors.Is(err, jump.ErrBadCredentials) {
		fail("a wrong password gave %v", err)
	}
	fmt.Println("a wrong password is refused: ErrBadCredentials")
	_, err = client.SignIn(ctx, email, password)
	check("sign in", err)
	fmt.Println("signed in")

	record, err := client.Record()
	check("the record", err)
	check("edit", record.SetString("/aboutMe", "Written by the Go quickstart"))
	synced, err := client.Sync(ctx)
	check("sync", err)
	fmt.Printf("synced %v in %v request(s)\n", synced.Changed, synced.Requests)
	record.Close()
	client.Close()

	restored, err := jump.Open(settings)
	check("a second client", err)
	defer restored.Close()
	record, err = restored.Record()
	check("the restored record", err)
	about, err := record.GetString("/aboutMe")
	check("read /aboutMe", err)
	record.Close()
	fmt.Printf("restored from disk: signed in %v, aboutMe %q\n", restored.IsSignedIn(), deref(about))
	check("sign out", restored.SignOut(ctx))
	fmt.Println("signed out; quickstart done")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func check(what string, err error) {
	if err != nil {
		fail("%s: %v", what, err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "quickstart: "+format+"\n", args...)
	os.Exit(1)
}
