package jump_test

// Testable examples (go test checks their // Output:) of the main calls, against the jump-emulator the
// test binary starts (TestMain in harness_test.go; JUMP_EMULATOR_URL holds its address, as for the programs
// of examples/go). Outside the tests, point the settings at your own Capture app, or at an emulator:
// scripts/with-emulator.sh sets JUMP_EMULATOR_URL. What they print is the same on every run: no uuid, no
// email, no time.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"libjump.io/jump"
)

// settings are the client settings of the emulator's default Capture app, with the session kept in memory.
func settings() map[string]any {
	url := os.Getenv("JUMP_EMULATOR_URL")
	return map[string]any{
		jump.KeyCaptureDomain: url, jump.KeyCaptureFlowDomain: url,
		jump.KeyCaptureClientID: "jump-default-client", jump.KeyCaptureAppID: "default-app",
		jump.KeyCaptureFlowName: "standard", jump.KeyCaptureLocale: "en-US",
		jump.KeyStorageDirectory: ":memory:",
	}
}

var accounts int64

// newEmail is an address no earlier run has registered.
func newEmail() string {
	return fmt.Sprintf("example-%d-%d@example.com", time.Now().UnixNano(), atomic.AddInt64(&accounts, 1))
}

// registered is a new account's email, registered (then signed out) through a client of its own.
func registered(password string) string {
	ctx := context.Background()
	client, err := jump.Open(settings())
	if err != nil {
		panic(err)
	}
	defer client.Close()
	email := newEmail()
	if _, err := client.RegisterTraditional(ctx, map[string]any{"email": email, "givenName": "Ada",
		"familyName": "Lovelace", "displayName": "Ada L"}, password); err != nil {
		panic(err)
	}
	if err := client.SignOut(ctx); err != nil {
		panic(err)
	}
	return email
}

