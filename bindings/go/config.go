package jump

/*
#include "bridge.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"runtime/cgo"
	"sync/atomic"
)

// Config holds a client's settings (jump_config). Keys are the Key* constants; NewClient copies it.
type Config struct {
	h atomic.Pointer[C.jump_config]
}

func newConfigOf(h *C.jump_config) *Config {
	c := &Config{}
	c.h.Store(h)
	runtime.SetFinalizer(c, (*Config).Close)
	return c
}

// NewConfig is an empty config: every key at its default (jump_config_new).
func NewConfig() (*Config, error) {
	var h *C.jump_config
	if err := check("jump_config_new", func() C.jump_status { return C.jump_config_new(&h) }); err != nil {
		return nil, err
	}
	return newConfigOf(h), nil
}

// ConfigFromJSON makes a config from a JSON object of keys (jump_config_from_json).
func ConfigFromJSON(text string) (*Config, error) {
	a := cargs{op: "jump_config_from_json"}
	defer a.free()
	j := a.str("json", text)
	if a.err != nil {
		return nil, a.err
	}
	var h *C.jump_config
	if err := check(a.op, func() C.jump_status { return C.jump_config_from_json(j, &h) }); err != nil {
		return nil, err
	}
	return newConfigOf(h), nil
}

// ConfigFrom makes a config from a map of keys, as ConfigFromJSON does from its JSON.
func ConfigFrom(settings map[string]any) (*Config, error) {
	text, err := json.Marshal(settings)
	if err != nil {
		return nil, argumentError("jump_config_from_json", "json", "the settings cannot be JSON: "+err.Error())
	}
	return ConfigFromJSON(string(text))
}

func (c *Config) setString(key string, value *string) error {
	a := cargs{op: "jump_config_set_string"}
	defer a.free()
	k := a.str("key", key)
	var v *C.char
	if value != nil {
		v = a.str("value", *value)
	}
	if a.err != nil {
		return a.err
	}
	defer runtime.KeepAlive(c)
	return check(a.op, func() C.jump_status { return C.jump_config_set_string(c.h.Load(), k, v) })
}

// SetString sets a string key.
func (c *Config) SetString(key, value string) error { return c.setString(key, &value) }

// Unset restores a string key's default (jump_config_set_string with NULL).
func (c *Config) Unset(key string) error { return c.setString(key, nil) }

// SetBool sets a boolean key.
func (c *Config) SetBool(key string, value bool) error {
	a := cargs{op: "jump_config_set_bool"}
	defer a.free()
	k := a.str("key", key)
	if a.err != nil {
		return a.err
	}
	v := C.int(0)
	if value {
		v = 1
	}
	defer runtime.KeepAlive(c)
	return check(a.op, func() C.jump_status { return C.jump_config_set_bool(c.h.Load(), k, v) })
}

// SetInt sets an integer key.
func (c *Config) SetInt(key string, value int64) error {
	a := cargs{op: "jump_config_set_int"}
	defer a.free()
	k := a.str("key", key)
	if a.err != nil {
		return a.err
	}
	defer runtime.KeepAlive(c)
	return check(a.op, func() C.jump_status { return C.jump_config_set_int(c.h.Load(), k, C.int64_t(value)) })
}

// JSON is the effective settings, defaults included (jump_config_to_json).
func (c *Config) JSON() (Object, error) {
	var out *C.char
	defer runtime.KeepAlive(c)
	if err := check("jump_config_to_json", func() C.jump_status { return C.jump_config_to_json(c.h.Load(), &out) }); err != nil {
		return nil, err
	}
	return decoded(take(out), nil, resultConfigToJSON)
}

// Storage is host storage (a keychain, encrypted preferences) in place of storageDirectory's files. libjump
// calls it from the thread of the call that needs it, never at once for one key of one client; it must
// not call the client it serves. Load returns an error matching ErrNotFound when nothing is saved; any
// other error is a read failure (never taken for "signed out").
type Storage interface {
	Load(key string) ([]byte, error)
	Save(key string, data []byte) error
	Erase(key string) error
}

type storageBox struct{ storage Storage }

// SetStorage makes clients created from this config use storage (nil goes back to files).
func (c *Config) SetStorage(storage Storage) error {
	defer runtime.KeepAlive(c)
	if storage == nil {
		return check("jump_config_set_storage", func() C.jump_status {
			return C.jump_config_set_storage(c.h.Load(), nil, nil, nil, nil, nil)
		})
	}
	// libjump releases the handle (context_free) once no config or client uses the storage, or at once
	// when this call fails.
	h := cgo.NewHandle(&storageBox{storage})
	return check("jump_config_set_storage", func() C.jump_status {
		return C.jump_config_set_storage(c.h.Load(), C.jump_go_storage_load(), C.jump_go_storage_save(),
			C.jump_go_storage_erase(), C.jump_go_userdata(C.uintptr_t(h)), C.jump_go_release())
	})
}

// Close releases the config (clients made from it keep their copy). Safe to call more than once.
func (c *Config) Close() error {
	if h := c.h.Swap(nil); h != nil {
		C.jump_config_free(h)
	}
	runtime.SetFinalizer(c, nil)
	return nil
}
