package main

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"sort"
	"time"

	"libjump.io/jump"
)

func (s *scenario) register(c *jump.Client) (*jump.SignInResult, error) {
	return c.RegisterTraditional(bg, s.obj("user"), s.str("password"))
}

func registerSignInBadPassword(s *scenario) (object, error) {
	a, err := s.client()
	if err != nil {
		return nil, err
	}
	defer a.Close()
	out := object{}
	reg, err := s.register(a)
	out["register"] = object{"status": status(err), "is_new": known(err, orEmpty(reg).IsNew), "signed_in": a.IsSignedIn()}
	u := orEmpty(reg).UUID
	err = a.SignOut(bg)
	out["sign_out"] = object{"status": status(err), "signed_in": a.IsSignedIn()}
	user := s.obj("user")[s.str("sign_in_with")].(string)
	in, err := a.SignIn(bg, user, s.str("password"))
	out["sign_in"] = object{"status": status(err), "is_new": known(err, orEmpty(in).IsNew), "same_uuid": known(err, orEmpty(in).UUID == u && u != ""),
		"signed_in": a.IsSignedIn()}
	out["record_email"] = recordString(a, "/email")
	_, err = a.SignIn(bg, user, s.str("wrong_password"))
	out["wrong_password"] = object{"status": status(err), "signed_in": a.IsSignedIn()}
	return out, nil
}

var serverElement = regexp.MustCompile(`^(.*)#([1-9][0-9]*)$`)

func editSyncPluralAppend(s *scenario) (object, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if _, err := s.register(c); err != nil {
		return nil, err
	}
	r, err := c.Record()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	edit, appendIn := s.obj("edit"), s.obj("append")
	editPath, plural := edit["path"].(string), appendIn["plural"].(string)
	out := object{}
	if err := r.SetString(editPath, edit["value"].(string)); err != nil {
		return nil, err
	}
	res, err := c.Sync(bg)
	out["sync_edit"] = object{"status": status(err), "changed": known(err, orEmpty(res).Changed)}
	path, err := r.Append(plural, appendIn["element"])
	if err != nil {
		return nil, err
	}
	out["append_path"] = path
	res, err = c.Sync(bg)
	renamed := orEmpty(res).Renamed
	from := []string{}
	toServer := len(renamed) > 0
	for k, v := range renamed {
		from = append(from, k)
		m := serverElement.FindStringSubmatch(v)
		toServer = toServer && m != nil && m[1] == plural
	}
	sort.Strings(from)
	out["sync_append"] = object{"status": status(err), "changed": known(err, orEmpty(res).Changed), "renamed_from": known(err, from),
		"renamed_to_server_id": known(err, toServer)}
	out["fetch"] = object{"status": status(c.FetchRecord(bg))}
	out["edited_value"] = recordString(c, editPath)
	count, err := r.ElementCount(plural)
	out["plural_count"] = known(err, count)
	paths, pathsErr := r.ElementPaths(plural)
	members := []any{}
	renamedInOrder := len(paths) == len(renamed)
	for i, p := range paths {
		members = append(members, recordString(c, p+"/"+appendIn["member"].(string)))
		if i < len(from) && renamed[from[i]] != p {
			renamedInOrder = false
		}
	}
	out["plural_members"] = known(pathsErr, members)
	out["element_paths_are_renamed"] = known(pathsErr, renamedInOrder)
	state, err := c.State()
	out["unsynced_changes"] = known(err, orEmpty(state).UnsyncedChanges)
	return out, nil
}

func passingServerError(s *scenario) (object, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if _, err := s.register(c); err != nil {
		return nil, err
	}
	if err := s.admins("clear_counters", "fault_once"); err != nil {
		return nil, err
	}
	out := object{"passing": object{"status": status(c.FetchRecord(bg))}}
	if out["entity_requests_passing"], err = s.counter("counters", "entity_counter"); err != nil {
		return nil, err
	}
	if err := s.admins("fault_lasting"); err != nil {
		return nil, err
	}
	out["lasting"] = object{"status": status(c.FetchRecord(bg))}
	if out["entity_requests"], err = s.counter("counters", "entity_counter"); err != nil {
		return nil, err
	}
	out["signed_in"] = c.IsSignedIn()
	return out, nil
}

func refreshAfterClockMoves(s *scenario) (object, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if _, err := s.register(c); err != nil {
		return nil, err
	}
	if err := s.admins("clear_counters", "advance_clock"); err != nil {
		return nil, err
	}
	out := object{"fetch": object{"status": status(c.FetchRecord(bg))}}
	if out["refresh_requests"], err = s.counter("counters", "refresh_counter"); err != nil {
		return nil, err
	}
	out["signed_in"] = c.IsSignedIn()
	out["record_email"] = recordString(c, "/email")
	return out, nil
}

func signOutRestart(s *scenario) (object, error) {
	out := object{}
	a, err := s.client()
	if err != nil {
		return nil, err
	}
	reg, err := s.register(a)
	out["first"] = object{"status": status(err), "signed_in": a.IsSignedIn()}
	a.Close()
	b, err := s.client()
	if err != nil {
		return nil, err
	}
	state, err := b.State()
	out["restored"] = object{"signed_in": b.IsSignedIn(), "same_uuid": known(err, orEmpty(state).UUID == orEmpty(reg).UUID && orEmpty(reg).UUID != ""),
		"record_email": recordString(b, "/email")}
	err = b.SignOut(bg)
	out["sign_out"] = object{"status": status(err), "signed_in": b.IsSignedIn()}
	b.Close()
	c3, err := s.client()
	if err != nil {
		return nil, err
	}
	out["after_sign_out"] = object{"signed_in": c3.IsSignedIn()}
	c3.Close()
	return out, nil
}

