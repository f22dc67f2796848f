package jump

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Every function whose "result" jump_api.json describes and which the binding calls returns its typed
// result: the hand-written code uses the function's result<Function> decoder (results_generated.go), whose
// Go type is generated from that "result", so a method cannot return something else (or a bare Object).
func TestEveryResultIsDecodedByItsGeneratedDecoder(t *testing.T) {
	generated, err := os.ReadFile("results_generated.go")
	if err != nil {
		t.Fatal(err)
	}
	decoders := regexp.MustCompile(`// (result\w+) decodes what (jump_\w+) returns`).FindAllStringSubmatch(string(generated), -1)
	if len(decoders) == 0 {
		t.Fatal("results_generated.go has no decoder")
	}
	files, _ := filepath.Glob("*.go")
	var source strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_generated.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		source.Write(b)
	}
	text := source.String()
	// Functions whose result the binding decodes otherwise, with why.
	otherwise := map[string]string{
		"jump_record_get": "Record.Get decodes the value into the caller's own Go value: typed by the caller, not \"any\"",
	}
	typed := 0
	for _, d := range decoders {
		if !strings.Contains(text, "C."+d[2]+"(") || otherwise[d[2]] != "" {
			continue // not called by the binding (the blocking form of an _async call it uses)
		}
		typed++
		if !regexp.MustCompile(`\b` + d[1] + `\b`).MatchString(text) {
			t.Errorf("%s has a \"result\" in jump_api.json, but the binding does not decode it with %s", d[2], d[1])
		}
	}
	if typed == 0 {
		t.Fatal("no decoded function is called by the binding")
	}
}

// Decoding is lenient: keys and values a newer library adds are kept (Raw, the string types), null and absent
// keys are zero or nil, units become time.Time and time.Duration.
func TestResultsDecodeLeniently(t *testing.T) {
	var state ClientState
	doc := `{"signed_in":true,"uuid":null,"access_token_expires_at":1700000000,"clock_offset_seconds":-3,` +
		`"secret_store":"enclave","restore_error":null,"quarantine":[{"entry":"e","reason":"later","quarantined_at":5}],` +
		`"added_later":{"x":1}}`
	if err := json.Unmarshal([]byte(doc), &state); err != nil {
		t.Fatal(err)
	}
	if !state.SignedIn || state.UUID != "" || !state.AccessTokenExpiresAt.Equal(time.Unix(1700000000, 0)) ||
		state.ClockOffsetSeconds != -3*time.Second || state.SecretStore != "enclave" || state.RestoreError != nil ||
		state.Quarantine[0].Reason != "later" || !state.Quarantine[0].QuarantinedAt.Equal(time.Unix(5, 0)) ||
		string(state.Raw) != doc || string(state.Quarantine[0].Raw) == "" {
		t.Fatalf("decoded: %+v", state)
	}
	// Secrets are left out of what fmt prints, Raw (which holds them too) as well.
	outcome, err := resultClientSocialCompleteAsync(`{"outcome":"authenticated","provider":"p","token":"s3cret",` +
		`"token_url_response":{"status":200,"headers":[],"cookies":[{"name":"c","value":"s3cret"}],"body":null}}`)
	if err != nil || outcome.Token != "s3cret" || outcome.TokenURLResponse.Cookies[0].Value != "s3cret" ||
		strings.Contains(fmt.Sprint(outcome), "s3cret") || strings.Contains(fmt.Sprintf("%+v", *outcome.TokenURLResponse), "s3cret") ||
		!strings.Contains(fmt.Sprint(outcome), "Token:***") {
		t.Fatalf("secrets printed: %v %v", outcome, err)
	}
	if _, err := resultClientState(`{"signed_in":"yes"}`); err == nil {
		t.Fatal("a key of the wrong type decoded")
	}
	if empty, err := resultClientState(""); err != nil || empty.SignedIn || string(empty.Raw) != "{}" {
		t.Fatalf("an empty out-parameter: %+v %v", empty, err)
	}
}
