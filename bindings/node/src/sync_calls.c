/*
 * sync_calls.c - the calls that never wait on the network (memory, and the session's storage): state, status,
 * credentials on hand, API-key and web-login modes, linked profiles, the saved accounts (list, remove), and the
 * record. They return at once, through guarded() (bridge.c); their results are JSON text that the JavaScript
 * layer parses.
 *
 * Layer 3 of 4 (work): calls only the layers below, the bridge (bridge*.c) and args.c.
 */
#include "addon.h"

#include <stdlib.h>

/* A call: the method's arguments and what the call gives back. */
typedef struct sync_ctx {
    call_args a;
    char *text;
    int flag;
} sync_ctx;

#define CLIENT(s) (((sync_ctx *)(s))->a.c->client)
#define ARG(s, i) (((sync_ctx *)(s))->a.s[i])
#define TEXT(s) (&((sync_ctx *)(s))->text)

/* Runs fn on the arguments format says, then returns its text (NULL text: null) or its failure. */
static napi_value text_call(napi_env env, napi_callback_info info, const char *format, const char *const *names,
                            guarded_fn fn, int secret) {
    sync_ctx s = {.text = NULL};
    jump_status status;
    if (!take_args(env, info, format, names, &s.a)) return NULL;
    status = guarded(s.a.c, fn, &s);
    free_args(&s.a);
    if (status != JUMP_OK) {
        napi_value result = failure(env, status); /* first: jump_string_free may replace the last error */
        jump_string_free(s.text);
        return result;
    }
    return secret ? take_secret(env, s.text) : take_string(env, s.text);
}

/* Runs fn on the arguments format says, then returns undefined or its failure. */
static napi_value void_call(napi_env env, napi_callback_info info, const char *format, const char *const *names,
                            guarded_fn fn) {
    sync_ctx s = {.text = NULL};
    jump_status status;
    if (!take_args(env, info, format, names, &s.a)) return NULL;
    status = guarded(s.a.c, fn, &s);
    free_args(&s.a);
    return status == JUMP_OK ? undefined(env) : failure(env, status);
}

static jump_status get_state(void *s) { return jump_client_state(CLIENT(s), TEXT(s)); }
/* state() -> JSON text */
napi_value client_state(napi_env env, napi_callback_info info) { return text_call(env, info, "", NULL, get_state, 0); }

static jump_status get_status(void *s) { return jump_client_status(CLIENT(s), TEXT(s)); }
/* status() -> JSON text */
napi_value client_status(napi_env env, napi_callback_info info) { return text_call(env, info, "", NULL, get_status, 0); }

static jump_status check_signed_in(void *s) {
    ((sync_ctx *)s)->flag = jump_client_is_signed_in(CLIENT(s)) == 1; /* 0 for a closed client too */
    return JUMP_OK;
}
/* isSignedIn() -> boolean. Each NativeClient has its own, faster copy (jump_addon.c, bound_is_signed_in): this
 * one serves the prototype. */
napi_value client_is_signed_in(napi_env env, napi_callback_info info) {
    sync_ctx s = {.text = NULL};
    napi_value result = NULL;
    if (!take_args(env, info, "", NULL, &s.a)) return NULL;
    guarded(s.a.c, check_signed_in, &s);
    if (napi_get_boolean(env, s.flag, &result) != napi_ok) throw_napi(env, "cannot create a boolean");
    return result;
}

static jump_status check_credentials(void *s) {
    sync_ctx *c = s;
    c->flag = jump_client_has_valid_credentials(CLIENT(s), c->a.n[0]) == 1; /* 0 for a closed client too */
    return JUMP_OK;
}
/* hasValidCredentials(minTtlSeconds) -> boolean: memory only, never waits for a refresh. */
napi_value client_has_valid_credentials(napi_env env, napi_callback_info info) {
    sync_ctx s = {.text = NULL};
    napi_value result = NULL;
    if (!take_args(env, info, "i", NAMES("minTtl"), &s.a)) return NULL;
    guarded(s.a.c, check_credentials, &s);
    if (napi_get_boolean(env, s.flag, &result) != napi_ok) throw_napi(env, "cannot create a boolean");
    return result;
}

