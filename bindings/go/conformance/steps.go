package main

// The generic steps (Tests/conformance/README.md, "Step scenarios"): a scenario whose input has "steps" is
// played step by step, each step one call of the binding's public API.

import (
	"errors"
	"fmt"
	"sort"

	"libjump.io/jump"
)

// detailFacts: what the step asks to read from the error detail (nil detail: the call succeeded).
func detailFacts(step object, fact object, detail map[string]any) {
	if names, ok := step["detail"].([]any); ok {
		picked := object{}
		for _, n := range names {
			key := n.(string)
			picked[key] = detail[key]
		}
		fact["detail"] = picked
	}
	if member, ok := step["detail_keys"].(string); ok {
		var keys any
		if m, ok := detail[member].(map[string]any); ok {
			list := make([]string, 0, len(m))
			for k := range m {
				list = append(list, k)
			}
			sort.Strings(list)
			keys = list
		}
		fact["detail_keys"] = keys
	}
	if member, ok := step["detail_paths"].(string); ok {
		var paths any
		if l, ok := detail[member].([]any); ok {
			list := make([]any, 0, len(l))
			for _, e := range l {
				m, _ := e.(map[string]any)
				list = append(list, m["path"])
			}
			paths = list
		}
		fact["detail_paths"] = paths
	}
}

// stepStatus: {"status", detail facts} of a call's error.
func stepStatus(step object, err error) object {
	fact := object{"status": status(err)}
	var detail map[string]any
	var e *jump.Error
	if errors.As(err, &e) {
		detail = e.Detail
	}
	detailFacts(step, fact, detail)
	return fact
}

func playSteps(s *scenario) (out object, err error) {
	out = object{}
	clients := map[string]*jump.Client{}
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	docConfigs := s.configs
	steps, _ := s.input["steps"].([]any)
	for _, raw := range steps {
		step := s.subst(raw).(map[string]any)
		name, _ := step["client"].(string)
		c := clients[name]
		str := func(k string) string { v, _ := step[k].(string); return v }
		var fact any
		switch do := str("do"); do {
		case "open":
			config := s.config
			if k := str("config"); k != "" {
				config = docConfigs[k]
			}
			opened, err := jump.Open(s.subst(config).(map[string]any))
			if err != nil {
				return nil, err
			}
			clients[name] = opened
		case "close":
			c.Close()
			delete(clients, name)
		case "register":
			_, err := c.RegisterTraditional(bg, step["user"], str("password"))
			f := stepStatus(step, err)
			f["signed_in"] = c.IsSignedIn()
			fact = f
		case "sign_in":
			_, err := c.SignIn(bg, str("login"), str("password"))
			f := stepStatus(step, err)
			f["signed_in"] = c.IsSignedIn()
			fact = f
		case "sign_out":
			f := stepStatus(step, c.SignOut(bg))
			f["signed_in"] = c.IsSignedIn()
			fact = f
		case "sync":
			res, err := c.Sync(bg)
			f := stepStatus(step, err)
			f["changed"] = nil
			if err == nil {
				f["changed"] = res.Changed
			}
			fact = f
		case "fetch":
			fact = stepStatus(step, c.FetchRecord(bg))
		case "request":
			headers := map[string]string{}
			if h, ok := step["headers"].(map[string]any); ok {
				for k, v := range h {
					headers[k] = fmt.Sprint(v)
				}
			}
			var body []byte
			if b, ok := step["body"].(string); ok {
				body = []byte(b)
			}
			resp, err := c.Request(bg, str("method"), str("path"), headers, body)
			f := stepStatus(step, err)
			f["http_status"] = nil
			if err == nil {
				f["http_status"] = resp.Status
			}
			fact = f
		case "set":
			r, err := c.Record()
			if err != nil {
				return nil, err
			}
			err = r.SetString(str("path"), str("value"))
			r.Close()
			if err != nil {
				return nil, err
			}
		case "get":
			fact = recordString(c, str("path"))
		case "signed_in":
			fact = c.IsSignedIn()
		case "admin":
			answer, err := s.send(step["request"].(map[string]any))
			if err != nil {
				return nil, err
			}
			if counter, ok := step["counter"].(string); ok {
				n, _ := answer["counters"].(map[string]any)[counter].(float64)
				fact = n
			}
		default:
			return nil, fmt.Errorf("unknown step %q", do)
		}
		if key, ok := step["out"].(string); ok {
			out[key] = fact
		}
	}
	return out, nil
}