// Configuring a client: a map of config keys (Open), or a Config set key by key (NewClient, which copies it).
func Example() {
	url := os.Getenv("JUMP_EMULATOR_URL") // e.g. "http://127.0.0.1:9080"

	config, err := jump.NewConfig()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer config.Close()
	for key, value := range map[string]string{
		jump.KeyCaptureDomain: url, jump.KeyCaptureFlowDomain: url,
		jump.KeyCaptureClientID: "jump-default-client", jump.KeyCaptureAppID: "default-app",
		jump.KeyCaptureFlowName: "standard", jump.KeyCaptureLocale: "en-US",
		jump.KeyStorageDirectory: ":memory:",
	} {
		if err := config.SetString(key, value); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := config.SetInt(jump.KeyRequestTimeoutMs, 10000); err != nil {
		fmt.Println(err)
		return
	}

	client, err := jump.NewClient(config)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()
	fmt.Println("signed in:", client.IsSignedIn())

	// A setting that is not a config key is refused at once.
	_, err = jump.Open(map[string]any{"capture_domian": url})
	fmt.Println("misspelt key refused:", errors.Is(err, jump.ErrInvalidArgument))
	// Output:
	// signed in: false
	// misspelt key refused: true
}

func ExampleOpen() {
	client, err := jump.Open(settings())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()
	state, _ := client.State()
	fmt.Println("signed in:", state.SignedIn, "unsynced changes:", state.UnsyncedChanges)
	// Output:
	// signed in: false unsynced changes: false
}

func ExampleClient_RegisterTraditional() {
	ctx := context.Background()
	client, _ := jump.Open(settings())
	defer client.Close()

	result, err := client.RegisterTraditional(ctx, map[string]any{"email": newEmail(), "givenName": "Ada",
		"familyName": "Lovelace", "displayName": "Ada L"}, "correct horse battery")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("new user:", result.IsNew, "signed in:", client.IsSignedIn())
	// Output:
	// new user: true signed in: true
}

func ExampleClient_SignIn() {
	email := registered("correct horse battery")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client, _ := jump.Open(settings())
	defer client.Close()

	if _, err := client.SignIn(ctx, email, "correct horse battery"); err != nil {
		fmt.Println(err)
		return
	}
	state, _ := client.State()
	fmt.Println("signed in:", client.IsSignedIn(), "as the same email:", state.Email == email)

	if err := client.SignOut(ctx); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("signed in after SignOut:", client.IsSignedIn())
	// Output:
	// signed in: true as the same email: true
	// signed in after SignOut: false
}

// Reading and editing the record: edits are local (and saved) until Sync sends them.
func ExampleRecord() {
	ctx := context.Background()
	email := registered("correct horse battery")
	client, _ := jump.Open(settings())
	defer client.Close()
	if _, err := client.SignIn(ctx, email, "correct horse battery"); err != nil {
		fmt.Println(err)
		return
	}
	record, err := client.Record()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer record.Close()

	given, _ := record.GetString("/givenName")
	fmt.Println("givenName:", *given)
	about, _ := record.GetString("/aboutMe")
	fmt.Println("aboutMe is null:", about == nil)

	if err := record.SetString("/aboutMe", "Writes programs for the Analytical Engine"); err != nil {
		fmt.Println(err)
		return
	}
	changes, _ := record.Changes()
	fmt.Println("changes:", changes.Changed, "through", changes.Requests[0].Endpoint)
	about, _ = record.GetString("/aboutMe")
	fmt.Println("aboutMe:", *about)

	synced, err := client.Sync(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("synced:", synced.Changed, "in", synced.Requests, "request(s)")
	state, _ := client.State()
	fmt.Println("unsynced changes:", state.UnsyncedChanges)

	// Another client of the same user reads it from the server.
	other, _ := jump.Open(settings())
	defer other.Close()
	if _, err := other.SignIn(ctx, email, "correct horse battery"); err != nil {
		fmt.Println(err)
		return
	}
	seen, _ := other.Record()
	defer seen.Close()
	about, _ = seen.GetString("/aboutMe")
	fmt.Println("on the server:", *about)
	// Output:
	// givenName: Ada
	// aboutMe is null: true
	// changes: [/aboutMe] through entity.update
	// aboutMe: Writes programs for the Analytical Engine
	// synced: [/aboutMe] in 1 request(s)
	// unsynced changes: false
	// on the server: Writes programs for the Analytical Engine
}

// A failure is a *jump.Error: errors.Is tells its status, errors.As gives the Status and the detail.
func ExampleError() {
	ctx := context.Background()
	email := registered("correct horse battery")
	client, _ := jump.Open(settings())
	defer client.Close()

	_, err := client.SignIn(ctx, email, "not the password")
	fmt.Println("bad credentials:", errors.Is(err, jump.ErrBadCredentials))
	var jerr *jump.Error
	if errors.As(err, &jerr) {
		fmt.Println("status:", jerr.Status, "-", jerr.Status.Meaning())
		fmt.Println("op:", jerr.Op)
		fmt.Println("detail status_name:", jerr.Detail["status_name"])
	}

	// Registering the same email again: a validation failure naming the field.
	_, err = client.RegisterTraditional(ctx, map[string]any{"email": email, "givenName": "Ada",
		"familyName": "Lovelace", "displayName": "Ada L"}, "correct horse battery")
	if errors.As(err, &jerr) && errors.Is(err, jump.ErrValidation) {
		_, emailField := jerr.Detail["invalid_fields"].(map[string]any)["emailAddress"]
		fmt.Println("validation:", jerr.Status, "names the email field:", emailField)
	} else {
		fmt.Println(err)
	}

	// A context already done starts nothing: ErrCancelled, and errors.Is finds the context's error too.
	done, cancel := context.WithCancel(ctx)
	cancel()
	_, err = client.SignIn(done, email, "correct horse battery")
	fmt.Println("cancelled:", errors.Is(err, jump.ErrCancelled), errors.Is(err, context.Canceled), client.IsSignedIn())

	// The status of a signed-out client's record.
	_, err = client.Record()
	fmt.Println("record while signed out:", errors.As(err, &jerr), jerr.Status)
	// Output:
	// bad credentials: true
	// status: JUMP_E_BAD_CREDENTIALS - wrong user name, email or password
	// op: jump_client_sign_in_async
	// detail status_name: JUMP_E_BAD_CREDENTIALS
	// validation: JUMP_E_VALIDATION names the email field: true
	// cancelled: true true false
	// record while signed out: true JUMP_E_NOT_SIGNED_IN
}
