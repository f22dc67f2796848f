package main

import (
	"fmt"
	"sort"

	"libjump.io/jump"
)

// severalAccounts: two users registered (each registration signs its user in) and signed in again into one
// client with accounts "multiple", listed, switched, one removed (Tests/conformance/README.md, section 9).
func severalAccounts(s *scenario) (object, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	users, _ := s.in("users").([]any)
	if len(users) != 2 {
		return nil, fmt.Errorf("input.users: want 2 users, got %d", len(users))
	}
	ann, _ := users[0].(map[string]any)
	bob, _ := users[1].(map[string]any)
	annEmail, _ := ann["email"].(string)
	bobEmail, _ := bob["email"].(string)
	password := s.str("password")
	for _, u := range []map[string]any{ann, bob} {
		if _, err := c.RegisterTraditional(bg, u, password); err != nil {
			return nil, fmt.Errorf("registering a user: %v", err)
		}
	}
	for _, email := range []string{annEmail, bobEmail} {
		if _, err := c.SignIn(bg, email, password); err != nil {
			return nil, fmt.Errorf("signing a user in: %v", err)
		}
	}
	listed, err := c.Accounts()
	if err != nil {
		return nil, err
	}
	count, active, emails := summary(listed)
	out := object{"after_two_sign_ins": object{"count": count, "active_email": active, "emails": emails}}
	uuidOf := map[string]string{}
	for _, a := range listed.Accounts {
		uuidOf[a.Email] = a.UUID
	}
	err = c.SwitchAccount(bg, uuidOf[annEmail])
	out["switch"] = object{"status": status(err), "record_email": recordString(c, "/email")}
	err = c.RemoveAccount(bg, uuidOf[bobEmail])
	listed, lerr := c.Accounts()
	if lerr != nil {
		return nil, lerr
	}
	count, active, _ = summary(listed)
	out["remove"] = object{"status": status(err), "count": count, "signed_in": c.IsSignedIn(), "active_email": active}
	err = c.SwitchAccount(bg, uuidOf[bobEmail])
	out["switch_removed"] = object{"status": status(err)}
	return out, nil
}

// summary: the number of saved accounts, the active one's email (nil when none), every email sorted.
func summary(listed *jump.SavedAccounts) (int, any, []string) {
	var active any
	emails := []string{}
	for _, a := range listed.Accounts {
		emails = append(emails, a.Email)
		if listed.Active != "" && a.UUID == listed.Active {
			active = a.Email
		}
	}
	sort.Strings(emails)
	return len(listed.Accounts), active, emails
}