static jump_status use_api_key(void *s) {
    return jump_client_use_api_key(CLIENT(s), ARG(s, 0), ARG(s, 1), ARG(s, 2), ARG(s, 3));
}
/* useApiKey(apiKey, userId|null, environment, region) */
napi_value client_use_api_key(napi_env env, napi_callback_info info) {
    return void_call(env, info, "soss", NAMES("apiKey", "userId", "environment", "region"), use_api_key);
}

static jump_status use_web_login(void *s) {
    return jump_client_use_web_login(CLIENT(s), ARG(s, 0), ARG(s, 1), ARG(s, 2), TEXT(s));
}
/* useWebLogin(pageUrl, cookies|null, title|null) -> the token (a secret) */
napi_value client_use_web_login(napi_env env, napi_callback_info info) {
    return text_call(env, info, "soo", NAMES("pageUrl", "cookies", "title"), use_web_login, 1);
}

static jump_status get_linked_profiles(void *s) { return jump_client_linked_profiles(CLIENT(s), TEXT(s)); }
/* linkedProfiles() -> JSON text */
napi_value client_linked_profiles(napi_env env, napi_callback_info info) {
    return text_call(env, info, "", NULL, get_linked_profiles, 0);
}

static jump_status set_token_url(void *s) { return jump_client_set_token_url(CLIENT(s), ARG(s, 0)); }
/* setTokenUrl(url|null) */
napi_value client_set_token_url(napi_env env, napi_callback_info info) {
    return void_call(env, info, "o", NAMES("url"), set_token_url);
}

static jump_status restore(void *s) { return jump_client_restore(CLIENT(s)); }
/* restore(): reads the saved session and credential again */
napi_value client_restore(napi_env env, napi_callback_info info) { return void_call(env, info, "", NULL, restore); }

static jump_status get_accounts(void *s) { return jump_client_accounts(CLIENT(s), TEXT(s)); }
/* accounts() -> JSON text: the saved accounts (the index on storage, read again) */
napi_value client_accounts(napi_env env, napi_callback_info info) {
    return text_call(env, info, "", NULL, get_accounts, 0);
}

static jump_status remove_account(void *s) { return jump_client_remove_account(CLIENT(s), ARG(s, 0)); }
/* removeAccount(uuid): signs that account out and erases it on storage (no network) */
napi_value client_remove_account(napi_env env, napi_callback_info info) {
    return void_call(env, info, "s", NAMES("uuid"), remove_account);
}

