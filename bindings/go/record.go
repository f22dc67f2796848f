package jump

/*
#include "bridge.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"sync/atomic"
)

// Record is a live view of the signed-in user's record (jump_record). Paths: "/" (the whole record),
// "/aboutMe", "/primaryAddress/city", "/photos#12/value". Edits are local (and saved with the session)
// until Client.Sync. After sign-out or another sign-in its calls fail with ErrNotSignedIn.
type Record struct {
	h      atomic.Pointer[C.jump_record]
	client *Client // the record belongs to it: the view keeps it alive
}

// Record is a view of the signed-in user's record; Close it when done.
func (c *Client) Record() (*Record, error) {
	var h *C.jump_record
	err := c.plain("jump_client_record", func(ch *C.jump_client) C.jump_status { return C.jump_client_record(ch, &h) })
	if err != nil {
		return nil, err
	}
	r := &Record{client: c}
	r.h.Store(h)
	runtime.SetFinalizer(r, (*Record).Close)
	return r, nil
}

// Close releases the view (the record itself belongs to the client). Safe to call more than once.
func (r *Record) Close() error {
	if h := r.h.Swap(nil); h != nil {
		C.jump_record_free(h)
	}
	runtime.SetFinalizer(r, nil)
	return nil
}

// call runs one record function with its path (and value) arguments made C strings.
func (r *Record) call(op string, a *cargs, f func(h *C.jump_record) C.jump_status) error {
	defer a.free()
	if a.err != nil {
		return a.err
	}
	err := check(op, func() C.jump_status { return f(r.h.Load()) })
	runtime.KeepAlive(r)
	return err
}

// GetJSON is the value at path as JSON text (ErrNotFound when the path does not exist).
func (r *Record) GetJSON(path string) (string, error) {
	a := &cargs{op: "jump_record_get"}
	p := a.str("path", path)
	var out *C.char
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_get(h, p, &out) })
	return take(out), err
}

// Get decodes the value at path into v (as json.Unmarshal does).
func (r *Record) Get(path string, v any) error {
	text, err := r.GetJSON(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return argumentError("jump_record_get", "v", "the value at "+path+" does not decode: "+err.Error())
	}
	return nil
}

// GetString is the string at path; nil for a JSON null (another type is ErrInvalidArgument).
func (r *Record) GetString(path string) (*string, error) {
	a := &cargs{op: "jump_record_get_string"}
	p := a.str("path", path)
	var out *C.char
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_get_string(h, p, &out) })
	if err != nil || out == nil {
		return nil, err
	}
	s := take(out)
	return &s, nil
}

// GetInt64 is the number at path (JSON null is ErrNotFound).
func (r *Record) GetInt64(path string) (int64, error) {
	a := &cargs{op: "jump_record_get_int64"}
	p := a.str("path", path)
	var out C.int64_t
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_get_int64(h, p, &out) })
	return int64(out), err
}

// GetFloat64 is the number at path as a float64 (JSON null is ErrNotFound).
func (r *Record) GetFloat64(path string) (float64, error) {
	a := &cargs{op: "jump_record_get_double"}
	p := a.str("path", path)
	var out C.double
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_get_double(h, p, &out) })
	return float64(out), err
}

// GetBool is the boolean at path (JSON null is ErrNotFound).
func (r *Record) GetBool(path string) (bool, error) {
	a := &cargs{op: "jump_record_get_bool"}
	p := a.str("path", path)
	var out C.int
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_get_bool(h, p, &out) })
	return out != 0, err
}

// Set sets the attribute at path to a value (a Go value marshalled to JSON, or json.RawMessage).
func (r *Record) Set(path string, value any) error {
	a := &cargs{op: "jump_record_set"}
	p := a.str("path", path)
	var v *C.char
	if s, ok := value.(string); ok { // a Go string is a JSON string here, not JSON text
		v = a.json("value_json", json.RawMessage(mustJSON(s)))
	} else if value == nil {
		v = a.str("value_json", "null")
	} else {
		v = a.json("value_json", value)
	}
	return r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_set(h, p, v) })
}

func mustJSON(s string) []byte { b, _ := json.Marshal(s); return b }

// SetString sets the attribute at path to a string.
func (r *Record) SetString(path, value string) error {
	a := &cargs{op: "jump_record_set_string"}
	p, v := a.str("path", path), a.str("value", value)
	return r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_set_string(h, p, v) })
}

// Clear clears the value at path: JSON null for a value or an object, no elements for a plural.
func (r *Record) Clear(path string) error {
	a := &cargs{op: "jump_record_clear"}
	p := a.str("path", path)
	return r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_clear(h, p) })
}

// Append appends an element (an object without "id") to the plural; it returns the new element's path.
func (r *Record) Append(pluralPath string, element any) (string, error) {
	a := &cargs{op: "jump_record_append"}
	p, e := a.str("plural_path", pluralPath), a.json("element_json", element)
	var out *C.char
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_append(h, p, e, &out) })
	return take(out), err
}

// Remove removes the plural element at elementPath ("/photos#12").
func (r *Record) Remove(elementPath string) error {
	a := &cargs{op: "jump_record_remove"}
	p := a.str("element_path", elementPath)
	return r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_remove(h, p) })
}

// ReplacePlural replaces every element of the plural with elements (a JSON array of objects).
func (r *Record) ReplacePlural(pluralPath string, elements any) error {
	a := &cargs{op: "jump_record_replace_plural"}
	p, e := a.str("plural_path", pluralPath), a.json("elements_json", elements)
	return r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_replace_plural(h, p, e) })
}

// ElementCount is the number of elements of the plural.
func (r *Record) ElementCount(pluralPath string) (int, error) {
	a := &cargs{op: "jump_record_element_count"}
	p := a.str("plural_path", pluralPath)
	var out C.size_t
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_element_count(h, p, &out) })
	return int(out), err
}

// ElementPaths are the paths of the plural's elements in order.
func (r *Record) ElementPaths(pluralPath string) ([]string, error) {
	a := &cargs{op: "jump_record_element_paths"}
	p := a.str("plural_path", pluralPath)
	var out *C.char
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_element_paths(h, p, &out) })
	return decoded(take(out), err, resultRecordElementPaths)
}

// Changes are the unsynced changes: the paths changed, the root entity.update's attributes, the requests a
// sync would send.
func (r *Record) Changes() (*RecordChanges, error) {
	a := &cargs{op: "jump_record_changes"}
	var out *C.char
	err := r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_changes(h, &out) })
	return decoded(take(out), err, resultRecordChanges)
}

// Revert drops the unsynced edits at path and below.
func (r *Record) Revert(path string) error {
	a := &cargs{op: "jump_record_revert"}
	p := a.str("path", path)
	return r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_revert(h, p) })
}

// DiscardChanges drops all unsynced changes.
func (r *Record) DiscardChanges() error {
	a := &cargs{op: "jump_record_discard_changes"}
	return r.call(a.op, a, func(h *C.jump_record) C.jump_status { return C.jump_record_discard_changes(h) })
}
