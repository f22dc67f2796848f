/*
 * work.c - the calls that may wait on the network but have no _async form (sign-out's revoke, loading the flow,
 * schema and Engage configuration, the providers, socialBegin, access tokens, share
 * content, identify). Each runs on a thread of its own, never on libuv's thread pool: a request may take a
 * whole request timeout, and four of them would stall every fs, dns and crypto call of the application. The
 * method returns a Promise, settled on the JS thread once the bridge (bridge.c) hands the finished work back.
 *
 * While a call runs, the JS object is held strongly (no finalizer) and close() leaves jump_client_free to the
 * last running call (c->doomed), so the call finishes on a live client. When the environment goes away first
 * (process exit, worker end), the thread settles nothing and the last one frees what is left (work_orphan).
 *
 * Layer 3 of 4 (work): calls only the layers below, the bridge (bridge*.c) and args.c; the bridge hands a
 * finished work back through the two functions work.c gives it (bridge_post_work), never by name.
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>

typedef struct work work;
typedef jump_status (*work_fn)(work *w);

struct work {
    bridge_item item; /* first: the bridge queues works with its other items */
    addon_client *c;
    jump_client *client; /* read on the JS thread at the start: close() may clear c->client meanwhile */
    work_fn run;
    char *s[4];          /* string arguments (wiped when freed: tokens, bodies) */
    uint32_t id;         /* identify's authenticate handler */
    void *userdata;      /* identify's bridge userdata */
    napi_deferred deferred;
    jump_status status;
    char *out;           /* the result text, or NULL */
    char *detail;        /* jump_error_last() of the worker thread, copied there (it is thread-local) */
    int secret_out;      /* out is a secret (an access token): wiped */
};

/* ---- what each call runs ----------------------------------------------------------------------------- */

static jump_status run_sign_out(work *w) { return jump_client_sign_out(w->client); }
static jump_status run_load_flow(work *w) { return jump_client_load_flow(w->client); }
static jump_status run_load_schema(work *w) { return jump_client_load_schema(w->client); }
static jump_status run_load_engage_config(work *w) { return jump_client_load_engage_config(w->client, &w->out); }
static jump_status run_providers(work *w) { return jump_client_providers(w->client, &w->out); }
static jump_status run_social_begin(work *w) { return jump_client_social_begin(w->client, w->s[0], w->s[1], &w->out); }
static jump_status run_access_token(work *w) { return jump_client_access_token(w->client, &w->out); }
static jump_status run_refresh_access_token(work *w) { return jump_client_refresh_access_token(w->client); }
static jump_status run_share_content(work *w) { return jump_client_share_content(w->client, w->s[0], &w->out); }
static jump_status run_identify(work *w) {
    return jump_client_identify_external_user(w->client, w->s[0], bridge_authenticate, w->userdata, &w->out);
}

/* ---- the thread and its end ------------------------------------------------------------------------------ */

static void free_work(work *w) {
    for (int i = 0; i < 4; i++) free_secret(w->s[i]);
    if (w->out != NULL && w->secret_out) memset(w->out, 0, strlen(w->out));
    jump_string_free(w->out);
    free(w->detail);
    if (w->userdata != NULL) host_userdata_free(w->userdata);
    free(w);
}

static void work_complete(napi_env env, bridge_item *item);
static void work_orphan(bridge_item *item);

static void *work_main(void *arg) {
    work *w = arg;
    w->status = w->run(w);
    if (w->status != JUMP_OK) {
        const char *detail = jump_error_last();
        w->detail = strdup(detail ? detail : "{}");
    }
    if (!bridge_post_work(w->c->bridge, &w->item, work_complete, work_orphan)) work_orphan(&w->item);
    return NULL;
}

/* The end of a call on the JS thread: the busy count (and a client closed meanwhile), then the Promise. */
static void work_complete(napi_env env, bridge_item *item) {
    work *w = (work *)item; /* its first member */
    addon_client *c = w->c;
    bridge *b = c->bridge;
    jump_client *doomed = NULL;
    napi_value value = NULL;
    uint32_t refs;
    int orphaned;
    pthread_mutex_lock(bridge_lock(b));
    c->busy--;
    if (c->busy == 0) {
        doomed = c->doomed;
        c->doomed = NULL;
    }
    orphaned = c->busy == 0 && c->orphaned;
    pthread_mutex_unlock(bridge_lock(b));
    if (w->status == JUMP_OK) {
        value = w->out != NULL ? (w->secret_out ? take_secret(env, w->out) : take_string(env, w->out)) : undefined(env);
        w->out = NULL;
        if (value != NULL) napi_resolve_deferred(env, w->deferred, value);
    } else if ((value = status_error(env, w->status, w->detail)) != NULL) {
        napi_reject_deferred(env, w->deferred, value);
    }
    if (doomed != NULL) free_jump_client(c, doomed, 0);
    if (c->self != NULL) napi_reference_unref(env, c->self, &refs); /* failing only leaks the object */
    bridge_working(b, env, -1);
    free_work(w);
    if (orphaned) {
        bridge_unref(b);
        free(c);
    }
}

/* The end of a call whose environment is gone: no JavaScript, no N-API; what is left is freed here. */
static void work_orphan(bridge_item *item) {
    work *w = (work *)item;
    addon_client *c = w->c;
    bridge *b = c->bridge;
    jump_client *doomed = NULL;
    int orphaned;
    pthread_mutex_lock(bridge_lock(b));
    c->busy--;
    if (c->busy == 0) {
        doomed = c->doomed;
        c->doomed = NULL;
    }
    orphaned = c->busy == 0 && c->orphaned;
    pthread_mutex_unlock(bridge_lock(b));
    if (doomed != NULL) jump_client_free(doomed);
    free_work(w);
    if (orphaned) {
        bridge_unref(b);
        free(c);
    }
}

