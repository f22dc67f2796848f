package jump

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRegisterSignOutSignIn(t *testing.T) {
	reset(t)
	ctx := context.Background()
	c := newClient(t, nil)
	if c.IsSignedIn() {
		t.Fatal("a new client is signed in")
	}
	acct := register(t, c)
	if !c.IsSignedIn() {
		t.Fatal("not signed in after registration")
	}
	state, err := c.State()
	if err != nil || state.UUID != acct.uuid || !state.SignedIn {
		t.Fatalf("State: %v %v", state, err)
	}
	// The typed fields: epoch seconds as a time.Time, a "values" key as its constant, the document in Raw.
	if until := time.Until(state.AccessTokenExpiresAt); until < time.Minute || until > 48*time.Hour ||
		state.SecretStore == "" || state.Quarantine == nil || !strings.Contains(string(state.Raw), `"secret_store"`) {
		t.Fatalf("State's typed fields: %+v (expires in %v)", state, until)
	}
	if err := c.SignOut(ctx); err != nil || c.IsSignedIn() {
		t.Fatalf("SignOut: %v, signed in %v", err, c.IsSignedIn())
	}
	result, err := c.SignIn(ctx, acct.email, password)
	if err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	if result.UUID != acct.uuid || result.IsNew {
		t.Fatalf("SignIn result: %v", result)
	}
}

func TestBadPasswordIsErrBadCredentials(t *testing.T) {
	reset(t)
	c := newClient(t, nil)
	acct := register(t, c)
	other := newClient(t, nil)
	_, err := other.SignIn(context.Background(), acct.email, "not the password")
	if !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("want ErrBadCredentials, got %v", err)
	}
	var jerr *Error
	if !errors.As(err, &jerr) || jerr.Status != StatusBadCredentials || jerr.Detail["status_name"] != "JUMP_E_BAD_CREDENTIALS" ||
		jerr.Document().StatusName != "JUMP_E_BAD_CREDENTIALS" || jerr.Document().Status != int64(StatusBadCredentials) {
		t.Fatalf("errors.As: %#v", jerr)
	}
	if errors.Is(err, ErrNetwork) || other.IsSignedIn() {
		t.Fatal("a bad password matched another status, or signed in")
	}
	for _, secret := range []string{"not the password", password} {
		if strings.Contains(err.Error(), secret) || strings.Contains(jerr.DetailJSON, secret) {
			t.Fatal("the error names the password")
		}
	}
}

func TestEditAndSync(t *testing.T) {
	reset(t)
	ctx := context.Background()
	c := newClient(t, nil)
	acct := register(t, c)
	r, err := c.Record()
	if err != nil {
		t.Fatalf("Record: %v", err)
	}
	defer r.Close()
	if err := r.SetString("/aboutMe", "written from Go"); err != nil {
		t.Fatalf("SetString: %v", err)
	}
	if err := r.Set("/primaryAddress/city", "Lyon"); err != nil {
		t.Fatalf("Set: %v", err)
	}
	changes, err := r.Changes()
	if err != nil || len(changes.Changed) != 2 || len(changes.Requests) != 1 ||
		changes.Requests[0].Endpoint != SyncRequestEndpointEntityUpdate || changes.Update["aboutMe"] != "written from Go" {
		t.Fatalf("Changes: %v %v", changes, err)
	}
	result, err := c.Sync(ctx)
	if err != nil {
		t.Fatalf("Sync: %v", err)
	}
	if result.Requests != 1 {
		t.Fatalf("Sync result: %v", result)
	}
	server := user(t, acct.uuid)
	if server["aboutMe"] != "written from Go" || server["primaryAddress"].(map[string]any)["city"] != "Lyon" {
		t.Fatalf("the server has %v", server)
	}
	if s, err := r.GetString("/aboutMe"); err != nil || s == nil || *s != "written from Go" {
		t.Fatalf("GetString: %v %v", s, err)
	}
	var given string
	if err := r.Get("/givenName", &given); err != nil || given != "Ada" {
		t.Fatalf("Get: %q %v", given, err)
	}
	if _, err := r.GetString("/noSuchAttribute"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a missing path: %v", err)
	}
	if _, err := r.GetInt64("/givenName"); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("a string read as a number: %v", err)
	}
	// A plural: append, count, paths, sync (the server gives the element its id), remove.
	path, err := r.Append("/statuses", map[string]any{"status": "hello"})
	if err != nil || path == "" {
		t.Fatalf("Append: %q %v", path, err)
	}
	if n, err := r.ElementCount("/statuses"); err != nil || n != 1 {
		t.Fatalf("ElementCount: %d %v", n, err)
	}
	synced, err := c.Sync(ctx)
	if err != nil {
		t.Fatalf("Sync of the append: %v", err)
	}
	renamed := synced.Renamed[path]
	paths, err := r.ElementPaths("/statuses")
	if err != nil || len(paths) != 1 || paths[0] != renamed {
		t.Fatalf("ElementPaths: %v %v (renamed %v)", paths, err, renamed)
	}
	if err := r.ReplacePlural("/statuses", []map[string]any{{"status": "a"}, {"status": "b"}}); err != nil {
		t.Fatalf("ReplacePlural: %v", err)
	}
	if err := r.Revert("/statuses"); err != nil {
		t.Fatalf("Revert: %v", err)
	}
	if n, _ := r.ElementCount("/statuses"); n != 1 {
		t.Fatalf("after Revert: %d elements", n)
	}
	if err := r.Remove(renamed); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if err := r.Clear("/aboutMe"); err != nil {
		t.Fatalf("Clear: %v", err)
	}
	if err := r.DiscardChanges(); err != nil {
		t.Fatalf("DiscardChanges: %v", err)
	}
	if s, _ := r.GetString("/aboutMe"); s == nil || *s != "written from Go" {
		t.Fatal("DiscardChanges kept the local edit")
	}
	if err := c.FetchRecord(ctx); err != nil {
		t.Fatalf("FetchRecord: %v", err)
	}
}

