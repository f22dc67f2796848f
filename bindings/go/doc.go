// Package jump is the Go binding of libjump, the JUMP sign-in and user-record SDK core (libjump.so and
// jump.h, through cgo).
//
// Every call that may reach the network takes a context.Context. For most, cancelling it cancels the
// request (the _async form of the C function and jump_request_cancel). The few whose C function has no
// _async form (LoadFlow, LoadSchema, SignOut, LoadEngageConfig, Providers, SocialBegin, ShareContent,
// AccessToken, RefreshAccessToken, IdentifyExternalUser) cannot be cancelled once started: a context done
// before the call returns its error and nothing is done; otherwise the call runs to its end and returns its
// own result, so a SignOut that returns nil signed out, and one that returns the context's error did not.
// Failures are *Error values: errors.Is(err, jump.ErrExpired) tells the status, errors.As(err, &e) gives
// its Status and Detail (jump_error_last's JSON detail; Document() gives it typed). Every document a call
// returns is a generated Go type (results_generated.go: SignInResult, ClientState, Event, ...), with Raw holding
// the JSON as libjump sent it. Clients, configs and records may be used from many
// goroutines at once; Close releases them (a finalizer does it too, as a safety net only).
//
// The module is libjump.io/jump; bindings/go/make-proxy.sh writes a GOPROXY directory holding it (see
// bindings/go/README.md). Building: cgo finds libjump with pkg-config (jump.pc, installed by `make
// install`). To build against a source tree instead, point PKG_CONFIG_PATH at a jump.pc naming its include/
// and build/lib/ (what bindings/go/run-tests.sh writes to build/go/pkgconfig), or set
// CGO_CFLAGS=-I<tree>/include and CGO_LDFLAGS="-L<tree>/build/lib -Wl,-rpath,<tree>/build/lib" and
// PKG_CONFIG=true.
package jump

/*
#cgo pkg-config: jump
#include "bridge.h"
*/
import "C"

// Version is the library's version string, e.g. "0.1.0" (jump_version).
func Version() string { return C.GoString(C.jump_version()) }

// VersionNumber is the library's version as (major << 16) | (minor << 8) | patch (jump_version_number).
func VersionNumber() uint32 { return uint32(C.jump_version_number()) }

// ABIVersion is the library's ABI version (jump_abi_version); the binding was built for HeaderABIVersion.
func ABIVersion() int32 { return int32(C.jump_abi_version()) }

// HeaderABIVersion is the JUMP_ABI_VERSION of the jump.h this package was compiled against.
const HeaderABIVersion = int32(C.JUMP_ABI_VERSION)
