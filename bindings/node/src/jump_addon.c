/*
 * jump_addon.c - the Node.js addon of libjump: a thin N-API layer under bindings/node/index.js.
 *
 * One NativeClient wraps one jump_client in queue mode (jump_client_use_event_queue). Completions and events
 * wait in libjump's queue; a uv_poll_t on the queue's fd (jump_client_event_fd, readable exactly while
 * something waits) wakes the Node event loop, which pumps jump_client_next_event on the JS thread and hands
 * the documents, as JSON text, to the object's "ondocument" function. So no JavaScript ever runs on a libjump
 * thread and no thread-safe function is needed. The one blocking call without an _async form,
 * jump_client_sign_out, runs as napi_async_work on libuv's thread pool (see client_sign_out).
 *
 * Rules kept throughout: every napi_status is checked (a failing N-API call throws or is ignored, it never
 * crashes); a wrong argument type throws TypeError; a failing jump_* call throws an Error with "status" (the
 * jump_status) and "detail" (jump_error_last() JSON text), which index.js turns into a JumpError subclass.
 * After close() the client pointer is NULL and libjump itself reports JUMP_E_INVALID_HANDLE.
 *
 * N-API version 8 only (type tags): one build serves every Node.js with N-API >= 8. libjump is linked
 * (-ljump, rpath $ORIGIN/../lib), so the header's prototypes are checked by the compiler.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <uv.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jump.h"

/* Type tags: napi_unwrap of an object wrapped by another addon, or an external from elsewhere, would hand us
 * a pointer of another type; the tags make such misuse a TypeError instead. */
static const napi_type_tag CLIENT_TAG = {0x6a756d70636c6e74ULL, 0x4e6f646541646f6eULL};
static const napi_type_tag REQUEST_TAG = {0x6a756d7072657174ULL, 0x4e6f646541646f6eULL};

/* At most this many documents per wake-up; the poll is level-triggered, so the rest come on the next turn
 * and timers and I/O are not starved by a flood of events. */
#define PUMP_BATCH 256

typedef struct addon_client {
    napi_env env;
    jump_client *client; /* NULL once closed */
    uv_poll_t *poll;     /* NULL once closed; its memory is freed by the uv_close callback */
    napi_ref self;       /* the JS object: weak, strong only while requests are pending (see set_active) */
    int active;          /* the poll is ref'ed and self strong: a request is pending */
    int hook;            /* the env cleanup hook is registered */
    int busy;            /* sign-outs running on libuv's thread pool (each holds self strongly) */
    jump_client *doomed; /* closed while busy: freed by the last sign-out's completion */
    int orphaned;        /* finalized while busy (environment teardown): the last completion frees c */
} addon_client;

/* ---- errors ------------------------------------------------------------------------------------------- */

/* Throws an Error for a failed jump_* call. jump_error_last() is thread-local and read right away, before any
 * other jump_* call on this thread can replace it. */
static napi_value status_error(napi_env env, jump_status status, const char *detail);

static void throw_status(napi_env env, jump_status status) {
    napi_value error = status_error(env, status, jump_error_last());
    if (error != NULL) napi_throw(env, error);
}

/* An Error for a failed status: message jump_status_str(status), .status, .detail (JSON text); NULL when N-API
 * cannot make one. */
static napi_value status_error(napi_env env, jump_status status, const char *detail) {
    napi_value message, error, code, text;
    if (napi_create_string_utf8(env, jump_status_str(status), NAPI_AUTO_LENGTH, &message) != napi_ok) return NULL;
    if (napi_create_error(env, NULL, message, &error) != napi_ok) return NULL;
    if (napi_create_int32(env, (int32_t)status, &code) == napi_ok)
        napi_set_named_property(env, error, "status", code);
    if (napi_create_string_utf8(env, detail ? detail : "{}", NAPI_AUTO_LENGTH, &text) == napi_ok)
        napi_set_named_property(env, error, "detail", text);
    return error;
}

/* Something N-API itself refused (out of memory, a pending exception): throw unless something already is. */
static void throw_napi(napi_env env, const char *what) {
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return;
    napi_throw_error(env, "ERR_JUMP_NAPI", what);
}

