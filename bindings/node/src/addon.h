/*
 * addon.h - what the files of the Node.js addon share (the .c files of bindings/node/src, one shared object jump.node).
 *
 * The files call downward only, from the module's entry to the arguments (the lowest layer); each file says its
 * layer at its top, and Tests/abi/check_layers.py fails on a call upward (README.md: "Layers"):
 *   4 entry      jump_addon.c  the module (its methods and functions), NativeClient's lifetime and the queue pump
 *   3 work       requests.c    the network calls libjump runs itself (the _async functions, settled through the queue)
 *                work.c        the blocking calls without an _async form, run on a thread of the addon
 *                sync_calls.c  the calls that never wait on the network (state, status, the record, ...)
 *                module.c      the module's own functions (versions, statusStr, decodeSignInToken, setLogCallback, ...)
 *   2 bridge     bridge.c      JavaScript that libjump's threads call (host storage, authenticate, openUrl, the log
 *                bridge_*.c    sink) and the JS thread's guarded calls into libjump; bridge.h is theirs alone
 *   1 arguments  args.c        arguments, errors, strings and the type tags
 *
 * Every napi_status is checked; a wrong argument type throws TypeError; a failing jump_* call throws (or rejects
 * with, for a Promise) {status, detail}, a plain object that lib/from-native.js turns into a JumpError subclass:
 * not an Error, since capturing a stack trace here would double the cost of every failure, and the JumpError
 * has its own (failure() says why it is returned rather than thrown).
 */
#ifndef JUMP_ADDON_H
#define JUMP_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <uv.h>

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "jump.h"

typedef struct bridge bridge;

typedef struct addon_client {
    napi_env env;
    bridge *bridge;      /* the environment's (one reference held for this client) */
    jump_client *client; /* NULL once closed */
    uv_poll_t *poll;     /* NULL once closed; its memory is freed by the uv_close callback */
    napi_ref self;       /* the JS object: weak, strong while requests are pending (set_active) or work runs */
    int active;          /* the poll is ref'ed and self strong: a request is pending */
    int hook;            /* the env cleanup hook is registered */
    int armed;           /* the client's storage is JavaScript: its calls go through a helper (guarded) */
    struct bound_cell *bound; /* what the object's own isSignedIn reaches it through (jump_addon.c) */
    /* Guarded by the bridge's lock: threads of work.c finish without the JS thread when the env is gone. */
    int busy;            /* calls running on threads of work.c (each holds self strongly) */
    jump_client *doomed; /* closed while busy: freed by the last of those calls */
    int orphaned;        /* finalized while busy (environment teardown): the last call frees this struct */
} addon_client;

/* ---- args.c -------------------------------------------------------------------------------------------- */

/* Type tags: napi_unwrap of an object wrapped by another addon, or an external from elsewhere, would hand us a
 * pointer of another type; the tags make such misuse a TypeError instead. */
extern const napi_type_tag CLIENT_TAG;
extern const napi_type_tag REQUEST_TAG;

#define MAX_ARGS 6
/* The names of a method's arguments, for TypeErrors: NAMES("provider", "token"). */
#define NAMES(...) ((const char *const[]){__VA_ARGS__})

/* A method's receiver and arguments, read by take_args. */
typedef struct call_args {
    addon_client *c;
    napi_value argv[MAX_ARGS];
    char *s[MAX_ARGS];     /* the string arguments by position (NULL for null/undefined or a non-string one) */
    int64_t n[MAX_ARGS];   /* the integer arguments by position */
    const char *format;
} call_args;

/* Reads the receiver and the arguments as format says, one letter per argument: s a string, o a string or
 * null/undefined (NULL), i an integer (a number), _ any value (the method reads argv itself). Strings are
 * copied; free_args wipes them before freeing, since most calls take a password, token or key. Returns 0 after
 * throwing (TypeError, or a receiver that is not a NativeClient). */
int take_args(napi_env env, napi_callback_info info, const char *format, const char *const *names, call_args *a);
void free_args(call_args *a);

/* The receiver's addon_client (a TypeError, and NULL, for another object) and up to max arguments. */
addon_client *receiver(napi_env env, napi_callback_info info, size_t max, napi_value *argv);
char *string_arg(napi_env env, napi_value value, const char *name);
void free_secret(char *text);

/* {status, detail}: what a failed jump_* call returns, throws or rejects with (NULL when N-API cannot make it). */
napi_value status_error(napi_env env, jump_status status, const char *detail);
/* Something N-API itself refused: throws unless an exception is already pending. */
void throw_napi(napi_env env, const char *what);
napi_value undefined(napi_env env);
/* A string libjump returned (freed here) as a JS string; NULL text is JS null. take_secret wipes it first. */
napi_value take_string(napi_env env, char *text);
napi_value take_secret(napi_env env, char *text);

/* ---- bridge.c ------------------------------------------------------------------------------------------ */

/* The environment's bridge (made at module init; NULL only if that failed). */
bridge *bridge_of(napi_env env);
int bridge_init(napi_env env);
void bridge_ref(bridge *b);
void bridge_unref(bridge *b);
pthread_mutex_t *bridge_lock(bridge *b);

