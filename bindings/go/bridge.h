/* bridge.h - what the Go files' cgo preambles share: jump.h, the Go trampolines (exported by callbacks.go)
 * under the C types libjump calls them through, and a few helpers Go cannot write itself (calling a C
 * function pointer, turning a cgo.Handle into a void *). Not included by callbacks.go: a file with //export
 * may hold declarations only, and _cgo_export.h declares the trampolines there. */
#ifndef JUMP_GO_BRIDGE_H
#define JUMP_GO_BRIDGE_H
#include <stdint.h>
#include <stdlib.h>
#include <jump.h>

extern void jumpGoCompletion(void *userdata, char *json);
extern void jumpGoRelease(void *userdata);
extern void jumpGoEvent(void *userdata, char *json);
extern void jumpGoLog(void *userdata, char *json);
extern jump_status jumpGoOpenURL(void *userdata, char *url);
extern jump_status jumpGoStorageLoad(void *context, char *key, jump_storage_sink sink, void *sink_context);
extern jump_status jumpGoStorageSave(void *context, char *key, char *data, size_t length);
extern jump_status jumpGoStorageErase(void *context, char *key);
extern jump_status jumpGoAuthenticate(void *userdata, char *external_user_id, jump_storage_sink sink,
                                      void *sink_context);

/* A cgo.Handle travels as userdata: an integer, never a Go pointer, so C keeps no Go memory. */
static inline void *jump_go_userdata(uintptr_t handle) { return (void *)handle; }

/* The trampolines as the function pointer types of jump.h (they differ only in const). */
static inline jump_callback jump_go_completion(void) { return (jump_callback)jumpGoCompletion; }
static inline jump_free_fn jump_go_release(void) { return (jump_free_fn)jumpGoRelease; }
static inline jump_callback jump_go_event(void) { return (jump_callback)jumpGoEvent; }
static inline jump_callback jump_go_log(void) { return (jump_callback)jumpGoLog; }
static inline jump_open_url_fn jump_go_open_url(void) { return (jump_open_url_fn)jumpGoOpenURL; }
static inline jump_storage_load_fn jump_go_storage_load(void) { return (jump_storage_load_fn)jumpGoStorageLoad; }
static inline jump_storage_save_fn jump_go_storage_save(void) { return (jump_storage_save_fn)jumpGoStorageSave; }
static inline jump_storage_erase_fn jump_go_storage_erase(void) { return (jump_storage_erase_fn)jumpGoStorageErase; }
static inline jump_authenticate_fn jump_go_authenticate(void) { return (jump_authenticate_fn)jumpGoAuthenticate; }

/* Go cannot call a C function pointer: the sink libjump hands to a load or authenticate callback. */
static inline void jump_go_call_sink(jump_storage_sink sink, void *context, const char *data, size_t length) {
    sink(context, data, length);
}

#endif