/* Starts w on its own thread and returns its Promise; on failure frees w and throws. */
static napi_value start_work(napi_env env, addon_client *c, work *w, work_fn run) {
    napi_value promise = NULL;
    pthread_attr_t attr;
    pthread_t thread;
    uint32_t refs;
    int started;
    w->c = c;
    w->run = run;
    if (c->client == NULL) { /* closed: libjump's own JUMP_E_INVALID_HANDLE, right away */
        w->client = NULL;
        promise = failure(env, run(w));
        free_work(w);
        return promise;
    }
    w->client = c->client;
    if (napi_create_promise(env, &w->deferred, &promise) != napi_ok) {
        free_work(w);
        throw_napi(env, "cannot create a Promise");
        return NULL;
    }
    if (napi_reference_ref(env, c->self, &refs) != napi_ok) {
        napi_reject_deferred(env, w->deferred, undefined(env));
        free_work(w);
        throw_napi(env, "cannot hold the client");
        return NULL;
    }
    pthread_mutex_lock(bridge_lock(c->bridge));
    c->busy++;
    pthread_mutex_unlock(bridge_lock(c->bridge));
    bridge_working(c->bridge, env, +1);
    started = pthread_attr_init(&attr) == 0;
    if (started) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        started = pthread_create(&thread, &attr, work_main, w) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) { /* undo as a completion would, then say so */
        w->status = JUMP_E_INTERNAL;
        w->detail = strdup("{\"status\":-17,\"status_name\":\"JUMP_E_INTERNAL\",\"message\":\"cannot start a thread\"}");
        work_complete(env, &w->item);
    }
    return promise;
}

static work *new_work(napi_env env) {
    work *w = calloc(1, sizeof *w);
    if (w == NULL) throw_napi(env, "out of memory");
    return w;
}

/* A call taking the method's string arguments as format says (see take_args; only s and o). */
static napi_value string_work(napi_env env, napi_callback_info info, const char *format, const char *const *names,
                              work_fn run) {
    call_args a;
    work *w;
    if (!take_args(env, info, format, names, &a)) return NULL;
    if ((w = new_work(env)) == NULL) {
        free_args(&a);
        return NULL;
    }
    for (int i = 0; i < 4 && format[i] != '\0'; i++) {
        w->s[i] = a.s[i];
        a.s[i] = NULL;
    }
    return start_work(env, a.c, w, run);
}

/* ---- the methods --------------------------------------------------------------------------------------- */

/* signOut() -> Promise<undefined>: memory and storage at once, then the best-effort token revoke. */
napi_value client_sign_out(napi_env env, napi_callback_info info) {
    return string_work(env, info, "", NULL, run_sign_out);
}

/* loadFlow() -> Promise<undefined> */
napi_value client_load_flow(napi_env env, napi_callback_info info) {
    return string_work(env, info, "", NULL, run_load_flow);
}

/* loadSchema() -> Promise<undefined> */
napi_value client_load_schema(napi_env env, napi_callback_info info) {
    return string_work(env, info, "", NULL, run_load_schema);
}

/* loadEngageConfig() -> Promise<JSON text> */
napi_value client_load_engage_config(napi_env env, napi_callback_info info) {
    return string_work(env, info, "", NULL, run_load_engage_config);
}

/* providers() -> Promise<JSON text> */
napi_value client_providers(napi_env env, napi_callback_info info) {
    return string_work(env, info, "", NULL, run_providers);
}

/* socialBegin(provider, optionsJson|null) -> Promise<JSON text> */
napi_value client_social_begin(napi_env env, napi_callback_info info) {
    return string_work(env, info, "so", NAMES("provider", "options"), run_social_begin);
}

/* shareContent(activityJson) -> Promise<JSON text> */
napi_value client_share_content(napi_env env, napi_callback_info info) {
    return string_work(env, info, "s", NAMES("activity"), run_share_content);
}

/* refreshAccessToken() -> Promise<undefined> */
napi_value client_refresh_access_token(napi_env env, napi_callback_info info) {
    return string_work(env, info, "", NULL, run_refresh_access_token);
}

/* accessToken() -> Promise<string> (a secret: wiped once it is a JS string) */
napi_value client_access_token(napi_env env, napi_callback_info info) {
    call_args a;
    work *w;
    if (!take_args(env, info, "", NULL, &a)) return NULL;
    if ((w = new_work(env)) == NULL) return NULL;
    w->secret_out = 1;
    return start_work(env, a.c, w, run_access_token);
}

/* identifyExternalUser(externalUserId, authenticateHandlerId) -> Promise<JSON text>. authenticate runs on this
 * work's thread, which waits while the JS handler answers on the loop (bridge.c). */
napi_value client_identify_external_user(napi_env env, napi_callback_info info) {
    call_args a;
    work *w;
    if (!take_args(env, info, "si", NAMES("externalUserId", "authenticate"), &a)) return NULL;
    if ((w = new_work(env)) == NULL || (w->userdata = host_userdata_new(a.c->bridge, (uint32_t)a.n[1])) == NULL) {
        if (w != NULL) throw_napi(env, "out of memory");
        free(w);
        free_args(&a);
        return NULL;
    }
    w->s[0] = a.s[0];
    a.s[0] = NULL;
    return start_work(env, a.c, w, run_identify);
}