func TestStorageRestart(t *testing.T) {
	reset(t)
	dir := t.TempDir()
	c := newClient(t, map[string]any{KeyStorageDirectory: dir})
	acct := register(t, c)
	r, err := c.Record()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetString("/aboutMe", "not synced yet"); err != nil {
		t.Fatal(err)
	}
	r.Close()
	c.Close()
	if c.IsSignedIn() {
		t.Fatal("a closed client says signed in")
	}
	if _, err := c.State(); !errors.Is(err, ErrInvalidHandle) {
		t.Fatalf("a closed client's call: %v", err)
	}
	within(t, 10*time.Second, "an _async call on a closed client", func() {
		if _, err := c.Sync(context.Background()); !errors.Is(err, ErrInvalidHandle) {
			t.Errorf("a closed client's _async call: %v", err)
		}
	})
	again := newClient(t, map[string]any{KeyStorageDirectory: dir})
	state, err := again.State()
	if err != nil || state.UUID != acct.uuid || !state.SignedIn || !state.UnsyncedChanges {
		t.Fatalf("restored state: %v %v", state, err)
	}
	if err := again.Restore(); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if _, err := again.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if user(t, acct.uuid)["aboutMe"] != "not synced yet" {
		t.Fatal("the edit made before the restart did not reach the server")
	}
}

// mapStorage is host storage in memory (Config.SetStorage).
type mapStorage struct {
	mu    sync.Mutex
	data  map[string][]byte
	saves int
	fail  string // "error": Save returns an error; "panic": Save panics
}

func (m *mapStorage) Load(key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.data[key]; ok {
		return v, nil
	}
	return nil, ErrNotFound
}
func (m *mapStorage) Save(key string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch m.fail {
	case "error":
		return errors.New("the disk is full")
	case "panic":
		panic("a bug in the host's storage")
	}
	m.data[key] = append([]byte(nil), data...)
	m.saves++
	return nil
}
func (m *mapStorage) Erase(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.data, key)
	return nil
}

func TestHostStorage(t *testing.T) {
	reset(t)
	store := &mapStorage{data: map[string][]byte{}}
	open := func() *Client {
		config, err := ConfigFrom(settings(t, nil))
		if err != nil {
			t.Fatal(err)
		}
		defer config.Close()
		if err := config.SetStorage(store); err != nil {
			t.Fatalf("SetStorage: %v", err)
		}
		c, err := NewClient(config)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	c := open()
	acct := register(t, c)
	store.mu.Lock()
	saves := store.saves
	store.mu.Unlock()
	if saves == 0 {
		t.Fatal("the session was not saved to the host storage")
	}
	// A save that fails, or panics, refuses the edit with ErrStorage: nothing crashes, the edit is not made.
	r, err := c.Record()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, fail := range []string{"error", "panic"} {
		store.mu.Lock()
		store.fail = fail
		store.mu.Unlock()
		if err := r.SetString("/aboutMe", "cannot be saved"); !errors.Is(err, ErrStorage) {
			t.Fatalf("a save that fails (%s): %v", fail, err)
		}
	}
	store.mu.Lock()
	store.fail = ""
	store.mu.Unlock()
	if s, _ := r.GetString("/aboutMe"); s != nil && *s == "cannot be saved" {
		t.Fatal("an edit that could not be saved was made")
	}
	c.Close()
	if state, err := open().State(); err != nil || state.UUID != acct.uuid {
		t.Fatalf("restored from host storage: %v %v", state, err)
	}
}