/* ---- arguments ---------------------------------------------------------------------------------------- */

/* A JS string argument as a malloc'ed UTF-8 copy (the caller frees it). Not a string, or one holding NUL
 * (which C would silently cut short): TypeError, returns NULL. */
static char *string_arg(napi_env env, napi_value value, const char *name) {
    napi_valuetype type;
    size_t length = 0, copied = 0;
    char *text;
    if (napi_typeof(env, value, &type) != napi_ok || type != napi_string) {
        char message[96];
        snprintf(message, sizeof message, "%s must be a string", name);
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", message);
        return NULL;
    }
    if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) {
        throw_napi(env, "cannot read a string argument");
        return NULL;
    }
    text = malloc(length + 1);
    if (text == NULL) {
        throw_napi(env, "out of memory");
        return NULL;
    }
    if (napi_get_value_string_utf8(env, value, text, length + 1, &copied) != napi_ok) {
        free(text);
        throw_napi(env, "cannot read a string argument");
        return NULL;
    }
    if (strlen(text) != copied) {
        char message[96];
        free(text);
        snprintf(message, sizeof message, "%s must not contain NUL characters", name);
        napi_throw_type_error(env, "ERR_INVALID_ARG_VALUE", message);
        return NULL;
    }
    return text;
}

/* The receiver's addon_client and up to max arguments (missing ones are undefined). A receiver that is not a
 * NativeClient (a method called on another object) is a TypeError. */
static addon_client *receiver(napi_env env, napi_callback_info info, size_t max, napi_value *argv) {
    size_t argc = max;
    napi_value self;
    bool tagged = false;
    void *data = NULL;
    if (napi_get_cb_info(env, info, &argc, argv, &self, NULL) != napi_ok) {
        throw_napi(env, "cannot read the call's arguments");
        return NULL;
    }
    if (napi_check_object_type_tag(env, self, &CLIENT_TAG, &tagged) != napi_ok || !tagged ||
        napi_unwrap(env, self, &data) != napi_ok || data == NULL) {
        napi_throw_type_error(env, "ERR_INVALID_THIS", "not a NativeClient");
        return NULL;
    }
    return data;
}

/* Takes a string libjump returned (jump_string_free) into a JS string. */
static napi_value take_string(napi_env env, char *text) {
    napi_value result = NULL;
    if (napi_create_string_utf8(env, text ? text : "null", NAPI_AUTO_LENGTH, &result) != napi_ok) {
        result = NULL;
        throw_napi(env, "cannot create a string");
    }
    jump_string_free(text);
    return result;
}

static napi_value undefined(napi_env env) {
    napi_value result = NULL;
    napi_get_undefined(env, &result);
    return result;
}

/* ---- the poll: pumping the queue on the loop thread ---------------------------------------------------- */

static void free_poll(uv_handle_t *handle) { free(handle); }

/* Stops the poll and frees the client. Safe to repeat; no napi call, so it also serves the finalizer and the
 * env cleanup hook. The poll stops before jump_client_free closes the fd: libuv must never watch a closed
 * (and maybe reused) descriptor. */
static void shut(addon_client *c) {
    if (c->poll != NULL) {
        uv_poll_stop(c->poll);
        uv_close((uv_handle_t *)c->poll, free_poll);
        c->poll = NULL;
    }
    if (c->client != NULL) {
        /* A sign-out still running on the thread pool uses the client: its completion frees it instead. */
        if (c->busy > 0) c->doomed = c->client;
        else jump_client_free(c->client); /* in-flight requests are cancelled; index.js rejects their promises */
        c->client = NULL;
    }
}

