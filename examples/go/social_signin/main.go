// Social sign-in from a command-line app: the system browser and a loopback receiver (RFC 8252). libjump
// listens on 127.0.0.1, this program opens the provider's page in the browser ($BROWSER, else xdg-open),
// and the sign-in completes when the browser comes back to the listener. A new user is registered (thin
// registration, or the two-step registration from what the provider told).
//
//	go run ./social_signin -emulator http://127.0.0.1:9080 [-provider facebook] [-timeout 5m]
//
// Against the emulator the "provider" is its fake identity provider page: create or pick an identity there.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	"libjump.io/jump"
)

func main() {
	emulator := flag.String("emulator", os.Getenv("JUMP_EMULATOR_URL"), "the emulator's base URL (Capture and Engage)")
	provider := flag.String("provider", "facebook", "the identity provider")
	thin := flag.Bool("thin-registration", true, "register new users from the provider's profile alone")
	timeout := flag.Duration("timeout", 5*time.Minute, "how long to wait for the browser")
	flag.Parse()
	if *emulator == "" {
		fail("set JUMP_EMULATOR_URL or -emulator")
	}
	client, err := jump.Open(map[string]any{
		jump.KeyCaptureDomain: *emulator, jump.KeyCaptureClientID: "jump-default-client",
		jump.KeyCaptureAppID: "default-app", jump.KeyCaptureFlowName: "standard",
		jump.KeyCaptureFlowDomain: *emulator, jump.KeyCaptureLocale: "en-US",
		jump.KeyEngageAppID: "jump-default-engage", jump.KeyEngageDomain: *emulator,
		jump.KeyCaptureEnableThinRegistration: *thin, jump.KeyStorageDirectory: ":memory:",
	})
	check("a client", err)
	defer client.Close()
	// Ctrl-C (or the timeout) cancels the wait for the browser.
	ctx, cancel := context.WithTimeout(context.Background(), *timeout+10*time.Second)
	defer cancel()

	result, err := client.SocialSignInLoopback(ctx, *provider, nil, openInBrowser, *timeout)
	var jerr *jump.Error
	switch {
	case errors.Is(err, jump.ErrRegistrationRequired) && errors.As(err, &jerr):
		// Two-step registration: what the provider told, as the registration's attributes.
		token := jerr.Document().SocialRegistrationToken
		fmt.Println("no account has this identity yet: registering it")
		registered, err := client.RegisterSocial(ctx, token, jerr.Detail["prereg_record"])
		check("register", err)
		result = &jump.SocialOutcome{Outcome: jump.SocialOutcomeOutcomeRegistered, Provider: *provider, UUID: registered.UUID}
	case errors.Is(err, jump.ErrMergeRequired) && errors.As(err, &jerr):
		fail("this email already has an account (it signs in with %v): sign in with it to merge", jerr.Document().ExistingProvider)
	case errors.Is(err, jump.ErrCancelled):
		fail("the sign-in was cancelled")
	default:
		check("sign in", err)
	}
	fmt.Printf("signed in with %v: outcome %v, uuid %v\n", *provider, result.Outcome, result.UUID)
	profiles, err := client.LinkedProfiles()
	check("linked profiles", err)
	for _, p := range profiles {
		fmt.Printf("linked identity: %v (%v)\n", p.Provider, p.DisplayName)
	}
}

// openInBrowser is libjump's openURL: hand the URL to the system browser (and show it, in case none opens).
// A browser command returns at once or runs on: it is started, not waited for.
func openInBrowser(url string) error {
	fmt.Println("Opening your browser to sign in. If nothing opens, visit:")
	fmt.Println("  " + url)
	command := os.Getenv("BROWSER")
	if command == "" {
		command = "xdg-open"
	}
	cmd := exec.Command(command, url)
	if err := cmd.Start(); err != nil {
		fmt.Println("(no browser could be started: open the URL above yourself)")
		return nil
	}
	go cmd.Wait() //nolint:errcheck // reaps it
	return nil
}

func check(what string, err error) {
	if err != nil {
		fail("%s: %v", what, err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "social_signin: "+format+"\n", args...)
	os.Exit(1)
}