/* Every jump_* call the JS thread makes on a client goes through guarded(). While nothing can make a thread of
 * libjump wait for JavaScript, that is fn(ctx), right here. While something can (the client's storage is
 * JavaScript, c->armed; an identify or loopback sign-in is in flight, bridge_arm), fn runs on a helper
 * thread of the bridge, and the JS thread, waiting for it, runs the host calls that come meanwhile. So a libjump
 * thread holding a client's lock while it waits for JavaScript (a host storage's save) is answered, and the JS
 * thread never blocks on that lock itself, which would deadlock. fn's failure detail is kept for failure(). */
typedef jump_status (*guarded_fn)(void *ctx);
jump_status guarded(addon_client *c, guarded_fn fn, void *ctx);
/* The same where no JavaScript may run (finalizers, environment teardown): fn(ctx) right here, the JS thread
 * counted as inside libjump, so that a thread waiting for it gives up (JUMP_E_BUSY) rather than wait forever. */
jump_status guarded_quiet(addon_client *c, guarded_fn fn, void *ctx);
/* (bridge_guard.c) status_error with the failed call's detail: jump_error_last(), read at once (it is the calling thread's and
 * the next jump_* call replaces it), or the helper's (guarded). A method returns it rather than throwing, since
 * an exception crossing from C++ costs V8 more (some 3 us) than the rest of a failure together; lib/from-native.js's
 * call() throws the JumpError. NULL, with an exception pending, when N-API cannot make it. */
napi_value failure(napi_env env, jump_status status);
/* jump_client_free(client) of c, guarded (quiet: guarded_quiet); then c's storage no longer counts. */
void free_jump_client(addon_client *c, jump_client *client, int quiet);

/* JS thread: an identify or loopback sign-in, which makes a libjump thread wait for JavaScript, begins (+1) or
 * ends (-1). Counted for every client of the environment: while it lasts, a call of another client might
 * need what the waiting thread holds. A JavaScript storage counts for its own client only (c->armed): libjump
 * keeps one per client and holds that client's locks alone while it waits. */
void bridge_arm(bridge *b, int delta);

/* Host storage whose functions are the JS handler id (lib/storage.js): installs the trampolines in config.
 * The handler is released (dispatch "release") once libjump drops the storage. */
jump_status bridge_set_storage(bridge *b, jump_config *config, uint32_t id);
/* identify's authenticate and the loopback's openUrl, calling the JS handler id and waiting for its answer. */
jump_status bridge_authenticate(void *userdata, const char *external_user_id, jump_storage_sink sink, void *sink_context);
jump_status bridge_open_url(void *userdata, const char *url);
/* JS thread: the userdata of those two for handler id. It holds the bridge and arms it (bridge_arm) until
 * host_userdata_free (any thread) releases the handler and both. */
void *host_userdata_new(bridge *b, uint32_t id);
void host_userdata_free(void *userdata);
/* The process-wide log callback to the JS handler id (0: none), for lines at min_level or above. */
jump_status bridge_set_log(bridge *b, uint32_t id, int min_level);
/* answerHostCall(token, value): the late answer of a handler that returned undefined. */
napi_value bridge_answer(napi_env env, napi_value token, napi_value value);
/* setHostDispatcher(fn): the JS function that runs every host call. */
napi_value bridge_set_dispatcher(napi_env env, napi_value fn);

/* What waits in the bridge's queue for the JS thread: a host call, a log line, a release, a finished work. */
typedef enum item_kind { ITEM_CALL, ITEM_LOG, ITEM_RELEASE, ITEM_WORK } item_kind;
typedef struct bridge_item bridge_item;
/* A finished work's two ends: on the JS thread, or without JavaScript once the environment is gone. */
typedef void (*work_complete_fn)(napi_env env, bridge_item *item);
typedef void (*work_orphan_fn)(bridge_item *item);
struct bridge_item {
    bridge_item *next;
    item_kind kind;
    int queued; /* in the queue, not yet taken by the JS thread (host calls: a waiting thread may take it back) */
    work_complete_fn complete; /* ITEM_WORK only */
    work_orphan_fn orphan;     /* ITEM_WORK only */
};

/* A finished call of work.c (item, its first member), posted to the JS thread, where the bridge runs complete;
 * or orphan, when the environment goes away first. The bridge knows a work by these two functions alone, so it
 * calls nothing of work.c, a layer above it. 0 when the env is gone (the caller runs orphan itself). */
int bridge_post_work(bridge *b, bridge_item *item, work_complete_fn complete, work_orphan_fn orphan);
/* JS thread: the work threads count (the bridge keeps the loop alive while one runs). */
void bridge_working(bridge *b, napi_env env, int delta);

/* ---- the methods: requests.c, work.c, sync_calls.c, module.c ------------------------------------------------ */