static void on_readable(uv_poll_t *poll, int status, int events) {
    addon_client *c = poll->data;
    napi_env env = c->env;
    napi_handle_scope scope;
    napi_value self = NULL, handler = NULL, batch = NULL, result;
    napi_valuetype type = napi_undefined;
    uint32_t count = 0;
    (void)status;
    (void)events;
    if (napi_open_handle_scope(env, &scope) != napi_ok) return;
    if (napi_get_reference_value(env, c->self, &self) != napi_ok || self == NULL ||
        napi_get_named_property(env, self, "ondocument", &handler) != napi_ok ||
        napi_typeof(env, handler, &type) != napi_ok || napi_create_array(env, &batch) != napi_ok)
        type = napi_undefined;
    /* Drain even without a handler: the fd stays readable while documents wait, and would spin the loop. */
    while (count < PUMP_BATCH && c->client != NULL) {
        char *text = NULL;
        napi_value item;
        if (jump_client_next_event(c->client, &text) != JUMP_OK) break; /* JUMP_E_NOT_FOUND: drained */
        if (type == napi_function && napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &item) == napi_ok &&
            napi_set_element(env, batch, count, item) == napi_ok)
            count++;
        jump_string_free(text);
    }
    /* napi_make_callback, not napi_call_function: it opens a callback scope, so the promises resolved here run
     * their continuations (microtasks, nextTicks) when it returns, as for any I/O callback. */
    if (count > 0 && napi_make_callback(env, NULL, self, handler, 1, &batch, &result) == napi_pending_exception) {
        napi_value error;
        if (napi_get_and_clear_last_exception(env, &error) == napi_ok) napi_fatal_exception(env, error);
    }
    napi_close_handle_scope(env, scope);
}

/* ---- lifetime ------------------------------------------------------------------------------------------ */

/* The environment is going away (process exit, worker end) while the client is open: stop the poll while the
 * loop still exists. The finalizer, which may run later, then finds it shut. */
static void cleanup_hook(void *arg) {
    addon_client *c = arg;
    c->hook = 0;
    shut(c);
}

static void finalize(napi_env env, void *data, void *hint) {
    addon_client *c = data;
    (void)hint;
    if (c->hook) napi_remove_env_cleanup_hook(env, cleanup_hook, c);
    c->hook = 0;
    shut(c);
    if (c->self != NULL) napi_delete_reference(env, c->self);
    c->self = NULL;
    /* Only at environment teardown (a running sign-out holds self strongly otherwise): its completion, which
     * Node still runs, frees c. */
    if (c->busy > 0) c->orphaned = 1;
    else free(c);
}

/* new NativeClient(configJson) */
static napi_value client_new(napi_env env, napi_callback_info info) {
    size_t argc = 1;
    napi_value argv[1], self, target;
    addon_client *c;
    jump_config *config = NULL;
    jump_status status;
    uv_loop_t *loop = NULL;
    char *json;
    int fd = -1;
    if (napi_get_cb_info(env, info, &argc, argv, &self, NULL) != napi_ok) {
        throw_napi(env, "cannot read the call's arguments");
        return NULL;
    }
    if (napi_get_new_target(env, info, &target) != napi_ok || target == NULL) {
        napi_throw_type_error(env, "ERR_CONSTRUCT_CALL_REQUIRED", "NativeClient must be called with new");
        return NULL;
    }
    if (argc < 1) argv[0] = undefined(env);
    if ((json = string_arg(env, argv[0], "config")) == NULL) return NULL;
    if ((c = calloc(1, sizeof *c)) == NULL) {
        free(json);
        throw_napi(env, "out of memory");
        return NULL;
    }
    c->env = env;
    status = jump_config_from_json(json, &config);
    free(json);
    if (status == JUMP_OK) {
        status = jump_client_new(config, &c->client);
        jump_config_free(config);
    }
    if (status == JUMP_OK) status = jump_client_use_event_queue(c->client, 1);
    if (status == JUMP_OK) status = jump_client_event_fd(c->client, &fd);
    if (status != JUMP_OK) {
        throw_status(env, status); /* before jump_client_free, which may replace the thread's last error */
        shut(c);
        free(c);
        return NULL;
    }
    if (napi_get_uv_event_loop(env, &loop) != napi_ok || (c->poll = calloc(1, sizeof *c->poll)) == NULL) {
        shut(c);
        free(c);
        throw_napi(env, "no event loop");
        return NULL;
    }
    if (uv_poll_init(loop, c->poll, fd) != 0) {
        free(c->poll);
        c->poll = NULL;
        shut(c);
        free(c);
        throw_napi(env, "cannot poll the client's event fd");
        return NULL;
    }
    c->poll->data = c;
    /* Watching always, so events reach listeners whenever the loop runs; unref'ed so an idle client does not
     * keep the process alive (set_active refs it while a request is pending). */
    uv_poll_start(c->poll, UV_READABLE, on_readable);
    uv_unref((uv_handle_t *)c->poll);
    if (napi_wrap(env, self, c, finalize, NULL, &c->self) != napi_ok) {
        shut(c);
        free(c);
        throw_napi(env, "cannot wrap the client");
        return NULL;
    }
    /* From here the finalizer owns c. */
    if (napi_type_tag_object(env, self, &CLIENT_TAG) != napi_ok) {
        throw_napi(env, "cannot tag the client");
        return NULL;
    }
    if (napi_add_env_cleanup_hook(env, cleanup_hook, c) == napi_ok) c->hook = 1;
    return self;
}

