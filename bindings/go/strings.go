package jump

/*
#include "bridge.h"
*/
import "C"

import (
	"encoding/json"
	"strings"
	"unsafe"
)

func unsafePointer(p *C.char) unsafe.Pointer { return unsafe.Pointer(p) }

// cargs holds the C copies of one call's string arguments and frees them together. A Go string holding a
// NUL would be cut short in C (a password ending early): refused instead, as libjump refuses bad UTF-8.
type cargs struct {
	op   string
	ptrs []unsafe.Pointer
	err  error
}

func (a *cargs) str(name, s string) *C.char {
	if strings.IndexByte(s, 0) >= 0 && a.err == nil {
		a.err = argumentError(a.op, name, name+" holds a NUL byte")
	}
	p := C.CString(s)
	a.ptrs = append(a.ptrs, unsafe.Pointer(p))
	return p
}

// opt is str, with "" passed as NULL (the C functions' "may be NULL" arguments).
func (a *cargs) opt(name, s string) *C.char {
	if s == "" {
		return nil
	}
	return a.str(name, s)
}

// json passes a value as JSON text: a string or json.RawMessage as it is, anything else marshalled; nil
// is NULL.
func (a *cargs) json(name string, v any) *C.char {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		return a.str(name, t)
	case json.RawMessage:
		return a.str(name, string(t))
	case []byte:
		return a.str(name, string(t))
	}
	b, err := json.Marshal(v)
	if err != nil {
		if a.err == nil {
			a.err = argumentError(a.op, name, name+" cannot be JSON: "+err.Error())
		}
		return nil
	}
	return a.str(name, string(b))
}

func (a *cargs) free() {
	for _, p := range a.ptrs {
		C.free(p)
	}
	a.ptrs = nil
}

// take copies a string libjump returned and frees it (jump_string_free).
func take(p *C.char) string {
	if p == nil {
		return ""
	}
	s := C.GoString(p)
	C.jump_string_free(p)
	return s
}

// Object is a JSON object libjump returned, decoded.
type Object = map[string]any

// decodeResult decodes a result document into v (one of the types of results_generated.go, which
// result<Function> picks from the function's "result" in jump_api.json); "" (an out-parameter left NULL) is
// an empty object.
func decodeResult(op, text string, v any) error {
	if text == "" {
		text = "{}"
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		detail, _ := json.Marshal(map[string]any{"status": int(StatusInternal), "status_name": StatusInternal.String(),
			"message": "libjump returned a result that does not decode: " + err.Error()})
		return newError(op, StatusInternal, string(detail))
	}
	return nil
}

// decoded is decode(text), or err when the call failed: a call's text and error handed to the
// result<Function> of results_generated.go.
func decoded[T any](text string, err error, decode func(string) (T, error)) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return decode(text)
}
