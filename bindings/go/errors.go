package jump

/*
#include "bridge.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
)

// Error is a libjump failure: its status, the C function that failed, and jump_error_last's detail.
type Error struct {
	Status Status
	// Op is the C function that failed, e.g. "jump_client_sign_in_async".
	Op string
	// Message is the detail's "message" (never a secret).
	Message string
	// Detail is the JSON error detail (jump_error_last, or a failed completion's "error"): keys "status",
	// "status_name", "message" and, when known, "server", "invalid_fields", "merge_token", ... (jump.h).
	// Some hold secrets (merge_token, social_registration_token): hand them back, do not log them.
	Detail map[string]any
	// DetailJSON is Detail as libjump wrote it.
	DetailJSON string
	cause      error
}

// Document is Detail as its generated type (nil when the detail is not a JSON object): the same keys, typed;
// MergeToken and SocialRegistrationToken are secrets.
func (e *Error) Document() *ErrorDetail {
	if e.DetailJSON == "" {
		return nil
	}
	d, err := resultErrorLast(e.DetailJSON)
	if err != nil {
		return nil
	}
	return d
}

// Error names the function, the status and the message; never a value of the detail (it may hold secrets).
func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("jump: %s: %s", e.Op, e.Status)
	}
	return fmt.Sprintf("jump: %s: %s: %s", e.Op, e.Status, e.Message)
}

// Is makes errors.Is(err, ErrX) hold for the sentinel of the error's status.
func (e *Error) Is(target error) bool {
	sentinel := e.Status.Err()
	return sentinel != nil && sentinel == target
}

// Unwrap gives the context's error when a cancelled context stopped the call (errors.Is(err,
// context.Canceled) holds then, as errors.Is(err, ErrCancelled) does).
func (e *Error) Unwrap() error { return e.cause }

// String is the enumerator name, e.g. "JUMP_E_EXPIRED".
func (s Status) String() string {
	if i := -int(s); i >= 0 && i < len(statusNames) {
		return statusNames[i]
	}
	return fmt.Sprintf("jump_status(%d)", int32(s))
}

// Meaning is what the status means, from jump.h.
func (s Status) Meaning() string {
	if i := -int(s); i >= 0 && i < len(statusMeanings) {
		return statusMeanings[i]
	}
	return "unknown status"
}

// Description is libjump's own description of the status (jump_status_str).
func (s Status) Description() string { return C.GoString(C.jump_status_str(C.jump_status(s))) }

// Err is the sentinel error of the status (nil for StatusOK and unknown codes).
func (s Status) Err() error {
	if i := -int(s); i >= 0 && i < len(statusErrors) {
		return statusErrors[i]
	}
	return nil
}

// Statuses lists every status, StatusOK first.
func Statuses() []Status {
	all := make([]Status, len(statusNames))
	for i := range all {
		all[i] = Status(-i)
	}
	return all
}

// newError makes an *Error from a status and a JSON detail (which may be empty or not JSON).
func newError(op string, status Status, detailJSON string) *Error {
	e := &Error{Status: status, Op: op, DetailJSON: detailJSON}
	if detailJSON != "" && json.Unmarshal([]byte(detailJSON), &e.Detail) == nil {
		if m, ok := e.Detail["message"].(string); ok {
			e.Message = m
		}
	}
	return e
}

// argumentError is a failure found by the binding before calling libjump (a string holding NUL, a value
// that is not JSON): a StatusInvalidArgument like libjump's own.
func argumentError(op, argument, message string) *Error {
	detail, _ := json.Marshal(map[string]any{"status": int(StatusInvalidArgument),
		"status_name": StatusInvalidArgument.String(), "message": message, "argument": argument})
	return newError(op, StatusInvalidArgument, string(detail))
}

// cancelledError is a call the context stopped before libjump could say so.
func cancelledError(op string, ctx context.Context) *Error {
	detail, _ := json.Marshal(map[string]any{"status": int(StatusCancelled), "status_name": StatusCancelled.String(),
		"message": "cancelled by the context: " + ctx.Err().Error(), "reason": "context"})
	e := newError(op, StatusCancelled, string(detail))
	e.cause = ctx.Err()
	return e
}

// check calls f and, when it fails, reads jump_error_last on the same OS thread (the detail is
// thread-local: the goroutine must not move between the two calls).
func check(op string, f func() C.jump_status) error {
	runtime.LockOSThread()
	status := f()
	if status == 0 {
		runtime.UnlockOSThread()
		return nil
	}
	detail := C.GoString(C.jump_error_last())
	runtime.UnlockOSThread()
	return newError(op, Status(status), detail)
}

// statusOf turns an error of host code (a storage or open-URL callback) into the status libjump gets.
func statusOf(err error, otherwise Status) C.jump_status {
	if err == nil {
		return 0
	}
	for _, s := range Statuses()[1:] {
		if errors.Is(err, s.Err()) {
			return C.jump_status(s)
		}
	}
	return C.jump_status(otherwise)
}
