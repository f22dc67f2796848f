// Command conformance is the Go binding's runner of the conformance suite (Tests/conformance/README.md, the
// runner contract): it plays ONE scenario of scenarios.json, named by its last argument, with the binding's
// public API, and prints its outcome as one JSON line. run.py starts the emulator and judges the outcome.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"libjump.io/jump"
)

type object = map[string]any

// scenario is the input of the scenario played, its config and the placeholders' values.
type scenario struct {
	name    string
	input   object
	config  object
	configs map[string]object
	vars    map[string]string
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformance SCENARIO")
		os.Exit(2)
	}
	name := os.Args[len(os.Args)-1]
	outcome, err := play(name)
	line := object{"scenario": name}
	if err != nil {
		line["error"] = err.Error()
	} else {
		line["outcome"] = outcome
	}
	text, _ := json.Marshal(line)
	fmt.Println(string(text))
}

func play(name string) (outcome object, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the runner failed: %v", r)
		}
	}()
	s, err := load(name)
	if err != nil {
		return nil, err
	}
	plays := map[string]func(*scenario) (object, error){
		"register_sign_in_bad_password": registerSignInBadPassword,
		"edit_sync_plural_append":       editSyncPluralAppend,
		"refresh_after_clock_moves":     refreshAfterClockMoves,
		"passing_server_error":          passingServerError,
		"sign_out_restart":              signOutRestart,
		"sign_in_token_session":         signInTokenSession,
		"cancel_async":                  cancelAsync,
		"status_errors":                 statusErrors,
		"several_accounts":              severalAccounts,
		"loopback_social_sign_in":       loopbackSocialSignIn,
		"host_storage":                  hostStorage,
		"event_order":                   eventOrder,
		"merge_flow":                    mergeFlow,
		"api_key_mode":                  apiKeyMode,
	}
	f, ok := plays[name]
	if _, steps := s.input["steps"]; steps {
		f, ok = playSteps, true
	}
	if !ok {
		return nil, fmt.Errorf("no such scenario in this runner: %s", name)
	}
	return f(s)
}

func load(name string) (*scenario, error) {
	data, err := os.ReadFile(os.Getenv("JUMP_CONFORMANCE_SCENARIOS"))
	if err != nil {
		return nil, err
	}
	var doc struct {
		Configs   map[string]object `json:"configs"`
		Scenarios []struct {
			Name  string `json:"name"`
			Input object `json:"input"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	s := &scenario{name: name, vars: map[string]string{
		"${EMULATOR_URL}": os.Getenv("JUMP_EMULATOR_URL"),
		"${STORAGE_DIR}":  os.Getenv("JUMP_CONFORMANCE_TMP") + "/storage",
	}}
	for _, sc := range doc.Scenarios {
		if sc.Name == name {
			s.input = sc.Input
		}
	}
	if s.input == nil {
		return nil, fmt.Errorf("scenario %s is not in scenarios.json", name)
	}
	s.configs = doc.Configs
	if c, ok := s.input["config"].(string); ok {
		s.config = doc.Configs[c]
	}
	return s, nil
}

// subst replaces the placeholders in every string of v, recursively.
func (s *scenario) subst(v any) any {
	switch t := v.(type) {
	case string:
		for k, r := range s.vars {
			t = strings.ReplaceAll(t, k, r)
		}
		return t
	case map[string]any:
		out := object{}
		for k, x := range t {
			out[k] = s.subst(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = s.subst(x)
		}
		return out
	}
	return v
}

func (s *scenario) in(key string) any     { return s.subst(s.input[key]) }
func (s *scenario) str(key string) string { v, _ := s.in(key).(string); return v }
func (s *scenario) obj(key string) object { v, _ := s.in(key).(map[string]any); return v }
func (s *scenario) client() (*jump.Client, error) {
	return jump.Open(s.subst(s.config).(map[string]any))
}

// admins sends the input's admin requests named by keys, in order, and stops at the first that fails.
func (s *scenario) admins(keys ...string) error {
	for _, k := range keys {
		if _, err := s.admin(k); err != nil {
			return err
		}
	}
	return nil
}

// counter is the emulator's count of the requests named by the input's nameKey, read with the admin request
// countersKey (GET /emulator/counters).
func (s *scenario) counter(countersKey, nameKey string) (float64, error) {
	counters, err := s.admin(countersKey)
	if err != nil {
		return 0, err
	}
	n, _ := counters["counters"].(map[string]any)[s.str(nameKey)].(float64)
	return n, nil
}

// admin sends an admin request of the input ({"method","path","headers"?,"body"?,"result"?}) with plain HTTP.
func (s *scenario) admin(key string) (object, error) {
	return s.send(s.obj(key))
}

// send sends an admin request ({method, path, headers?, body?}, placeholders replaced); its JSON answer.
func (s *scenario) send(req object) (object, error) {
	var body io.Reader
	if b, ok := req["body"]; ok {
		data, _ := json.Marshal(b)
		body = bytes.NewReader(data)
	}
	method, _ := req["method"].(string)
	path, _ := req["path"].(string)
	r, err := http.NewRequest(method, s.vars["${EMULATOR_URL}"]+path, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	if headers, ok := req["headers"].(map[string]any); ok {
		for k, v := range headers {
			r.Header.Set(k, fmt.Sprint(v))
		}
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s %s -> %d", method, path, resp.StatusCode)
	}
	out := object{}
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, &out); err != nil {
			return nil, fmt.Errorf("%s %s: not JSON", method, path)
		}
	}
	return out, nil
}

// status is the status name an outcome reports: "JUMP_OK", or the *jump.Error's; a context's cancellation
// is JUMP_E_CANCELLED (the README's rule for a platform's cancellation type).
func status(err error) string {
	var e *jump.Error
	switch {
	case err == nil:
		return "JUMP_OK"
	case errors.As(err, &e):
		return e.Status.String()
	case errors.Is(err, context.Canceled):
		return "JUMP_E_CANCELLED"
	}
	panic(err) // not the binding's error: the runner cannot go on
}

func recordString(c *jump.Client, path string) any {
	r, err := c.Record()
	if err != nil {
		return nil
	}
	defer r.Close()
	v, err := r.GetString(path)
	if err != nil || v == nil {
		return nil
	}
	return *v
}

var bg = context.Background()
