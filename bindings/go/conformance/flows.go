package main

// The scenarios of the social sign-in through the loopback listener, host storage, the order of events, the
// merge flow and API-key mode (Tests/conformance/README.md, sections 10 to 14).

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"libjump.io/jump"
)

func (s *scenario) num(key string) float64 { v, _ := s.in(key).(float64); return v }

func (s *scenario) millis(key string) time.Duration {
	return time.Duration(s.num(key)) * time.Millisecond
}

// noRedirect is the browser's HTTP client: a 3xx is an answer whose Location the browser follows itself.
var noRedirect = &http.Client{Timeout: 30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func browserCall(method, target string, form url.Values) (int, http.Header, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r, err := http.NewRequest(method, target, body)
	if err != nil {
		return 0, nil, err
	}
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := noRedirect.Do(r)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header, nil
}

// browse plays the browser on the fake identity provider (README, section 10): the start page, its form
// posted at .../callback with the identity, the redirect followed to the listener; the landing status.
func browse(start string, identity map[string]any) (int, error) {
	status, _, err := browserCall("GET", start, nil)
	if err != nil {
		return 0, err
	}
	if status != 200 {
		return 0, fmt.Errorf("the provider's start page answered %d", status)
	}
	u, err := url.Parse(start)
	if err != nil {
		return 0, err
	}
	u.Path = strings.TrimSuffix(u.Path, "/start") + "/callback"
	form := url.Values{}
	for k, v := range identity {
		form.Set(k, fmt.Sprint(v))
	}
	status, header, err := browserCall("POST", u.String(), form)
	if err != nil {
		return 0, err
	}
	location := header.Get("Location")
	if status < 300 || status >= 400 || location == "" {
		return 0, fmt.Errorf("the provider answered %d without a redirect", status)
	}
	ref, err := url.Parse(location)
	if err != nil {
		return 0, err
	}
	landed, _, err := browserCall("GET", u.ResolveReference(ref).String(), nil)
	return landed, err
}

func loopbackSocialSignIn(s *scenario) (object, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	landing := make(chan any, 1)
	openURL := func(u string) error { // hands the URL to the browser and returns
		go func() {
			status, err := browse(u, s.obj("identity"))
			if err != nil {
				fmt.Fprintln(os.Stderr, "browser:", err)
				landing <- nil
				return
			}
			landing <- status
		}()
		return nil
	}
	res, err := c.SocialSignInLoopback(bg, s.str("provider"), nil, openURL, s.millis("timeout_ms"))
	out := object{"status": status(err), "signed_in": c.IsSignedIn(), "is_new": known(err, orEmpty(res).IsNew),
		"provider": known(err, orEmpty(res).Provider), "landing_status": nil}
	select {
	case v := <-landing:
		out["landing_status"] = v
	case <-time.After(10 * time.Second):
	}
	return out, nil
}

// mapStorage is host storage in a map, counting saves.
type mapStorage struct {
	mu      sync.Mutex
	entries map[string][]byte
	saves   int
}

func (m *mapStorage) Load(key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.entries[key]; ok {
		return v, nil
	}
	return nil, jump.ErrNotFound
}

func (m *mapStorage) Save(key string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.saves++
	m.entries[key] = append([]byte(nil), data...)
	return nil
}

func (m *mapStorage) Erase(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, key)
	return nil
}

func hostStorage(s *scenario) (object, error) {
	store := &mapStorage{entries: map[string][]byte{}}
	open := func() (*jump.Client, error) {
		config, err := jump.ConfigFrom(s.subst(s.config).(map[string]any))
		if err != nil {
			return nil, err
		}
		defer config.Close()
		if err := config.SetStorage(store); err != nil {
			return nil, err
		}
		return jump.NewClient(config)
	}
	first, err := open()
	if err != nil {
		return nil, err
	}
	_, err = s.register(first)
	out := object{"register": object{"status": status(err)}}
	first.Close()
	store.mu.Lock()
	out["saved_entries"] = store.saves >= 1 && len(store.entries) > 0
	store.mu.Unlock()
	second, err := open()
	if err != nil {
		return nil, err
	}
	defer second.Close()
	err = second.Restore()
	out["restored"] = object{"status": status(err), "signed_in": second.IsSignedIn(), "record_email": recordString(second, "/email")}
	return out, nil
}

