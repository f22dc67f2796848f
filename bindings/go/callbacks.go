package jump

// The trampolines libjump calls (bridge.h gives it their C types). Each userdata or context is a
// cgo.Handle: C never keeps a Go pointer. They run on libjump's threads (cgo attaches them to the Go
// runtime): completions and events on "jump-events", one at a time, so they only hand their document on.

/*
#include <stdint.h>
#include <stddef.h>
#include <jump.h>
*/
import "C"

import (
	"runtime/cgo"
	"sync/atomic"
	"unsafe"
)

func handleOf(p unsafe.Pointer) cgo.Handle { return cgo.Handle(uintptr(p)) }

//export jumpGoCompletion
func jumpGoCompletion(userdata unsafe.Pointer, json *C.char) {
	p := handleOf(userdata).Value().(*pending)
	if atomic.AddInt32(&p.deliveries, 1) != 1 {
		trace(asyncDuplicate) // libjump promises once; the tests check it
		return
	}
	trace(asyncDelivered)
	p.done <- C.GoString(json) // buffered (1): never blocks libjump's thread
}

//export jumpGoRelease
func jumpGoRelease(userdata unsafe.Pointer) {
	h := handleOf(userdata)
	if r, ok := h.Value().(releaser); ok {
		r.released()
	}
	h.Delete()
}

//export jumpGoEvent
func jumpGoEvent(userdata unsafe.Pointer, json *C.char) {
	handleOf(userdata).Value().(*eventSink).deliver(C.GoString(json))
}

//export jumpGoLog
func jumpGoLog(userdata unsafe.Pointer, json *C.char) {
	handleOf(userdata).Value().(*logSink).deliver(C.GoString(json))
}

//export jumpGoOpenURL
func jumpGoOpenURL(userdata unsafe.Pointer, url *C.char) C.jump_status {
	p := handleOf(userdata).Value().(*pending)
	if p.openURL == nil {
		return C.jump_status(StatusInvalidArgument)
	}
	p.openErr = safely(func() error { return p.openURL(C.GoString(url)) })
	return statusOf(p.openErr, StatusUnsupported)
}

//export jumpGoStorageLoad
func jumpGoStorageLoad(context unsafe.Pointer, key *C.char, sink C.jump_storage_sink, sinkContext unsafe.Pointer) C.jump_status {
	s := handleOf(context).Value().(*storageBox)
	var data []byte
	err := safely(func() (err error) { data, err = s.storage.Load(C.GoString(key)); return })
	if err != nil {
		return statusOf(err, StatusStorage)
	}
	callSink(sink, sinkContext, data)
	return 0
}

//export jumpGoStorageSave
func jumpGoStorageSave(context unsafe.Pointer, key *C.char, data *C.char, length C.size_t) C.jump_status {
	s := handleOf(context).Value().(*storageBox)
	bytes := C.GoBytes(unsafe.Pointer(data), C.int(length))
	return statusOf(safely(func() error { return s.storage.Save(C.GoString(key), bytes) }), StatusStorage)
}

//export jumpGoStorageErase
func jumpGoStorageErase(context unsafe.Pointer, key *C.char) C.jump_status {
	s := handleOf(context).Value().(*storageBox)
	return statusOf(safely(func() error { return s.storage.Erase(C.GoString(key)) }), StatusStorage)
}

//export jumpGoAuthenticate
func jumpGoAuthenticate(userdata unsafe.Pointer, externalUserID *C.char, sink C.jump_storage_sink, sinkContext unsafe.Pointer) C.jump_status {
	a := handleOf(userdata).Value().(*authenticator)
	var answer []byte
	err := safely(func() (err error) { answer, err = a.answer(C.GoString(externalUserID)); return })
	if err != nil {
		return statusOf(err, StatusBadCredentials)
	}
	callSink(sink, sinkContext, answer)
	return 0
}
