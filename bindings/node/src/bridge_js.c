/*
 * bridge_js.c - the bridge on the JS thread: running the queued host calls, log lines, releases and finished
 * work through lib/host.js's dispatcher, and the answers that come later (answerHostCall).
 *
 * Layer 2 of 4 (bridge): calls only args.c (layer 1) and the other files of the bridge (bridge.h).
 */
#include "bridge.h"

/* At most this many items per wake-up, so that timers and I/O are not starved by a flood of log lines. */
#define PUMP_BATCH 256

static const napi_type_tag HOST_CALL_TAG = {0x6a756d70686f7374ULL, 0x4e6f646541646f6eULL};
/* The handler's "kind" argument (lib/host.js). */
static const char *const HOST_KIND_NAMES[] = {"load", "save", "erase", "authenticate", "open_url"};

/* ---- the JS thread: calling the dispatcher --------------------------------------------------------------- */

/* dispatch(kind, id, text, data, token) of lib/host.js; NULL after a failure (an exception is reported as
 * uncaught: the dispatcher catches the handlers' own). */
static napi_value dispatch(bridge *b, napi_env env, const char *kind, uint32_t id, const char *text,
                           const char *data, size_t length, napi_value token) {
    napi_value fn, recv, argv[5], result = NULL;
    bool pending = false;
    if (b->dispatcher == NULL || napi_get_reference_value(env, b->dispatcher, &fn) != napi_ok || fn == NULL ||
        napi_get_undefined(env, &recv) != napi_ok)
        return NULL;
    argv[2] = argv[3] = argv[4] = recv;
    if (napi_create_string_utf8(env, kind, NAPI_AUTO_LENGTH, &argv[0]) != napi_ok ||
        napi_create_uint32(env, id, &argv[1]) != napi_ok ||
        (text != NULL && napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &argv[2]) != napi_ok) ||
        (data != NULL && napi_create_buffer_copy(env, length, data, NULL, &argv[3]) != napi_ok))
        return NULL;
    if (token != NULL) argv[4] = token;
    if (napi_call_function(env, recv, fn, 5, argv, &result) != napi_ok) result = NULL;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) {
        napi_value error;
        if (napi_get_and_clear_last_exception(env, &error) == napi_ok) napi_fatal_exception(env, error);
        result = NULL;
    }
    return result;
}

/* A handler's answer: a number is a status; a string or a Uint8Array (Buffer) the bytes, with JUMP_OK;
 * null or undefined nothing (JUMP_E_NOT_FOUND for a load, JUMP_OK otherwise). A string's bytes are copied
 * (*owned, malloc'ed); a Uint8Array's point into it, valid while value is. */
static jump_status read_answer(napi_env env, napi_value value, host_kind kind, const char **bytes, size_t *length,
                               char **owned) {
    napi_valuetype type = napi_undefined;
    bool typed = false;
    *bytes = NULL;
    *length = 0;
    *owned = NULL;
    if (value == NULL || napi_typeof(env, value, &type) != napi_ok) return JUMP_E_INTERNAL;
    if (type == napi_null || type == napi_undefined) return kind == HOST_LOAD ? JUMP_E_NOT_FOUND : JUMP_OK;
    if (type == napi_number) {
        int32_t status = JUMP_E_INTERNAL;
        napi_get_value_int32(env, value, &status);
        return status > 0 ? JUMP_E_INTERNAL : (jump_status)status;
    }
    if (type == napi_string) {
        size_t size = 0;
        if (napi_get_value_string_utf8(env, value, NULL, 0, &size) != napi_ok || (*owned = malloc(size + 1)) == NULL ||
            napi_get_value_string_utf8(env, value, *owned, size + 1, &size) != napi_ok) {
            free(*owned);
            *owned = NULL;
            return JUMP_E_INTERNAL;
        }
        *bytes = *owned;
        *length = size;
        return JUMP_OK;
    }
    if (napi_is_typedarray(env, value, &typed) == napi_ok && typed) {
        napi_typedarray_type array_type;
        napi_value buffer;
        size_t offset;
        void *data = NULL;
        if (napi_get_typedarray_info(env, value, &array_type, length, &data, &buffer, &offset) != napi_ok ||
            array_type != napi_uint8_array)
            return JUMP_E_INTERNAL;
        *bytes = data;
        return JUMP_OK;
    }
    return JUMP_E_INTERNAL;
}

/* Records value as call's answer (unless the waiting thread gave up meanwhile) and wakes the waiting thread. */
static void answer(bridge *b, napi_env env, host_call *call, napi_value value) {
    const char *bytes;
    size_t length;
    char *copy = NULL;
    jump_status status = read_answer(env, value, call->kind, &bytes, &length, &copy);
    if (bytes != NULL && copy == NULL) {
        if ((copy = malloc(length + 1)) == NULL) {
            status = JUMP_E_INTERNAL;
        } else {
            memcpy(copy, bytes, length);
        }
    }
    pthread_mutex_lock(&b->lock);
    if (!call->done) {
        call->status = status;
        call->answer = status == JUMP_OK ? copy : NULL;
        call->answer_length = length;
        call->done = 1;
        if (call->answer == copy) copy = NULL;
        pthread_cond_broadcast(&b->changed);
    }
    pthread_mutex_unlock(&b->lock);
    if (copy != NULL) {
        memset(copy, 0, length);
        free(copy);
    }
}

