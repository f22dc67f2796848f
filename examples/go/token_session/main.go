// A sign-in-token session (docs/protocol.md section 12): the app's backend asks the token API for a sign-in
// token for its user; the app exchanges it for a session, makes authorized requests, and signs out. Here the
// program plays the backend too, with the emulator's team key.
//
//	go run ./token_session -emulator http://127.0.0.1:9080 [-team-key jump-team-key]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"libjump.io/jump"
)

func main() {
	emulator := flag.String("emulator", os.Getenv("JUMP_EMULATOR_URL"), "the emulator's base URL")
	teamKey := flag.String("team-key", "jump-team-key", "the backend's API key (the emulator's default team key)")
	flag.Parse()
	if *emulator == "" {
		fail("set JUMP_EMULATOR_URL or -emulator")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The backend's part: a user, then a sign-in token for it (a secret: never printed).
	userID, _ := backend(*emulator, *teamKey, "/v2/user", map[string]any{"client_user_id": fmt.Sprint(time.Now().UnixNano())})["user_id"].(string)
	token, _ := backend(*emulator, *teamKey, "/v2/user/"+userID+"/sign_in_token", map[string]any{})["sign_in_token"].(string)
	decoded, err := jump.DecodeSignInToken(token)
	check("decode", err)
	fmt.Printf("a sign-in token for user %v (%v, %v)\n", decoded.UserID, decoded.Environment, decoded.Region)

	// The app's part.
	client, err := jump.Open(map[string]any{jump.KeySignInTokenAuthBaseURL: *emulator,
		jump.KeySignInTokenAPIBaseURL: *emulator, jump.KeyStorageDirectory: ":memory:"})
	check("a client", err)
	defer client.Close()
	result, err := client.SignInWithToken(ctx, token)
	check("sign in with the token", err)
	fmt.Printf("signed in as %v (changed %v)\n", result.UserID, result.Changed)
	status, err := client.Status()
	check("status", err)
	fmt.Printf("status: signed_in %v, use_sign_in_token %v\n", status.SignedIn, status.UseSignInToken)
	// Authorized requests: the client adds the session's bearer token (refreshed first when it expires).
	profile := "/v2/user/" + userID + "/profile"
	response, err := client.Request(ctx, "PUT", profile, map[string]string{"Content-Type": "application/json"},
		[]byte(`{"colour":"blue"}`))
	check("PUT the profile", err)
	fmt.Printf("PUT %s -> %d\n", profile, response.Status)
	response, err = client.Request(ctx, "GET", profile, nil, nil)
	check("GET the profile", err)
	fmt.Printf("GET %s -> %d: %s\n", profile, response.Status, response.Body)
	check("refresh", client.RefreshAccessToken(ctx))
	fmt.Printf("refreshed; credential valid for another minute: %v\n", client.HasValidCredentials(time.Minute))
	check("sign out", client.SignOut(ctx))
	fmt.Printf("signed out: %v\n", !client.IsSignedIn())
}

// backend is one POST to the token API with the team key, as the app's backend makes it.
func backend(base, key, path string, body any) map[string]any {
	data, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", base+path, bytes.NewReader(data))
	check("a backend request", err)
	req.Header.Set("x-jump-api-key", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	check("POST "+path, err)
	defer resp.Body.Close()
	out := map[string]any{}
	if resp.StatusCode >= 300 || json.NewDecoder(resp.Body).Decode(&out) != nil {
		fail("POST %s -> %d", path, resp.StatusCode)
	}
	return out
}

func check(what string, err error) {
	if err != nil {
		fail("%s: %v", what, err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "token_session: "+format+"\n", args...)
	os.Exit(1)
}
