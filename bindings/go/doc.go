// Package jump is the Go binding of libjump, the JUMP sign-in and user-record SDK core (libjump.so and
// jump.h, through cgo).
//
// Every call that may reach the network takes a context.Context: cancelling it cancels the request (the
// _async form of the C function and jump_request_cancel; the few calls that have no _async form return
// at once and their C call finishes on its own goroutine). Failures are *Error values: errors.Is(err,
// jump.ErrExpired) tells the status, errors.As(err, &e) gives its Status and Detail (jump_error_last's
// JSON detail). Clients, configs and records may be used from many goroutines at once; Close releases
// them (a finalizer does it too, as a safety net only).
//
// Building: cgo finds libjump with pkg-config (jump.pc, installed by `make install`). To build against a
// source tree instead, point PKG_CONFIG_PATH at a jump.pc naming its include/ and build/lib/ (what
// bindings/go/run-tests.sh writes to build/go/pkgconfig), or set CGO_CFLAGS=-I<tree>/include and
// CGO_LDFLAGS="-L<tree>/build/lib -Wl,-rpath,<tree>/build/lib" and PKG_CONFIG=true.
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