/* setActive(bool): a request is pending (true) or none is (false). While one is, the poll keeps the loop alive
 * and the JS object is held strongly, so its ondocument (and through it the promises) cannot be collected
 * before the completion arrives; otherwise the object stays collectable and its finalizer frees the client. */
static napi_value client_set_active(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    bool on = false;
    uint32_t refs;
    addon_client *c = receiver(env, info, 1, argv);
    if (c == NULL) return NULL;
    if (napi_get_value_bool(env, argv[0], &on) != napi_ok) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "active must be a boolean");
        return NULL;
    }
    if (c->poll == NULL || (on ? 1 : 0) == c->active) return undefined(env);
    if (on) {
        if (napi_reference_ref(env, c->self, &refs) != napi_ok) {
            throw_napi(env, "cannot hold the client");
            return NULL;
        }
        uv_ref((uv_handle_t *)c->poll);
    } else {
        if (napi_reference_unref(env, c->self, &refs) != napi_ok) {
            throw_napi(env, "cannot release the client");
            return NULL;
        }
        uv_unref((uv_handle_t *)c->poll);
    }
    c->active = on ? 1 : 0;
    return undefined(env);
}

/* close(): frees the client now (idempotent). Safe inside ondocument: the pump re-checks c->client. */
static napi_value client_close(napi_env env, napi_callback_info info) {
    uint32_t refs;
    addon_client *c = receiver(env, info, 0, NULL);
    if (c == NULL) return NULL;
    if (c->active) {
        napi_reference_unref(env, c->self, &refs); /* failing only leaks the object; nothing to throw for */
        c->active = 0;
    }
    if (c->hook) {
        napi_remove_env_cleanup_hook(env, cleanup_hook, c);
        c->hook = 0;
    }
    shut(c);
    return undefined(env);
}

/* ---- requests ------------------------------------------------------------------------------------------ */

static void free_request(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    jump_request_free(data); /* the operation goes on if still running; only the handle goes */
}

/* A started request as {id, handle}: id is the completion's "request_id"; handle is a tagged external that
 * frees the jump_request when collected. A start that failed throws (its late completion is ignored). */
static napi_value request_result(napi_env env, jump_status status, jump_request *request) {
    napi_value result, handle, id;
    uint64_t value = 0;
    jump_status id_status;
    if (status != JUMP_OK) {
        throw_status(env, status);
        jump_request_free(request);
        return NULL;
    }
    if ((id_status = jump_request_id(request, &value)) != JUMP_OK) {
        throw_status(env, id_status);
        jump_request_free(request);
        return NULL;
    }
    if (napi_create_external(env, request, free_request, NULL, &handle) != napi_ok) {
        jump_request_free(request);
        throw_napi(env, "cannot create a request handle");
        return NULL;
    }
    /* Ids are counters far below 2^53, so a double holds them exactly, as JSON.parse's "request_id" does. */
    if (napi_type_tag_object(env, handle, &REQUEST_TAG) != napi_ok || napi_create_object(env, &result) != napi_ok ||
        napi_create_double(env, (double)value, &id) != napi_ok ||
        napi_set_named_property(env, result, "id", id) != napi_ok ||
        napi_set_named_property(env, result, "handle", handle) != napi_ok) {
        throw_napi(env, "cannot describe a request");
        return NULL;
    }
    return result;
}

