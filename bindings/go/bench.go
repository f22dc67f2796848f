package jump

/*
#include "bridge.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// noopCall is IsSignedIn with a C function that does nothing in place of jump_client_is_signed_in: the
// same handle load, cgo call and KeepAlive. The benchmark's floor (bench_test.go), in this package because
// test files cannot use cgo.
func noopCall(c *Client) bool {
	r := C.jump_go_noop(unsafe.Pointer(c.h.Load())) == 1
	runtime.KeepAlive(c)
	return r
}

// rawIsSignedIn is jump_client_is_signed_in called straight through cgo, without the binding's wrapper: the
// benchmark's middle figure, which splits IsSignedIn's cost over noopCall into libjump's and the binding's.
func rawIsSignedIn(h *C.jump_client) int { return int(C.jump_client_is_signed_in(h)) }