func signInTokenSession(s *scenario) (object, error) {
	created, err := s.admin("create_user")
	if err != nil {
		return nil, err
	}
	id, _ := created[s.obj("create_user")["result"].(string)].(string)
	s.vars["${USER_ID}"] = id
	mint := func() (string, error) {
		m, err := s.admin("mint")
		if err != nil {
			return "", err
		}
		t, _ := m[s.obj("mint")["result"].(string)].(string)
		return t, nil
	}
	token, err := mint()
	if err != nil {
		return nil, err
	}
	out := object{}
	decoded, err := jump.DecodeSignInToken(token)
	info := orEmpty(decoded)
	out["decode"] = object{"status": status(err), "user_id_matches": known(err, info.UserID == id),
		"environment": known(err, info.Environment), "region": known(err, info.Region)}
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	signedIn := func() any { st, err := c.Status(); return known(err, orEmpty(st).SignedIn) }
	out["before"] = object{"signed_in": signedIn()}
	res, err := c.SignInWithToken(bg, token)
	out["sign_in"] = object{"status": status(err), "user_id_matches": known(err, orEmpty(res).UserID == id),
		"changed": known(err, orEmpty(res).Changed), "migrated": known(err, orEmpty(res).Migrated)}
	st, err := c.Status()
	sts := orEmpty(st)
	out["status"] = object{"signed_in": known(err, sts.SignedIn), "use_sign_in_token": known(err, sts.UseSignInToken),
		"use_api_key": known(err, sts.UseAPIKey), "user_id_matches": known(err, sts.UserID == id)}
	profile := s.str("profile_path")
	body, _ := json.Marshal(s.in("profile"))
	put, err := c.Request(bg, "PUT", profile, map[string]string{"Content-Type": "application/json"}, body)
	out["put"] = object{"status": status(err), "http_status": httpStatus(put)}
	get, err := c.Request(bg, "GET", profile, nil, nil)
	var data any
	if get != nil {
		var parsed map[string]any
		if json.Unmarshal(get.Bytes(), &parsed) == nil {
			data = parsed["data"]
		}
	}
	out["get"] = object{"status": status(err), "http_status": httpStatus(get), "data": data}
	again, err := mint()
	if err != nil {
		return nil, err
	}
	res, err = c.SignInWithToken(bg, again)
	out["sign_in_again"] = object{"status": status(err), "changed": known(err, orEmpty(res).Changed)}
	out["sign_out"] = object{"status": status(c.SignOut(bg))}
	out["after_sign_out"] = object{"signed_in": signedIn()}
	return out, nil
}

func httpStatus(r *jump.HTTPResponse) any {
	if r == nil {
		return nil
	}
	return r.Status
}

func cancelAsync(s *scenario) (object, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if _, err := s.register(c); err != nil {
		return nil, err
	}
	if err := s.admins("clear_counters", "delay"); err != nil {
		return nil, err
	}
	ms := func(key string) time.Duration {
		v, _ := s.in(key).(float64)
		return time.Duration(v) * time.Millisecond
	}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	results := make(chan error, 4) // every return of the call lands here: the completions delivered
	go func() { results <- c.FetchRecord(ctx) }()
	reached := time.Now().Add(ms("reach_timeout_ms"))
	for time.Now().Before(reached) {
		n, err := s.counter("counters", "reached_counter")
		if err != nil {
			return nil, err
		}
		if n >= 1 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	out := object{"pending_before_cancel": len(results) == 0}
	cancel()
	stopwatch := time.Now()
	select {
	case err := <-results:
		out["status"] = status(err)
		out["within_deadline"] = time.Since(stopwatch) < ms("cancel_deadline_ms")
	case <-time.After(10 * time.Second):
		out["status"] = "no completion"
		out["within_deadline"] = false
	}
	time.Sleep(ms("settle_ms"))
	out["completions"] = 1 + len(results)
	out["signed_in"] = c.IsSignedIn()
	return out, nil
}

func statusErrors(s *scenario) (object, error) {
	names := []any{}
	for _, item := range s.in("statuses").([]any) {
		code := item.(map[string]any)["code"].(float64)
		// The binding's public error type for that code, and the name it reports.
		err := error(&jump.Error{Status: jump.Status(int32(code)), Op: "conformance"})
		var e *jump.Error
		if errors.As(err, &e) && errors.Is(err, e.Status.Err()) {
			names = append(names, e.Status.String())
		} else {
			names = append(names, nil)
		}
	}
	return object{"names": names}, nil
}

// known is a value the runner worked out, or null when the call that gives it failed (the README's rule).
// orEmpty is v, or an empty T when the call failed and returned nil (its facts are then null through known).
func orEmpty[T any](v *T) *T {
	if v == nil {
		return new(T)
	}
	return v
}

func known(err error, v any) any {
	if err != nil {
		return nil
	}
	return v
}