static void free_token(napi_env env, void *data, void *hint) {
    host_call *call = data;
    int last;
    (void)env;
    (void)hint;
    pthread_mutex_lock(&call->b->lock);
    last = drop_call_locked(call);
    pthread_mutex_unlock(&call->b->lock);
    if (last) free_call(call);
}

/* Runs a queued host call: the handler answers now, or (authenticate, openUrl) later through the token. */
static void run_call(bridge *b, napi_env env, host_call *call) {
    napi_value token = NULL, value;
    int last, later = call->kind == HOST_AUTHENTICATE || call->kind == HOST_OPEN_URL;
    if (later) {
        if (napi_create_external(env, call, free_token, NULL, &token) != napi_ok ||
            napi_type_tag_object(env, token, &HOST_CALL_TAG) != napi_ok) {
            token = NULL; /* cannot answer later: the handler's undefined becomes JUMP_OK below, its string stands */
        } else {
            pthread_mutex_lock(&b->lock);
            call->refs++; /* the token's */
            pthread_mutex_unlock(&b->lock);
        }
    }
    value = dispatch(b, env, HOST_KIND_NAMES[call->kind], call->id, call->text, call->data, call->length, token);
    if (value == NULL) {
        napi_value cancelled;
        if (napi_create_int32(env, JUMP_E_CANCELLED, &cancelled) == napi_ok) answer(b, env, call, cancelled);
    } else {
        napi_valuetype type = napi_undefined;
        napi_typeof(env, value, &type);
        if (!(token != NULL && type == napi_undefined)) answer(b, env, call, value);
    }
    pthread_mutex_lock(&b->lock);
    last = drop_call_locked(call); /* the queue's */
    pthread_mutex_unlock(&b->lock);
    if (last) free_call(call);
}

/* Drains the queue (calls_only: the host calls alone, for guarded()), at most PUMP_BATCH items. */
void pump(bridge *b, napi_env env, int calls_only) {
    int n;
    for (n = 0; n < PUMP_BATCH; n++) {
        napi_handle_scope scope;
        bridge_item *item;
        pthread_mutex_lock(&b->lock);
        item = take_locked(b, calls_only);
        pthread_mutex_unlock(&b->lock);
        if (item == NULL) return;
        if (napi_open_handle_scope(env, &scope) != napi_ok) scope = NULL;
        switch (item->kind) {
        case ITEM_CALL:
            run_call(b, env, (host_call *)item);
            break;
        case ITEM_LOG: {
            log_line *line = (log_line *)item;
            dispatch(b, env, "log", line->id, line->text, NULL, 0, NULL);
            free(line->text);
            free(line);
            break;
        }
        case ITEM_RELEASE: {
            release *r = (release *)item;
            if (r->disarm) bridge_arm(b, -1);
            dispatch(b, env, "release", r->id, NULL, NULL, 0, NULL);
            free(r);
            break;
        }
        case ITEM_WORK:
            item->complete(env, item);
            break;
        }
        if (scope != NULL) napi_close_handle_scope(env, scope);
    }
    if (!calls_only) { /* more than a batch: the rest on the next turn */
        pthread_mutex_lock(&b->lock);
        if (b->head != NULL && !b->closed) napi_call_threadsafe_function(b->wake, NULL, napi_tsfn_nonblocking);
        pthread_mutex_unlock(&b->lock);
    }
}

napi_value bridge_set_dispatcher(napi_env env, napi_value fn) {
    bridge *b = bridge_of(env);
    napi_valuetype type = napi_undefined;
    if (b == NULL || napi_typeof(env, fn, &type) != napi_ok || type != napi_function) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "the dispatcher must be a function");
        return NULL;
    }
    if (b->dispatcher != NULL) napi_delete_reference(env, b->dispatcher);
    b->dispatcher = NULL;
    if (napi_create_reference(env, fn, 1, &b->dispatcher) != napi_ok) {
        throw_napi(env, "cannot keep the dispatcher");
        return NULL;
    }
    return undefined(env);
}

napi_value bridge_answer(napi_env env, napi_value token, napi_value value) {
    bool tagged = false;
    void *data = NULL;
    host_call *call;
    if (napi_check_object_type_tag(env, token, &HOST_CALL_TAG, &tagged) != napi_ok || !tagged ||
        napi_get_value_external(env, token, &data) != napi_ok || data == NULL) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "not a host call token");
        return NULL;
    }
    call = data;
    answer(call->b, env, call, value);
    return undefined(env);
}
