package jump

/*
#include "bridge.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/cgo"
	"unsafe"
)

// pending is one _async call: its completion document arrives on done, exactly once.
type pending struct {
	done       chan string
	deliveries int32
	openURL    func(url string) error // social sign-in loopback only
	openErr    error                  // what openURL returned, set before the completion is sent
}

// releaser is a userdata value told when libjump drops it (userdata_free).
type releaser interface{ released() }

func (p *pending) released() { trace(asyncReleased) }

// asyncEvent is a step of an _async call, as asyncTrace is told it.
type asyncEvent int

const (
	asyncStarted   asyncEvent = iota // await started the call
	asyncDelivered                   // its completion arrived
	asyncDuplicate                   // a second completion arrived (libjump promises once)
	asyncReleased                    // libjump dropped its userdata
)

// asyncTrace is nil but in the tests, which set it before any call (async_test.go counts the steps and checks
// every start gets one delivery and one release).
var asyncTrace func(asyncEvent)

func trace(e asyncEvent) {
	if asyncTrace != nil {
		asyncTrace(e)
	}
}

// startFn starts one _async call with libjump's (callback, userdata, userdata_free, out_request).
type startFn func(cb C.jump_callback, userdata unsafe.Pointer, free C.jump_free_fn, out **C.jump_request) C.jump_status

// completion is the document an _async call's callback gets.
type completion struct {
	Status Status          `json:"status"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// await starts an _async call and waits for its completion or the context: on cancellation the request is
// cancelled (jump_request_cancel) and its completion still awaited, so no delivery is ever left behind
// (libjump stops a request within about 100 ms). A result that won the race is returned as it is.
func await(ctx context.Context, op string, a *cargs, p *pending, start startFn) (json.RawMessage, error) {
	defer a.free()
	if a.err != nil {
		return nil, a.err
	}
	if ctx.Err() != nil {
		return nil, cancelledError(op, ctx)
	}
	if p == nil {
		p = &pending{}
	}
	p.done = make(chan string, 1)
	h := cgo.NewHandle(p)
	trace(asyncStarted)
	var request *C.jump_request
	// A call that fails to start still completes through the callback (jump.h), so its status is not read
	// here: the completion carries it with its detail.
	start(C.jump_go_completion(), C.jump_go_userdata(C.uintptr_t(h)), C.jump_go_release(), &request)
	defer C.jump_request_free(request)
	var document string
	var cause error
	select {
	case document = <-p.done:
	case <-ctx.Done():
		C.jump_request_cancel(request)
		document = <-p.done
		cause = ctx.Err()
	}
	var c completion
	if err := json.Unmarshal([]byte(document), &c); err != nil {
		return nil, newError(op, StatusInternal, fmt.Sprintf(`{"message":"a completion that is not JSON (%d bytes)"}`, len(document)))
	}
	if c.Status != StatusOK {
		e := newError(op, c.Status, string(c.Error))
		if c.Status == StatusCancelled {
			e.cause = cause
		}
		if p.openErr != nil && e.cause == nil {
			e.cause = p.openErr // the app's own error: errors.Is finds it
		}
		return nil, e
	}
	return c.Result, nil
}

// blocking runs a C call that has no _async form. The context is looked at once, before the call: done
// already, the call does not start and the context's error is returned (ErrCancelled, and errors.Is finds
// ctx.Err()). Once started, the call cannot be cancelled: it runs to its end (bounded by requestTimeoutMs)
// and its own result is returned, even when the context is done meanwhile, so the result always tells what
// happened (a SignOut that returns nil signed out; one that returns the context's error did nothing).
func blocking(ctx context.Context, op string, f func() (string, error)) (string, error) {
	if ctx.Err() != nil {
		return "", cancelledError(op, ctx)
	}
	return f()
}

// safely runs host code called from C: a panic there would kill the process from a libjump thread, so it
// becomes an error (and the host's callback fails with a status instead).
func safely(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("jump: host callback panicked: %v", r)
		}
	}()
	return f()
}

// callSink hands bytes to a sink libjump gave a callback; it copies them before returning.
func callSink(sink C.jump_storage_sink, context unsafe.Pointer, data []byte) {
	var p *C.char
	if len(data) > 0 {
		p = (*C.char)(unsafe.Pointer(&data[0]))
	}
	C.jump_go_call_sink(sink, context, p, C.size_t(len(data)))
}
