/*
 * sync_calls.c - the calls that never wait on the network (memory, and the session's storage): state, status,
 * credentials on hand, API-key and web-login modes, linked profiles, and the record. They return at once on
 * the JS thread; their results are JSON text that the JavaScript layer parses.
 */
#include "addon.h"

#include <stdlib.h>

/* The usual end of a call: free the arguments, then throw for a failure or return text (NULL text: null). */
static napi_value text_result(napi_env env, call_args *a, jump_status status, char *text, int secret) {
    free_args(a);
    if (status != JUMP_OK) {
        napi_value result = failure(env, status); /* first: jump_string_free may replace the last error */
        jump_string_free(text);
        return result;
    }
    return secret ? take_secret(env, text) : take_string(env, text);
}

static napi_value void_result(napi_env env, call_args *a, jump_status status) {
    free_args(a);
    return status == JUMP_OK ? undefined(env) : failure(env, status);
}

/* state() -> JSON text */
napi_value client_state(napi_env env, napi_callback_info info) {
    call_args a;
    char *text = NULL;
    jump_status status;
    if (!take_args(env, info, "", NULL, &a)) return NULL;
    GUARDED(a.c, status = jump_client_state(a.c->client, &text));
    return text_result(env, &a, status, text, 0);
}

/* status() -> JSON text */
napi_value client_status(napi_env env, napi_callback_info info) {
    call_args a;
    char *text = NULL;
    jump_status status;
    if (!take_args(env, info, "", NULL, &a)) return NULL;
    GUARDED(a.c, status = jump_client_status(a.c->client, &text));
    return text_result(env, &a, status, text, 0);
}

/* isSignedIn() -> boolean (false after close). The hot path of the benchmark: no argument parsing, and the
 * bridge's guard costs two loads when no JavaScript storage or callback is in use. */
napi_value client_is_signed_in(napi_env env, napi_callback_info info) {
    napi_value result = NULL;
    int signed_in = 0;
    addon_client *c = receiver(env, info, 0, NULL);
    if (c == NULL) return NULL;
    if (c->client != NULL) GUARDED(c, signed_in = jump_client_is_signed_in(c->client) == 1);
    if (napi_get_boolean(env, signed_in, &result) != napi_ok) throw_napi(env, "cannot create a boolean");
    return result;
}

/* hasValidCredentials(minTtlSeconds) -> boolean: memory only, never waits for a refresh. */
napi_value client_has_valid_credentials(napi_env env, napi_callback_info info) {
    call_args a;
    napi_value result = NULL;
    int valid = 0;
    if (!take_args(env, info, "i", NAMES("minTtl"), &a)) return NULL;
    if (a.c->client != NULL) GUARDED(a.c, valid = jump_client_has_valid_credentials(a.c->client, a.n[0]) == 1);
    if (napi_get_boolean(env, valid, &result) != napi_ok) throw_napi(env, "cannot create a boolean");
    return result;
}