napi_value client_sign_in(napi_env, napi_callback_info);                  /* requests.c */
napi_value client_register_traditional(napi_env, napi_callback_info);
napi_value client_sync(napi_env, napi_callback_info);
napi_value client_fetch_record(napi_env, napi_callback_info);
napi_value client_social_sign_in_native(napi_env, napi_callback_info);
napi_value client_register_social(napi_env, napi_callback_info);
napi_value client_sign_in_merge(napi_env, napi_callback_info);
napi_value client_sign_in_with_token(napi_env, napi_callback_info);
napi_value client_credentials(napi_env, napi_callback_info);
napi_value client_update_profile(napi_env, napi_callback_info);
napi_value client_change_password(napi_env, napi_callback_info);
napi_value client_forgot_password(napi_env, napi_callback_info);
napi_value client_resend_verification_email(napi_env, napi_callback_info);
napi_value client_social_complete(napi_env, napi_callback_info);
napi_value client_social_sign_in_loopback(napi_env, napi_callback_info);
napi_value client_unlink_account(napi_env, napi_callback_info);
napi_value client_share(napi_env, napi_callback_info);
napi_value client_switch_account(napi_env, napi_callback_info);
napi_value client_cancel(napi_env, napi_callback_info);
napi_value client_sign_out(napi_env, napi_callback_info);                 /* work.c */
napi_value client_load_flow(napi_env, napi_callback_info);
napi_value client_load_schema(napi_env, napi_callback_info);
napi_value client_load_engage_config(napi_env, napi_callback_info);
napi_value client_providers(napi_env, napi_callback_info);
napi_value client_social_begin(napi_env, napi_callback_info);
napi_value client_share_content(napi_env, napi_callback_info);
napi_value client_access_token(napi_env, napi_callback_info);
napi_value client_refresh_access_token(napi_env, napi_callback_info);
napi_value client_request(napi_env, napi_callback_info);
napi_value client_identify_external_user(napi_env, napi_callback_info);
napi_value client_state(napi_env, napi_callback_info);                    /* sync_calls.c */
napi_value client_status(napi_env, napi_callback_info);
napi_value client_is_signed_in(napi_env, napi_callback_info);
napi_value client_has_valid_credentials(napi_env, napi_callback_info);
napi_value client_use_api_key(napi_env, napi_callback_info);
napi_value client_use_web_login(napi_env, napi_callback_info);
napi_value client_linked_profiles(napi_env, napi_callback_info);
napi_value client_set_token_url(napi_env, napi_callback_info);
napi_value client_restore(napi_env, napi_callback_info);
napi_value client_erase_quarantine(napi_env, napi_callback_info);
napi_value client_accounts(napi_env, napi_callback_info);
napi_value client_remove_account(napi_env, napi_callback_info);
napi_value client_record_get(napi_env, napi_callback_info);
napi_value client_record_set(napi_env, napi_callback_info);
napi_value client_record_clear(napi_env, napi_callback_info);
napi_value client_record_changes(napi_env, napi_callback_info);
napi_value client_record_discard(napi_env, napi_callback_info);
napi_value client_record_get_string(napi_env, napi_callback_info);
napi_value client_record_get_int(napi_env, napi_callback_info);
napi_value client_record_get_number(napi_env, napi_callback_info);
napi_value client_record_get_bool(napi_env, napi_callback_info);
napi_value client_record_set_string(napi_env, napi_callback_info);
napi_value client_record_append(napi_env, napi_callback_info);
napi_value client_record_remove(napi_env, napi_callback_info);
napi_value client_record_replace_plural(napi_env, napi_callback_info);
napi_value client_record_element_count(napi_env, napi_callback_info);
napi_value client_record_element_paths(napi_env, napi_callback_info);
napi_value client_record_revert(napi_env, napi_callback_info);
napi_value module_version_number(napi_env, napi_callback_info);           /* module.c */
napi_value module_abi_version(napi_env, napi_callback_info);
napi_value module_status_str(napi_env, napi_callback_info);
napi_value module_decode_sign_in_token(napi_env, napi_callback_info);
napi_value module_effective_config(napi_env, napi_callback_info);
napi_value module_set_log_callback(napi_env, napi_callback_info);
napi_value module_set_host_dispatcher(napi_env, napi_callback_info);
napi_value module_answer_host_call(napi_env, napi_callback_info);
napi_value module_noop(napi_env, napi_callback_info);

/* isSignedIn bound to one NativeClient (sync_calls.c), shared by the object and the function: the object's
 * finalizer empties it (c = NULL) and drops its reference. */
typedef struct bound_cell {
    addon_client *c;
    int refs;
} bound_cell;
void drop_cell(bound_cell *cell);
/* Gives self its own isSignedIn; failing leaves the prototype's, which answers the same, only slower. */
void bind_hot_methods(napi_env env, napi_value self, addon_client *c);

/* ---- jump_addon.c -------------------------------------------------------------------------------------- */

/* Stops the poll and frees the client, or leaves it to the last running work (c->busy). quiet: where no
 * JavaScript may run (guarded_quiet). */
void shut(addon_client *c, int quiet);

#endif