static void free_secret(char *text) {
    if (text == NULL) return;
    memset(text, 0, strlen(text)); /* a secret: do not leave it in freed memory */
    free(text);
}

/* The _async calls that take two strings (one of them a secret), and those that take none. */
typedef jump_status (*two_string_async)(jump_client *, const char *, const char *, jump_callback, void *,
                                        jump_free_fn, jump_request **);
typedef jump_status (*no_argument_async)(jump_client *, jump_callback, void *, jump_free_fn, jump_request **);

/* Calls `call` with the method's two string arguments (named first and second in a TypeError); both are wiped
 * after (each call here takes a password or a token). */
static napi_value two_string_request(napi_env env, napi_callback_info info, const char *first_name,
                                     const char *second_name, two_string_async call) {
    napi_value argv[2];
    jump_request *request = NULL;
    jump_status status;
    char *first, *second;
    addon_client *c = receiver(env, info, 2, argv);
    if (c == NULL) return NULL;
    if ((first = string_arg(env, argv[0], first_name)) == NULL) return NULL;
    if ((second = string_arg(env, argv[1], second_name)) == NULL) {
        free_secret(first);
        return NULL;
    }
    status = call(c->client, first, second, NULL, NULL, NULL, &request);
    free_secret(first);
    free_secret(second);
    return request_result(env, status, request);
}

static napi_value no_argument_request(napi_env env, napi_callback_info info, no_argument_async call) {
    jump_request *request = NULL;
    jump_status status;
    addon_client *c = receiver(env, info, 0, NULL);
    if (c == NULL) return NULL;
    /* Two statements: C leaves the order of argument evaluation open, and request must be read after. */
    status = call(c->client, NULL, NULL, NULL, &request);
    return request_result(env, status, request);
}

/* signIn(user, password) -> {id, handle} */
static napi_value client_sign_in(napi_env env, napi_callback_info info) {
    return two_string_request(env, info, "user", "password", jump_client_sign_in_async);
}

/* registerTraditional(attributesJson, password) -> {id, handle} */
static napi_value client_register_traditional(napi_env env, napi_callback_info info) {
    return two_string_request(env, info, "attributes", "password", jump_client_register_traditional_async);
}

/* sync() -> {id, handle} */
static napi_value client_sync(napi_env env, napi_callback_info info) {
    return no_argument_request(env, info, jump_client_sync_async);
}

/* fetchRecord() -> {id, handle} */
static napi_value client_fetch_record(napi_env env, napi_callback_info info) {
    return no_argument_request(env, info, jump_client_fetch_record_async);
}

/* A string argument that may also be null or undefined (then *out is NULL). Returns 0 after a TypeError. */
static int optional_string_arg(napi_env env, napi_value value, const char *name, char **out) {
    napi_valuetype type;
    *out = NULL;
    if (napi_typeof(env, value, &type) == napi_ok && (type == napi_null || type == napi_undefined)) return 1;
    return (*out = string_arg(env, value, name)) != NULL;
}

/* socialSignInNative(provider, token, tokenSecret|null, optionsJson|null) -> {id, handle} */
static napi_value client_social_sign_in_native(napi_env env, napi_callback_info info) {
    napi_value argv[4];
    jump_request *request = NULL;
    jump_status status;
    char *provider = NULL, *token = NULL, *secret = NULL, *options = NULL;
    addon_client *c = receiver(env, info, 4, argv);
    if (c == NULL) return NULL;
    if ((provider = string_arg(env, argv[0], "provider")) == NULL) return NULL;
    if ((token = string_arg(env, argv[1], "token")) == NULL || !optional_string_arg(env, argv[2], "tokenSecret", &secret) ||
        !optional_string_arg(env, argv[3], "options", &options)) {
        free(provider);
        free_secret(token);
        free_secret(secret);
        return NULL;
    }
    status = jump_client_social_sign_in_native_async(c->client, provider, token, secret, options, NULL, NULL, NULL,
                                                     &request);
    free(provider);
    free_secret(token);
    free_secret(secret);
    free_secret(options); /* may hold a merge token */
    return request_result(env, status, request);
}

