package jump

/*
#include "bridge.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"runtime"
	"runtime/cgo"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Client is one app installation's session (jump_client). Safe for use by many goroutines at once; Close
// releases it (its calls in flight then end with ErrCancelled).
type Client struct {
	h atomic.Pointer[C.jump_client]
}

// NewClient creates a client from a copy of config and restores the saved session, if any (no network).
func NewClient(config *Config) (*Client, error) {
	var h *C.jump_client
	var ch *C.jump_config
	if config != nil {
		ch = config.h.Load()
	}
	err := check("jump_client_new", func() C.jump_status { return C.jump_client_new(ch, &h) })
	runtime.KeepAlive(config)
	if err != nil {
		return nil, err
	}
	c := &Client{}
	c.h.Store(h)
	runtime.SetFinalizer(c, (*Client).Close)
	return c, nil
}

// Open creates a client from a map of config keys (ConfigFrom, then NewClient).
func Open(settings map[string]any) (*Client, error) {
	config, err := ConfigFrom(settings)
	if err != nil {
		return nil, err
	}
	defer config.Close()
	return NewClient(config)
}

// Close releases the client: in-flight calls end with ErrCancelled (or their result, if they had one). Safe
// to call more than once, and from any goroutine; a closed client's calls fail with ErrInvalidHandle.
func (c *Client) Close() error {
	if h := c.h.Swap(nil); h != nil {
		C.jump_client_free(h)
	}
	runtime.SetFinalizer(c, nil)
	return nil
}

// handle is the C handle, NULL once closed: libjump answers NULL with JUMP_E_INVALID_HANDLE.
func (c *Client) handle() *C.jump_client { return c.h.Load() }

// IsSignedIn reports whether a user is signed in (memory only: no network, no storage).
func (c *Client) IsSignedIn() bool {
	signedIn := C.jump_client_is_signed_in(c.h.Load()) == 1
	runtime.KeepAlive(c)
	return signedIn
}

// outString calls a function of the client that returns a string through char **out.
func (c *Client) outString(op string, f func(h *C.jump_client, out **C.char) C.jump_status) (string, error) {
	var out *C.char
	err := check(op, func() C.jump_status { return f(c.handle(), &out) })
	runtime.KeepAlive(c)
	text := take(out)
	return text, err
}

func (c *Client) plain(op string, f func(h *C.jump_client) C.jump_status) error {
	err := check(op, func() C.jump_status { return f(c.handle()) })
	runtime.KeepAlive(c)
	return err
}

// State is the client's state: who is signed in, whether edits are unsynced, what could not be restored.
func (c *Client) State() (*ClientState, error) {
	text, err := c.outString("jump_client_state", func(h *C.jump_client, out **C.char) C.jump_status {
		return C.jump_client_state(h, out)
	})
	if err != nil {
		return nil, err
	}
	return resultClientState(text)
}

// Restore reads the saved session and credential again (after a StatusStorage restore error).
func (c *Client) Restore() error {
	return c.plain("jump_client_restore", func(h *C.jump_client) C.jump_status { return C.jump_client_restore(h) })
}

// EraseQuarantine erases the sessions set aside ("quarantine" in State).
func (c *Client) EraseQuarantine() error {
	return c.plain("jump_client_erase_quarantine", func(h *C.jump_client) C.jump_status {
		return C.jump_client_erase_quarantine(h)
	})
}

// blockingPlain runs a network call without an _async form (see blocking: not cancellable once started).
func (c *Client) blockingPlain(ctx context.Context, op string, f func(h *C.jump_client) C.jump_status) error {
	_, err := blocking(ctx, op, func() (string, error) { return "", c.plain(op, f) })
	return err
}

// blockingText runs a network call without an _async form that returns a document (see blocking), and
// returns the document's text for its result<Function> to decode.
func (c *Client) blockingText(ctx context.Context, op string, a *cargs, f func(h *C.jump_client, out **C.char) C.jump_status) (string, error) {
	defer a.free()
	if a.err != nil {
		return "", a.err
	}
	return blocking(ctx, op, func() (string, error) { return c.outString(op, f) })
}

// LoadFlow downloads the Capture flow now (normally fetched when first needed).
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) LoadFlow(ctx context.Context) error {
	return c.blockingPlain(ctx, "jump_client_load_flow", func(h *C.jump_client) C.jump_status { return C.jump_client_load_flow(h) })
}

// LoadSchema downloads the record schema; record edits are then checked against it locally.
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) LoadSchema(ctx context.Context) error {
	return c.blockingPlain(ctx, "jump_client_load_schema", func(h *C.jump_client) C.jump_status { return C.jump_client_load_schema(h) })
}

// SignOut signs out of everything (then, best effort, revokes the refresh token on the server).
//
// Not cancellable once started (the C API has no _async form of it): a ctx already done returns its
// error (ErrCancelled; errors.Is finds ctx.Err()) and nothing is done; otherwise the call runs to its end
// (bounded by requestTimeoutMs) and returns its own result, whatever ctx does meanwhile.
func (c *Client) SignOut(ctx context.Context) error {
	return c.blockingPlain(ctx, "jump_client_sign_out", func(h *C.jump_client) C.jump_status { return C.jump_client_sign_out(h) })
}

// eventSink hands events to the app's handler on a goroutine of its own, in order: libjump's event thread
// also delivers completions, so a handler that waits for a call of the client (SignIn in reaction to
// "session_expired") would otherwise wait for itself.
type eventSink struct {
	handler func(Event)
	mu      sync.Mutex
	queue   []string
	running bool
}

func (s *eventSink) deliver(text string) {
	s.mu.Lock()
	s.queue = append(s.queue, text)
	start := !s.running
	s.running = true
	s.mu.Unlock()
	if start {
		go s.drain()
	}
}

func (s *eventSink) drain() {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.running = false
			s.mu.Unlock()
			return
		}
		text := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		// An event that does not decode still reaches the handler, with its Raw (json.Unmarshal fills what
		// it can).
		var e Event
		if json.Unmarshal([]byte(text), &e) != nil {
			e.Raw = json.RawMessage(text)
		}
		_ = safely(func() error { s.handler(e); return nil })
	}
}

// OnEvent sets the event handler (nil removes it). Events reach it one at a time and in order, on a
// goroutine of the binding's (never libjump's thread), so it may call the client, and wait for its calls.
func (c *Client) OnEvent(handler func(Event)) error {
	if handler == nil {
		return c.plain("jump_client_set_event_callback", func(h *C.jump_client) C.jump_status {
			return C.jump_client_set_event_callback(h, nil, nil, nil)
		})
	}
	handle := cgo.NewHandle(&eventSink{handler: handler})
	err := c.plain("jump_client_set_event_callback", func(h *C.jump_client) C.jump_status {
		return C.jump_client_set_event_callback(h, C.jump_go_event(), C.jump_go_userdata(C.uintptr_t(handle)), C.jump_go_release())
	})
	return err
}

type logSink struct{ handler func(line LogLine) }

func (s *logSink) deliver(text string) {
	var line LogLine
	if json.Unmarshal([]byte(text), &line) == nil {
		_ = safely(func() error { s.handler(line); return nil })
	}
}

// SetLogHandler installs the process-wide log handler (nil removes it). Lines are redacted; the handler may
// run on any thread, concurrently, while libjump holds a client's lock: it must not call a Client.
func SetLogHandler(handler func(line LogLine)) error {
	if handler == nil {
		return check("jump_set_log_callback", func() C.jump_status { return C.jump_set_log_callback(nil, nil, nil) })
	}
	handle := cgo.NewHandle(&logSink{handler})
	return check("jump_set_log_callback", func() C.jump_status {
		return C.jump_set_log_callback(C.jump_go_log(), C.jump_go_userdata(C.uintptr_t(handle)), C.jump_go_release())
	})
}

// async starts one of the client's _async calls and waits for it (await); the client stays alive meanwhile.
// It returns the completion's result as text, for the function's result<Function> to decode.
func (c *Client) async(ctx context.Context, op string, a *cargs, p *pending,
	start func(h *C.jump_client, cb C.jump_callback, ud unsafe.Pointer, free C.jump_free_fn, out **C.jump_request) C.jump_status) (string, error) {
	defer runtime.KeepAlive(c)
	raw, err := await(ctx, op, a, p, func(cb C.jump_callback, ud unsafe.Pointer, free C.jump_free_fn, out **C.jump_request) C.jump_status {
		return start(c.handle(), cb, ud, free, out)
	})
	return string(raw), err
}