/* useApiKey(apiKey, userId|null, environment, region) */
napi_value client_use_api_key(napi_env env, napi_callback_info info) {
    call_args a;
    jump_status status;
    if (!take_args(env, info, "soss", NAMES("apiKey", "userId", "environment", "region"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_use_api_key(a.c->client, a.s[0], a.s[1], a.s[2], a.s[3]));
    return void_result(env, &a, status);
}

/* useWebLogin(pageUrl, cookies|null, title|null) -> the token (a secret) */
napi_value client_use_web_login(napi_env env, napi_callback_info info) {
    call_args a;
    char *token = NULL;
    jump_status status;
    if (!take_args(env, info, "soo", NAMES("pageUrl", "cookies", "title"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_use_web_login(a.c->client, a.s[0], a.s[1], a.s[2], &token));
    return text_result(env, &a, status, token, 1);
}

/* linkedProfiles() -> JSON text */
napi_value client_linked_profiles(napi_env env, napi_callback_info info) {
    call_args a;
    char *text = NULL;
    jump_status status;
    if (!take_args(env, info, "", NULL, &a)) return NULL;
    GUARDED(a.c, status = jump_client_linked_profiles(a.c->client, &text));
    return text_result(env, &a, status, text, 0);
}

/* setTokenUrl(url|null) */
napi_value client_set_token_url(napi_env env, napi_callback_info info) {
    call_args a;
    jump_status status;
    if (!take_args(env, info, "o", NAMES("url"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_set_token_url(a.c->client, a.s[0]));
    return void_result(env, &a, status);
}

/* restore(): reads the saved session and credential again */
napi_value client_restore(napi_env env, napi_callback_info info) {
    call_args a;
    jump_status status;
    if (!take_args(env, info, "", NULL, &a)) return NULL;
    GUARDED(a.c, status = jump_client_restore(a.c->client));
    return void_result(env, &a, status);
}

/* eraseQuarantine() */
napi_value client_erase_quarantine(napi_env env, napi_callback_info info) {
    call_args a;
    jump_status status;
    if (!take_args(env, info, "", NULL, &a)) return NULL;
    GUARDED(a.c, status = jump_client_erase_quarantine(a.c->client));
    return void_result(env, &a, status);
}

/* ---- the record: a view per call (a view dies with its session; one per call never outlives it) ------------ */

typedef enum record_op {
    RECORD_GET, RECORD_SET, RECORD_CLEAR, RECORD_CHANGES, RECORD_DISCARD, RECORD_GET_STRING, RECORD_GET_INT,
    RECORD_GET_NUMBER, RECORD_GET_BOOL, RECORD_SET_STRING, RECORD_APPEND, RECORD_REMOVE, RECORD_REPLACE,
    RECORD_COUNT, RECORD_PATHS, RECORD_REVERT
} record_op;

typedef enum record_result { GIVES_NOTHING, GIVES_TEXT, GIVES_INT, GIVES_NUMBER, GIVES_BOOL, GIVES_COUNT } record_result;

static const struct {
    const char *format;
    const char *names[2];
    record_result result;
} RECORD_OPS[] = {
    [RECORD_GET] = {"s", {"path"}, GIVES_TEXT},
    [RECORD_SET] = {"ss", {"path", "value"}, GIVES_NOTHING},
    [RECORD_CLEAR] = {"s", {"path"}, GIVES_NOTHING},
    [RECORD_CHANGES] = {"", {NULL}, GIVES_TEXT},
    [RECORD_DISCARD] = {"", {NULL}, GIVES_NOTHING},
    [RECORD_GET_STRING] = {"s", {"path"}, GIVES_TEXT},
    [RECORD_GET_INT] = {"s", {"path"}, GIVES_INT},
    [RECORD_GET_NUMBER] = {"s", {"path"}, GIVES_NUMBER},
    [RECORD_GET_BOOL] = {"s", {"path"}, GIVES_BOOL},
    [RECORD_SET_STRING] = {"so", {"path", "value"}, GIVES_NOTHING},
    [RECORD_APPEND] = {"ss", {"pluralPath", "element"}, GIVES_TEXT},
    [RECORD_REMOVE] = {"s", {"elementPath"}, GIVES_NOTHING},
    [RECORD_REPLACE] = {"ss", {"pluralPath", "elements"}, GIVES_NOTHING},
    [RECORD_COUNT] = {"s", {"pluralPath"}, GIVES_COUNT},
    [RECORD_PATHS] = {"s", {"pluralPath"}, GIVES_TEXT},
    [RECORD_REVERT] = {"s", {"path"}, GIVES_NOTHING},
};

typedef struct record_out {
    char *text;
    int64_t integer;
    double number;
    int flag;
    size_t count;
} record_out;

static jump_status run_record_op(jump_record *r, record_op op, char **s, record_out *out) {
    switch (op) {
    case RECORD_GET: return jump_record_get(r, s[0], &out->text);
    case RECORD_SET: return jump_record_set(r, s[0], s[1]);
    case RECORD_CLEAR: return jump_record_clear(r, s[0]);
    case RECORD_CHANGES: return jump_record_changes(r, &out->text);
    case RECORD_DISCARD: return jump_record_discard_changes(r);
    case RECORD_GET_STRING: return jump_record_get_string(r, s[0], &out->text);
    case RECORD_GET_INT: return jump_record_get_int64(r, s[0], &out->integer);
    case RECORD_GET_NUMBER: return jump_record_get_double(r, s[0], &out->number);
    case RECORD_GET_BOOL: return jump_record_get_bool(r, s[0], &out->flag);
    case RECORD_SET_STRING: return jump_record_set_string(r, s[0], s[1]);
    case RECORD_APPEND: return jump_record_append(r, s[0], s[1], &out->text);
    case RECORD_REMOVE: return jump_record_remove(r, s[0]);
    case RECORD_REPLACE: return jump_record_replace_plural(r, s[0], s[1]);
    case RECORD_COUNT: return jump_record_element_count(r, s[0], &out->count);
    case RECORD_PATHS: return jump_record_element_paths(r, s[0], &out->text);
    case RECORD_REVERT: return jump_record_revert(r, s[0]);
    }
    return JUMP_E_INTERNAL;
}

static napi_value record_call(napi_env env, napi_callback_info info, record_op op) {
    call_args a;
    jump_record *record = NULL;
    jump_status status;
    record_out out = {NULL, 0, 0, 0, 0};
    napi_value result = NULL;
    napi_status made = napi_ok;
    if (!take_args(env, info, RECORD_OPS[op].format, RECORD_OPS[op].names, &a)) return NULL;
    GUARDED(a.c, status = jump_client_record(a.c->client, &record);
            if (status == JUMP_OK) status = run_record_op(record, op, a.s, &out));
    free_args(&a);
    if (status != JUMP_OK) {
        result = failure(env, status); /* before jump_record_free, which might touch the thread's last error */
        jump_record_free(record);
        jump_string_free(out.text);
        return result;
    }
    jump_record_free(record);
    switch (RECORD_OPS[op].result) {
    case GIVES_NOTHING: return undefined(env);
    case GIVES_TEXT: return take_string(env, out.text);
    case GIVES_INT: made = napi_create_bigint_int64(env, out.integer, &result); break; /* lib/record.js narrows it */
    case GIVES_NUMBER: made = napi_create_double(env, out.number, &result); break;
    case GIVES_BOOL: made = napi_get_boolean(env, out.flag != 0, &result); break;
    case GIVES_COUNT: made = napi_create_double(env, (double)out.count, &result); break;
    }
    if (made != napi_ok) {
        throw_napi(env, "cannot create a number");
        return NULL;
    }
    return result;
}

napi_value client_record_get(napi_env env, napi_callback_info info) { return record_call(env, info, RECORD_GET); }
napi_value client_record_set(napi_env env, napi_callback_info info) { return record_call(env, info, RECORD_SET); }
napi_value client_record_clear(napi_env env, napi_callback_info info) { return record_call(env, info, RECORD_CLEAR); }
napi_value client_record_changes(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_CHANGES);
}
napi_value client_record_discard(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_DISCARD);
}
napi_value client_record_get_string(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_GET_STRING);
}
napi_value client_record_get_int(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_GET_INT);
}
napi_value client_record_get_number(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_GET_NUMBER);
}
napi_value client_record_get_bool(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_GET_BOOL);
}
napi_value client_record_set_string(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_SET_STRING);
}
napi_value client_record_append(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_APPEND);
}
napi_value client_record_remove(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_REMOVE);
}
napi_value client_record_replace_plural(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_REPLACE);
}
napi_value client_record_element_count(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_COUNT);
}
napi_value client_record_element_paths(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_PATHS);
}
napi_value client_record_revert(napi_env env, napi_callback_info info) {
    return record_call(env, info, RECORD_REVERT);
}