/* registerSocial(socialRegistrationToken, attributesJson) -> {id, handle} */
static napi_value client_register_social(napi_env env, napi_callback_info info) {
    return two_string_request(env, info, "socialRegistrationToken", "attributes", jump_client_register_social_async);
}

/* signInMerge(user, password, mergeToken) -> {id, handle} */
static napi_value client_sign_in_merge(napi_env env, napi_callback_info info) {
    napi_value argv[3];
    jump_request *request = NULL;
    jump_status status;
    char *user, *password = NULL, *merge = NULL;
    addon_client *c = receiver(env, info, 3, argv);
    if (c == NULL) return NULL;
    if ((user = string_arg(env, argv[0], "user")) == NULL) return NULL;
    if ((password = string_arg(env, argv[1], "password")) == NULL ||
        (merge = string_arg(env, argv[2], "mergeToken")) == NULL) {
        free(user);
        free_secret(password);
        return NULL;
    }
    status = jump_client_sign_in_merge_async(c->client, user, password, merge, NULL, NULL, NULL, &request);
    free(user);
    free_secret(password);
    free_secret(merge);
    return request_result(env, status, request);
}

/* signInWithToken(signInToken) -> {id, handle} */
static napi_value client_sign_in_with_token(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    jump_request *request = NULL;
    jump_status status;
    char *token;
    addon_client *c = receiver(env, info, 1, argv);
    if (c == NULL) return NULL;
    if ((token = string_arg(env, argv[0], "signInToken")) == NULL) return NULL;
    status = jump_client_sign_in_with_token_async(c->client, token, NULL, NULL, NULL, &request);
    free_secret(token);
    return request_result(env, status, request);
}

/* cancel(handle): asks the request to stop; its completion then says JUMP_E_CANCELLED (unless it finished). */
static napi_value client_cancel(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    bool tagged = false;
    void *request = NULL;
    jump_status status;
    addon_client *c = receiver(env, info, 1, argv);
    if (c == NULL) return NULL;
    if (napi_check_object_type_tag(env, argv[0], &REQUEST_TAG, &tagged) != napi_ok || !tagged ||
        napi_get_value_external(env, argv[0], &request) != napi_ok) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "not a request handle");
        return NULL;
    }
    status = jump_request_cancel(request);
    if (status != JUMP_OK) throw_status(env, status);
    return status == JUMP_OK ? undefined(env) : NULL;
}

/* ---- synchronous calls --------------------------------------------------------------------------------- */

/* signOut() -> Promise<undefined>: jump_client_sign_out (memory and storage, then the best-effort token revoke,
 * which may take a request timeout) runs on libuv's thread pool; the Promise settles on the loop thread. The
 * client stays usable meanwhile (libjump is thread-safe; the session is gone from memory at once). While it
 * runs, self is held strongly (no finalizer) and close() defers jump_client_free to the completion. */
typedef struct sign_out_work {
    addon_client *c;
    jump_client *client; /* read on the loop thread at the start: close() may clear c->client meanwhile */
    napi_async_work work;
    napi_deferred deferred;
    jump_status status;
    char *detail; /* jump_error_last() of the worker thread, copied there (it is thread-local) */
} sign_out_work;

static void sign_out_execute(napi_env env, void *data) {
    sign_out_work *w = data;
    (void)env;
    w->status = jump_client_sign_out(w->client);
    if (w->status != JUMP_OK) {
        const char *detail = jump_error_last();
        w->detail = strdup(detail ? detail : "{}");
    }
}