static jump_status erase_quarantine(void *s) { return jump_client_erase_quarantine(CLIENT(s)); }
/* eraseQuarantine() */
napi_value client_erase_quarantine(napi_env env, napi_callback_info info) {
    return void_call(env, info, "", NULL, erase_quarantine);
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

typedef struct record_ctx {
    call_args a;
    record_op op;
    jump_record *record;
    char *text;
    int64_t integer;
    double number;
    int flag;
    size_t count;
} record_ctx;

static jump_status run_record_op(void *p) {
    record_ctx *r = p;
    char **s = r->a.s;
    jump_status status = jump_client_record(r->a.c->client, &r->record);
    if (status != JUMP_OK) return status;
    switch (r->op) {
    case RECORD_GET: return jump_record_get(r->record, s[0], &r->text);
    case RECORD_SET: return jump_record_set(r->record, s[0], s[1]);
    case RECORD_CLEAR: return jump_record_clear(r->record, s[0]);
    case RECORD_CHANGES: return jump_record_changes(r->record, &r->text);
    case RECORD_DISCARD: return jump_record_discard_changes(r->record);
    case RECORD_GET_STRING: return jump_record_get_string(r->record, s[0], &r->text);
    case RECORD_GET_INT: return jump_record_get_int64(r->record, s[0], &r->integer);
    case RECORD_GET_NUMBER: return jump_record_get_double(r->record, s[0], &r->number);
    case RECORD_GET_BOOL: return jump_record_get_bool(r->record, s[0], &r->flag);
    case RECORD_SET_STRING: return jump_record_set_string(r->record, s[0], s[1]);
    case RECORD_APPEND: return jump_record_append(r->record, s[0], s[1], &r->text);
    case RECORD_REMOVE: return jump_record_remove(r->record, s[0]);
    case RECORD_REPLACE: return jump_record_replace_plural(r->record, s[0], s[1]);
    case RECORD_COUNT: return jump_record_element_count(r->record, s[0], &r->count);
    case RECORD_PATHS: return jump_record_element_paths(r->record, s[0], &r->text);
    case RECORD_REVERT: return jump_record_revert(r->record, s[0]);
    }
    return JUMP_E_INTERNAL;
}

static napi_value record_call(napi_env env, napi_callback_info info, record_op op) {
    record_ctx r = {.op = op, .record = NULL, .text = NULL};
    jump_status status;
    napi_value result = NULL;
    napi_status made = napi_ok;
    if (!take_args(env, info, RECORD_OPS[op].format, RECORD_OPS[op].names, &r.a)) return NULL;
    status = guarded(r.a.c, run_record_op, &r);
    free_args(&r.a);
    if (status != JUMP_OK) {
        result = failure(env, status); /* before jump_record_free, which might touch the thread's last error */
        jump_record_free(r.record);
        jump_string_free(r.text);
        return result;
    }
    jump_record_free(r.record);
    switch (RECORD_OPS[op].result) {
    case GIVES_NOTHING: return undefined(env);
    case GIVES_TEXT: return take_string(env, r.text);
    case GIVES_INT: made = napi_create_bigint_int64(env, r.integer, &result); break; /* lib/record.js narrows it */
    case GIVES_NUMBER: made = napi_create_double(env, r.number, &result); break;
    case GIVES_BOOL: made = napi_get_boolean(env, r.flag != 0, &result); break;
    case GIVES_COUNT: made = napi_create_double(env, (double)r.count, &result); break;
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

/* ---- the hot path ---------------------------------------------------------------------------------------- */

/* isSignedIn is the call apps make most (a UI polls it), so each NativeClient gets its own, bound to it, as an
 * own property shadowing the prototype's: its data reaches the client directly, with no type-tag check and no
 * unwrap (two private-property lookups, most of the binding's cost per call). The cell outlives whichever of
 * the object and the function goes last; the object's finalizer empties it (a detached function then answers
 * false, as for a closed client). JS thread only. */
void drop_cell(bound_cell *cell) {
    if (--cell->refs == 0) free(cell);
}

static void free_bound(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    drop_cell(data);
}

typedef struct bound_signed_in_ctx {
    jump_client *client;
    int signed_in;
} bound_signed_in_ctx;

static jump_status check_bound_signed_in(void *p) {
    bound_signed_in_ctx *s = p;
    s->signed_in = jump_client_is_signed_in(s->client) == 1;
    return JUMP_OK;
}

/* isSignedIn() -> boolean, bound */
static napi_value bound_is_signed_in(napi_env env, napi_callback_info info) {
    void *data = NULL;
    napi_value result = NULL;
    addon_client *c;
    bound_signed_in_ctx s = {NULL, 0};
    if (napi_get_cb_info(env, info, NULL, NULL, NULL, &data) != napi_ok || data == NULL) {
        throw_napi(env, "cannot read the call");
        return NULL;
    }
    c = ((bound_cell *)data)->c;
    if (c != NULL && (s.client = c->client) != NULL) guarded(c, check_bound_signed_in, &s);
    if (napi_get_boolean(env, s.signed_in, &result) != napi_ok) throw_napi(env, "cannot create a boolean");
    return result;
}

/* Gives self its own isSignedIn; failing leaves the prototype's, which answers the same, only slower. */
void bind_hot_methods(napi_env env, napi_value self, addon_client *c) {
    napi_value fn;
    bound_cell *cell = calloc(1, sizeof *cell);
    if (cell == NULL) return;
    cell->c = c;
    cell->refs = 1;
    if (napi_create_function(env, "isSignedIn", NAPI_AUTO_LENGTH, bound_is_signed_in, cell, &fn) != napi_ok) {
        free(cell);
        return;
    }
    if (napi_add_finalizer(env, fn, cell, free_bound, NULL, NULL) != napi_ok) {
        free(cell); /* the function, unreachable, is collected without using it */
        return;
    }
    cell->refs++; /* the client's */
    c->bound = cell;
    napi_set_named_property(env, self, "isSignedIn", fn);
}