func eventOrder(s *scenario) (object, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var mu sync.Mutex
	events := []string{}
	seen := func(name string) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range events {
			if e == name {
				return true
			}
		}
		return false
	}
	if err := c.OnEvent(func(e jump.Event) {
		mu.Lock()
		events = append(events, string(e.Name))
		mu.Unlock()
	}); err != nil {
		return nil, err
	}
	_, err = s.register(c)
	out := object{"register": object{"status": status(err)}}
	edit := s.obj("edit")
	r, err := c.Record()
	if err != nil {
		return nil, err
	}
	if err := r.SetString(edit["path"].(string), edit["value"].(string)); err != nil {
		r.Close()
		return nil, err
	}
	r.Close()
	_, err = c.Sync(bg)
	out["sync"] = object{"status": status(err)}
	out["sign_out"] = object{"status": status(c.SignOut(bg))}
	deadline := time.Now().Add(s.millis("wait_ms")) // events reach the handler on a goroutine of the binding's
	for !seen(s.str("last_event")) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(s.millis("settle_ms"))
	mu.Lock()
	out["events"] = append([]string{}, events...)
	mu.Unlock()
	return out, nil
}

func mergeFlow(s *scenario) (object, error) {
	stage, err := s.admin("stage")
	if err != nil {
		return nil, err
	}
	user, _ := stage["user"].(map[string]any)
	identity, _ := stage["conflicting_identity"].(map[string]any)
	account, _ := user["uuid"].(string)
	token, _ := identity["token"].(string)
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	_, err = c.SocialSignInNative(bg, s.str("provider"), token, "", nil)
	mergeToken := ""
	var e *jump.Error
	if errors.As(err, &e) {
		if d := e.Document(); d != nil {
			mergeToken = d.MergeToken
		}
	}
	out := object{"social": object{"status": status(err), "has_merge_token": mergeToken != "", "signed_in": c.IsSignedIn()}}
	res, err := c.SignInMerge(bg, s.str("login"), s.str("password"), mergeToken)
	out["merge"] = object{"status": status(err), "signed_in": c.IsSignedIn(),
		"same_uuid_as_password_account": known(err, orEmpty(res).UUID == account) == true,
		"merged":                        known(err, orEmpty(res).Merged)}
	return out, nil
}

func apiKeyMode(s *scenario) (object, error) {
	team, err := s.admin("create_team")
	if err != nil {
		return nil, err
	}
	key, _ := team[s.obj("create_team")["result"].(string)].(string)
	s.vars["${API_KEY}"] = key
	created, err := s.admin("create_user")
	if err != nil {
		return nil, err
	}
	id, _ := created[s.obj("create_user")["result"].(string)].(string)
	s.vars["${USER_ID}"] = id
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	out := object{"use_api_key": object{"status": status(c.UseAPIKey(key, id, s.str("environment"), s.str("region")))}}
	st, err := c.Status()
	sts := orEmpty(st)
	out["status"] = object{"use_api_key": known(err, sts.UseAPIKey), "use_sign_in_token": known(err, sts.UseSignInToken),
		"signed_in": known(err, sts.SignedIn), "user_id_matches": known(err, sts.UserID == id)}
	answer, err := c.Request(bg, "GET", s.str("user_path"), nil, nil)
	out["request"] = object{"status": status(err), "http_status": httpStatus(answer)}
	signOut := status(c.SignOut(bg))
	st, err = c.Status()
	sts = orEmpty(st)
	out["sign_out"] = object{"status": signOut, "use_api_key": known(err, sts.UseAPIKey), "signed_in": known(err, sts.SignedIn)}
	return out, nil
}