static void sign_out_complete(napi_env env, napi_status napi_result, void *data) {
    sign_out_work *w = data;
    addon_client *c = w->c;
    napi_value value = NULL;
    uint32_t refs;
    if (napi_result == napi_ok && w->status == JUMP_OK) {
        if (napi_get_undefined(env, &value) == napi_ok) napi_resolve_deferred(env, w->deferred, value);
    } else {
        value = status_error(env, napi_result == napi_ok ? w->status : JUMP_E_CANCELLED, w->detail);
        if (value != NULL) napi_reject_deferred(env, w->deferred, value);
    }
    c->busy--;
    if (c->busy == 0 && c->doomed != NULL) {
        jump_client_free(c->doomed);
        c->doomed = NULL;
    }
    if (c->self != NULL) napi_reference_unref(env, c->self, &refs); /* failing only leaks the object */
    if (c->busy == 0 && c->orphaned) free(c);
    napi_delete_async_work(env, w->work);
    free(w->detail);
    free(w);
}

static napi_value client_sign_out(napi_env env, napi_callback_info info) {
    jump_status status;
    sign_out_work *w;
    napi_value promise = NULL, name;
    uint32_t refs;
    addon_client *c = receiver(env, info, 0, NULL);
    if (c == NULL) return NULL;
    if (c->client == NULL) { /* closed: libjump's own JUMP_E_INVALID_HANDLE, thrown right away */
        status = jump_client_sign_out(NULL);
        throw_status(env, status);
        return NULL;
    }
    if ((w = calloc(1, sizeof *w)) == NULL) {
        throw_napi(env, "out of memory");
        return NULL;
    }
    w->c = c;
    w->client = c->client;
    if (napi_create_string_utf8(env, "jump.signOut", NAPI_AUTO_LENGTH, &name) != napi_ok ||
        napi_create_async_work(env, NULL, name, sign_out_execute, sign_out_complete, w, &w->work) != napi_ok) {
        free(w);
        throw_napi(env, "cannot create the sign-out work");
        return NULL;
    }
    if (napi_create_promise(env, &w->deferred, &promise) != napi_ok ||
        napi_reference_ref(env, c->self, &refs) != napi_ok) {
        napi_delete_async_work(env, w->work);
        free(w);
        throw_napi(env, "cannot start the sign-out");
        return NULL;
    }
    if (napi_queue_async_work(env, w->work) != napi_ok) {
        napi_reference_unref(env, c->self, &refs);
        napi_delete_async_work(env, w->work);
        free(w); /* the deferred is left unsettled: the promise is dropped with the throw */
        throw_napi(env, "cannot queue the sign-out");
        return NULL;
    }
    c->busy++;
    return promise;
}

/* state() -> JSON text */
static napi_value client_state(napi_env env, napi_callback_info info) {
    char *text = NULL;
    jump_status status;
    addon_client *c = receiver(env, info, 0, NULL);
    if (c == NULL) return NULL;
    if ((status = jump_client_state(c->client, &text)) != JUMP_OK) {
        throw_status(env, status);
        return NULL;
    }
    return take_string(env, text);
}

/* isSignedIn() -> boolean (false after close) */
static napi_value client_is_signed_in(napi_env env, napi_callback_info info) {
    napi_value result = NULL;
    addon_client *c = receiver(env, info, 0, NULL);
    if (c == NULL) return NULL;
    if (napi_get_boolean(env, c->client != NULL && jump_client_is_signed_in(c->client) == 1, &result) != napi_ok)
        throw_napi(env, "cannot create a boolean");
    return result;
}

/* The record calls make a view per call: a view dies with its session, and one per call never outlives it. */
typedef enum record_op { RECORD_GET, RECORD_SET, RECORD_CLEAR, RECORD_CHANGES, RECORD_DISCARD } record_op;

static napi_value record_call(napi_env env, napi_callback_info info, record_op op) {
    napi_value argv[2];
    jump_record *record = NULL;
    jump_status status;
    char *path = NULL, *value = NULL, *text = NULL;
    addon_client *c = receiver(env, info, 2, argv);
    if (c == NULL) return NULL;
    if ((op == RECORD_GET || op == RECORD_SET || op == RECORD_CLEAR) &&
        (path = string_arg(env, argv[0], "path")) == NULL)
        return NULL;
    if (op == RECORD_SET && (value = string_arg(env, argv[1], "value")) == NULL) {
        free(path);
        return NULL;
    }
    status = jump_client_record(c->client, &record);
    if (status == JUMP_OK) {
        switch (op) {
        case RECORD_GET: status = jump_record_get(record, path, &text); break;
        case RECORD_SET: status = jump_record_set(record, path, value); break;
        case RECORD_CLEAR: status = jump_record_clear(record, path); break;
        case RECORD_CHANGES: status = jump_record_changes(record, &text); break;
        case RECORD_DISCARD: status = jump_record_discard_changes(record); break;
        }
    }
    free(path);
    free(value);
    if (status != JUMP_OK) {
        throw_status(env, status); /* before jump_record_free, which might touch the thread's last error */
        jump_record_free(record);
        return NULL;
    }
    jump_record_free(record);
    return (op == RECORD_GET || op == RECORD_CHANGES) ? take_string(env, text) : undefined(env);
}

static napi_value client_record_get(napi_env env, napi_callback_info info) { return record_call(env, info, RECORD_GET); }
static napi_value client_record_set(napi_env env, napi_callback_info info) { return record_call(env, info, RECORD_SET); }
static napi_value client_record_clear(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_CLEAR);
}
static napi_value client_record_changes(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_CHANGES);
}
static napi_value client_record_discard(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_DISCARD);
}

/* noop(): nothing, for measuring the per-call overhead of N-API itself (benchmarks). */
static napi_value noop(napi_env env, napi_callback_info info) {
    (void)info;
    return undefined(env);
}

/* ---- module -------------------------------------------------------------------------------------------- */

#define METHOD(name, fn) {name, NULL, fn, NULL, NULL, NULL, napi_default_method, NULL}

/* Node unloads (dlclose) an addon a worker thread loaded when that worker ends, but the worker's loop still
 * runs the close callbacks (free_poll) of the poll handles shut by cleanup_hook after that: they would jump
 * into unmapped code. So the addon pins itself, as libjump does (jump.h: never unloaded). RTLD_NOLOAD only
 * promotes the copy already loaded; failing leaves the old behaviour, which is right outside workers. */
static void pin_addon(void) {
    Dl_info self;
    if (dladdr((void *)pin_addon, &self) != 0 && self.dli_fname != NULL)
        (void)dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

static napi_value init(napi_env env, napi_value exports) {
    static const napi_property_descriptor methods[] = {
        METHOD("setActive", client_set_active),
        METHOD("close", client_close),
        METHOD("signIn", client_sign_in),
        METHOD("registerTraditional", client_register_traditional),
        METHOD("sync", client_sync),
        METHOD("fetchRecord", client_fetch_record),
        METHOD("socialSignInNative", client_social_sign_in_native),
        METHOD("registerSocial", client_register_social),
        METHOD("signInMerge", client_sign_in_merge),
        METHOD("signInWithToken", client_sign_in_with_token),
        METHOD("cancel", client_cancel),
        METHOD("signOut", client_sign_out),
        METHOD("state", client_state),
        METHOD("isSignedIn", client_is_signed_in),
        METHOD("recordGet", client_record_get),
        METHOD("recordSet", client_record_set),
        METHOD("recordClear", client_record_clear),
        METHOD("recordChanges", client_record_changes),
        METHOD("recordDiscardChanges", client_record_discard),
    };
    napi_value cls, fn, version;
    pin_addon();
    if (napi_define_class(env, "NativeClient", NAPI_AUTO_LENGTH, client_new, NULL,
                          sizeof methods / sizeof methods[0], methods, &cls) != napi_ok ||
        napi_set_named_property(env, exports, "NativeClient", cls) != napi_ok ||
        napi_create_function(env, "noop", NAPI_AUTO_LENGTH, noop, NULL, &fn) != napi_ok ||
        napi_set_named_property(env, exports, "noop", fn) != napi_ok ||
        napi_create_string_utf8(env, jump_version(), NAPI_AUTO_LENGTH, &version) != napi_ok ||
        napi_set_named_property(env, exports, "libraryVersion", version) != napi_ok) {
        throw_napi(env, "cannot initialize the jump addon");
        return NULL;
    }
    return exports;
}

/* Built by a plain cc rule (Makefile), not node-gyp, so the module name is ours to give. */
NAPI_MODULE(jump, init)
