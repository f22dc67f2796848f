/*
 * bridge.c - JavaScript that libjump calls back: the host storage's load/save/erase, identify's authenticate,
 * the loopback sign-in's openUrl, and the log sink. jump.h runs them on the thread of the jump_* call that
 * needs them (a libjump "jump-work" thread for an _async call, a thread of work.c, or the JS thread itself),
 * and the log callback on any thread. JavaScript runs on the JS thread only, so:
 *
 *  - the calling thread queues the call, a threadsafe function wakes the loop, the queue is pumped on the JS
 *    thread, and the calling thread waits until the handler answers (at once, or later through answerHostCall for
 *    a handler whose answer is a Promise: authenticate, openUrl);
 *  - log lines never wait: queued, delivered in order on a later turn of the loop.
 *
 * A libjump thread may hold a client's lock while it waits (save and erase run under it), and the JS thread may
 * itself call into libjump meanwhile (record.set, state()): if it blocked on that lock, neither would go on. So
 * while anything can make a thread wait here, the JS thread's calls run on a helper thread (guarded(), some
 * 10 us a call), and the JS thread, waiting for its helper, runs the host calls that come meanwhile: a host call
 * made by the JS thread's own call (record.set saving the edit) is run that way too, synchronously within it.
 * One wait cannot be served so: a handler answering later (a Promise of authenticate, openUrl) needs the loop,
 * which the JS thread does not run while it waits for its helper. A thread waiting for such an answer while the
 * JS thread is stuck in one call, without progress, for STUCK_MS gives up with JUMP_E_BUSY, which releases
 * whatever it holds and so the JS thread. The same escape serves the JS thread's calls where no JavaScript may
 * run (finalizers, teardown: guarded_quiet).
 *
 * One bridge per environment (main thread, each worker), made at module init and closed when the environment
 * goes away; it is reference-counted, since libjump may hold a storage or log context after that: calls made
 * then fail at once (JUMP_E_CANCELLED) instead of waiting for a loop that is gone.
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STUCK_MS 250
#define POLL_MS 50
/* Helper threads: one per nesting level of guarded calls (a host call run while the JS thread waits may itself
 * call libjump); deeper than this, calls run on the JS thread itself, with the STUCK_MS escape. */
#define MAX_HELPERS 4
/* At most this many items per wake-up, so that timers and I/O are not starved by a flood of log lines. */
#define PUMP_BATCH 256

static const napi_type_tag HOST_CALL_TAG = {0x6a756d70686f7374ULL, 0x4e6f646541646f6eULL};

typedef enum host_kind { HOST_LOAD, HOST_SAVE, HOST_ERASE, HOST_AUTHENTICATE, HOST_OPEN_URL } host_kind;
/* The handler's "kind" argument (lib/host.js). */
static const char *const HOST_KIND_NAMES[] = {"load", "save", "erase", "authenticate", "open_url"};

typedef struct host_call {
    bridge_item item;
    bridge *b;
    host_kind kind;
    uint32_t id;
    char *text;   /* the key, external user id or URL (a copy: libjump's is valid only during its call) */
    char *data;   /* save's bytes (a copy) */
    size_t length;
    int done;     /* answered, or given up */
    int refs;     /* the waiting thread, and the queue (then the token, for an answer that comes later) */
    jump_status status;
    char *answer; /* load's bytes or authenticate's JSON (malloc'ed) */
    size_t answer_length;
} host_call;

typedef struct log_line {
    bridge_item item;
    uint32_t id;
    char *text;
} log_line;

typedef struct release {
    bridge_item item;
    uint32_t id;
    int disarm;
} release;

/* A JS handler as libjump's context or userdata: the storage's, authenticate's, openUrl's. */
typedef struct host_userdata {
    bridge *b;
    uint32_t id;
    int disarm; /* bridge_arm(-1) when released (authenticate, openUrl; a storage is counted by its client) */
} host_userdata;

typedef struct log_context {
    bridge *b;
    uint32_t id;
    int min_level;
} log_context;

/* A call of the JS thread, run by a helper. */
typedef struct guarded_job {
    guarded_fn fn;
    void *ctx;
    jump_status status;
    char *detail; /* jump_error_last() of the helper, for a failure */
    int done;
} guarded_job;

typedef struct helper {
    bridge *b;
    pthread_cond_t ready; /* a job is given, or the bridge closed */
    guarded_job *job;
    int started;
} helper;

struct bridge {
    pthread_mutex_t lock;
    pthread_cond_t changed;         /* broadcast when a host call is answered or given up, or the bridge closes */
    napi_threadsafe_function wake;  /* wakes the loop to pump; NULL once closed */
    napi_ref dispatcher;            /* lib/host.js's dispatch function (JS thread only) */
    pthread_t js_thread;
    bridge_item *head, *tail;
    int refs;                       /* the environment's, each client's, each context's, each host call's */
    int closed;
    int calls_queued;               /* atomic: host calls waiting in the queue */
    int armed;                      /* JS thread only: identify and loopback calls in flight (bridge_arm) */
    int working;                    /* JS thread only: threads of work.c running (the loop is kept alive) */
    int depth;                      /* JS thread only: guarded calls in progress (the helper of the next one) */
    char *detail;                   /* JS thread only: the failure detail of the last guarded call of a helper */
    helper helpers[MAX_HELPERS];
    int in_sync;                    /* atomic: the JS thread is inside a jump_* call, its own or a helper's */
    unsigned progress;              /* atomic: bumped at each entry, exit and host call run by the JS thread */
};

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static log_context *log_installed; /* the context libjump holds now (the one process-wide log callback) */

/* ---- lifetime -------------------------------------------------------------------------------------------- */

bridge *bridge_of(napi_env env) {
    void *data = NULL;
    return napi_get_instance_data(env, &data) == napi_ok ? data : NULL;
}

pthread_mutex_t *bridge_lock(bridge *b) { return &b->lock; }

void bridge_ref(bridge *b) {
    pthread_mutex_lock(&b->lock);
    b->refs++;
    pthread_mutex_unlock(&b->lock);
}

void bridge_unref(bridge *b) {
    int last;
    pthread_mutex_lock(&b->lock);
    last = --b->refs == 0;
    pthread_mutex_unlock(&b->lock);
    if (!last) return;
    for (int i = 0; i < MAX_HELPERS; i++)
        if (b->helpers[i].started) pthread_cond_destroy(&b->helpers[i].ready);
    free(b->detail);
    pthread_cond_destroy(&b->changed);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

static void free_call(host_call *call) {
    if (call->data != NULL) memset(call->data, 0, call->length);
    if (call->answer != NULL) memset(call->answer, 0, call->answer_length);
    free(call->text);
    free(call->data);
    free(call->answer);
    bridge_unref(call->b);
    free(call);
}

/* Drops one reference of call; the bridge's lock is held. Returns 1 when call is to be freed (after unlocking:
 * free_call takes the lock). */
static int drop_call_locked(host_call *call) { return --call->refs == 0; }

/* Appends item and wakes the loop if the queue was empty (a pump drains it all, or wakes itself again). The lock
 * is held. 0 when the bridge is closed. */
static int enqueue_locked(bridge *b, bridge_item *item) {
    if (b->closed) return 0;
    item->next = NULL;
    if (b->tail != NULL) {
        b->tail->next = item;
    } else {
        b->head = item;
        if (napi_call_threadsafe_function(b->wake, NULL, napi_tsfn_nonblocking) != napi_ok) {
            b->head = NULL; /* closing: nobody will pump */
            return 0;
        }
    }
    b->tail = item;
    item->queued = 1;
    if (item->kind == ITEM_CALL) {
        __atomic_add_fetch(&b->calls_queued, 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&b->changed); /* a JS thread waiting for its helper runs it */
    }
    return 1;
}

/* Takes the first item (the first host call with calls_only) off the queue; the lock is held. */
static bridge_item *take_locked(bridge *b, int calls_only) {
    bridge_item *item = b->head, *before = NULL;
    while (item != NULL && calls_only && item->kind != ITEM_CALL) {
        before = item;
        item = item->next;
    }
    if (item == NULL) return NULL;
    if (before != NULL) before->next = item->next;
    else b->head = item->next;
    if (b->tail == item) b->tail = before;
    item->queued = 0;
    if (item->kind == ITEM_CALL) __atomic_sub_fetch(&b->calls_queued, 1, __ATOMIC_RELEASE);
    return item;
}

/* Posts a release of handler id to the JS thread (dropped, with nothing left to release, once it is gone). */
static void post_release(bridge *b, uint32_t id, int disarm) {
    release *r = calloc(1, sizeof *r);
    int queued = 0;
    if (r == NULL) return;
    r->item.kind = ITEM_RELEASE;
    r->id = id;
    r->disarm = disarm;
    pthread_mutex_lock(&b->lock);
    queued = enqueue_locked(b, &r->item);
    pthread_mutex_unlock(&b->lock);
    if (!queued) free(r);
}

/* The environment is going away: nothing more reaches JavaScript. Waiting threads are answered
 * JUMP_E_CANCELLED, queued lines and releases dropped, finished work settled without JavaScript. */
static void bridge_close(bridge *b) {
    bridge_item *items, *next;
    int ours;
    pthread_mutex_lock(&b->lock);
    b->closed = 1;
    b->wake = NULL;
    items = b->head;
    b->head = b->tail = NULL;
    __atomic_store_n(&b->calls_queued, 0, __ATOMIC_RELEASE);
    for (bridge_item *item = items; item != NULL; item = item->next) {
        if (item->kind != ITEM_CALL) continue;
        host_call *call = (host_call *)item;
        item->queued = 0;
        call->done = 1;
        call->status = JUMP_E_CANCELLED;
        call->refs--; /* the queue's; the waiting thread still holds one */
    }
    pthread_cond_broadcast(&b->changed);
    for (int i = 0; i < MAX_HELPERS; i++)
        if (b->helpers[i].started) pthread_cond_signal(&b->helpers[i].ready); /* they end */
    pthread_mutex_unlock(&b->lock);
    for (bridge_item *item = items; item != NULL; item = next) {
        next = item->next;
        if (item->kind == ITEM_LOG) {
            free(((log_line *)item)->text);
            free(item);
        } else if (item->kind == ITEM_RELEASE) {
            free(item);
        } else if (item->kind == ITEM_WORK) {
            work_orphan((work *)item);
        }
    }
    pthread_mutex_lock(&log_lock);
    ours = log_installed != NULL && log_installed->b == b;
    pthread_mutex_unlock(&log_lock);
    if (ours) jump_set_log_callback(NULL, NULL, NULL); /* lines would only be dropped here from now on */
}

static void pump(bridge *b, napi_env env, int calls_only);

static void wake_call(napi_env env, napi_value js_callback, void *context, void *data) {
    (void)js_callback;
    (void)data;
    if (env != NULL) pump(context, env, 0);
}

static void wake_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    bridge_close(data);
    bridge_unref(data); /* the environment's */
}

int bridge_init(napi_env env) {
    pthread_condattr_t attr;
    napi_value name;
    bridge *b = calloc(1, sizeof *b);
    if (b == NULL) return 0;
    pthread_mutex_init(&b->lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* waits are timed; the wall clock may jump */
    pthread_cond_init(&b->changed, &attr);
    pthread_condattr_destroy(&attr);
    b->js_thread = pthread_self();
    b->refs = 1;
    if (napi_create_string_utf8(env, "jump.bridge", NAPI_AUTO_LENGTH, &name) != napi_ok ||
        napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, b, wake_finalize, b, wake_call, &b->wake) !=
            napi_ok) {
        bridge_unref(b);
        return 0;
    }
    /* Idle, the bridge must not keep the process alive; bridge_working refs it while a work thread runs. */
    napi_unref_threadsafe_function(env, b->wake);
    if (napi_set_instance_data(env, b, NULL, NULL) != napi_ok) {
        napi_release_threadsafe_function(b->wake, napi_tsfn_abort); /* wake_finalize frees b */
        return 0;
    }
    return 1;
}

void bridge_arm(bridge *b, int delta) { b->armed += delta; }

void bridge_working(bridge *b, napi_env env, int delta) {
    b->working += delta;
    if (b->wake == NULL) return;
    if (delta > 0 && b->working == 1) napi_ref_threadsafe_function(env, b->wake);
    if (delta < 0 && b->working == 0) napi_unref_threadsafe_function(env, b->wake);
}

int bridge_post_work(bridge *b, work *w) {
    bridge_item *item = (bridge_item *)w;
    int queued;
    item->kind = ITEM_WORK;
    pthread_mutex_lock(&b->lock);
    queued = enqueue_locked(b, item);
    pthread_mutex_unlock(&b->lock);
    return queued;
}

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
static void pump(bridge *b, napi_env env, int calls_only) {
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
            work_complete(env, (work *)item);
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

/* ---- the JS thread's calls into libjump -------------------------------------------------------------------- */

static void *helper_main(void *arg) {
    helper *h = arg;
    bridge *b = h->b;
    pthread_mutex_lock(&b->lock);
    while (!b->closed) {
        guarded_job *job = h->job;
        if (job == NULL) {
            pthread_cond_wait(&h->ready, &b->lock);
            continue;
        }
        h->job = NULL;
        pthread_mutex_unlock(&b->lock);
        job->status = job->fn(job->ctx);
        if (job->status != JUMP_OK) {
            const char *detail = jump_error_last();
            job->detail = strdup(detail ? detail : "{}");
        }
        pthread_mutex_lock(&b->lock);
        job->done = 1;
        pthread_cond_broadcast(&b->changed);
    }
    pthread_mutex_unlock(&b->lock);
    bridge_unref(b);
    return NULL;
}

/* The helper of the current depth, started when first needed; NULL when none can be. */
static helper *helper_for(bridge *b) {
    helper *h;
    pthread_attr_t attr;
    pthread_t thread;
    int started;
    if (b->depth >= MAX_HELPERS) return NULL;
    h = &b->helpers[b->depth];
    if (h->started) return h;
    h->b = b;
    pthread_cond_init(&h->ready, NULL);
    bridge_ref(b); /* the helper's */
    started = pthread_attr_init(&attr) == 0;
    if (started) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        started = pthread_create(&thread, &attr, helper_main, h) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) {
        pthread_cond_destroy(&h->ready);
        bridge_unref(b);
        return NULL;
    }
    h->started = 1;
    return h;
}

static void forget_detail(bridge *b) {
    free(b->detail);
    b->detail = NULL;
}

static void enter_libjump(bridge *b) {
    __atomic_add_fetch(&b->in_sync, 1, __ATOMIC_RELEASE);
    __atomic_add_fetch(&b->progress, 1, __ATOMIC_RELEASE);
}

static void leave_libjump(bridge *b) {
    __atomic_sub_fetch(&b->in_sync, 1, __ATOMIC_RELEASE);
    __atomic_add_fetch(&b->progress, 1, __ATOMIC_RELEASE);
}

jump_status guarded_quiet(addon_client *c, guarded_fn fn, void *ctx) {
    bridge *b = c->bridge;
    jump_status status;
    if (b->detail != NULL) forget_detail(b);
    if (b->armed == 0 && !c->armed) return fn(ctx);
    enter_libjump(b);
    status = fn(ctx);
    leave_libjump(b);
    return status;
}

jump_status guarded(addon_client *c, guarded_fn fn, void *ctx) {
    bridge *b = c->bridge;
    guarded_job job = {fn, ctx, JUMP_OK, NULL, 0};
    helper *h;
    if ((b->armed == 0 && !c->armed) || b->closed || (h = helper_for(b)) == NULL) return guarded_quiet(c, fn, ctx);
    if (b->detail != NULL) forget_detail(b);
    b->depth++;
    enter_libjump(b);
    pthread_mutex_lock(&b->lock);
    h->job = &job;
    pthread_cond_signal(&h->ready);
    while (!job.done) {
        if (__atomic_load_n(&b->calls_queued, __ATOMIC_ACQUIRE) > 0) {
            pthread_mutex_unlock(&b->lock);
            __atomic_add_fetch(&b->progress, 1, __ATOMIC_RELEASE);
            pump(b, c->env, 1);
            pthread_mutex_lock(&b->lock);
            continue;
        }
        pthread_cond_wait(&b->changed, &b->lock);
    }
    pthread_mutex_unlock(&b->lock);
    leave_libjump(b);
    b->depth--;
    b->detail = job.detail;
    return job.status;
}

char *bridge_take_detail(napi_env env) {
    bridge *b = bridge_of(env);
    char *detail;
    if (b == NULL) return NULL;
    detail = b->detail;
    b->detail = NULL;
    return detail;
}

/* ---- another thread: waiting for the JS thread ------------------------------------------------------------ */

static void add_ms(struct timespec *t, long ms) {
    t->tv_nsec += (ms % 1000) * 1000000L;
    t->tv_sec += ms / 1000 + t->tv_nsec / 1000000000L;
    t->tv_nsec %= 1000000000L;
}

/* Queues call and waits for its answer; the call's status (JUMP_E_CANCELLED when the bridge is closed,
 * JUMP_E_BUSY when the JS thread is stuck inside a synchronous call). Drops the waiting thread's reference; the
 * answer's bytes, if any, are moved to *answer (the caller wipes and frees them). */
static jump_status wait_for_js(bridge *b, host_call *call, char **answer_out, size_t *length_out) {
    unsigned seen;
    int stuck = 0, last;
    jump_status status;
    pthread_mutex_lock(&b->lock);
    call->item.kind = ITEM_CALL;
    if (!enqueue_locked(b, &call->item)) {
        call->done = 1;
        call->status = JUMP_E_CANCELLED;
        call->refs--; /* the queue never took it */
    }
    seen = __atomic_load_n(&b->progress, __ATOMIC_ACQUIRE);
    while (!call->done) {
        struct timespec until;
        unsigned now;
        clock_gettime(CLOCK_MONOTONIC, &until);
        add_ms(&until, POLL_MS);
        pthread_cond_timedwait(&b->changed, &b->lock, &until);
        if (call->done) break;
        now = __atomic_load_n(&b->progress, __ATOMIC_ACQUIRE);
        if (__atomic_load_n(&b->in_sync, __ATOMIC_ACQUIRE) > 0 && now == seen) {
            if ((stuck += POLL_MS) < STUCK_MS) continue;
            call->done = 1;
            call->status = JUMP_E_BUSY;
            if (call->item.queued) { /* still queued: take it back, so the JS thread never runs it */
                bridge_item **at = &b->head, *before = NULL;
                while (*at != &call->item) {
                    before = *at;
                    at = &(*at)->next;
                }
                *at = call->item.next;
                if (b->tail == &call->item) b->tail = before;
                call->item.queued = 0;
                __atomic_sub_fetch(&b->calls_queued, 1, __ATOMIC_RELEASE);
                call->refs--;
            }
        } else {
            seen = now;
            stuck = 0;
        }
    }
    status = call->status;
    *answer_out = call->answer;
    *length_out = call->answer_length;
    call->answer = NULL;
    last = drop_call_locked(call);
    pthread_mutex_unlock(&b->lock);
    if (last) free_call(call);
    return status;
}

static host_call *new_call(bridge *b, host_kind kind, uint32_t id, const char *text, const char *data, size_t length) {
    host_call *call = calloc(1, sizeof *call);
    if (call == NULL) return NULL;
    call->kind = kind;
    call->id = id;
    call->refs = 2;
    if ((text != NULL && (call->text = strdup(text)) == NULL) ||
        (data != NULL && (call->data = malloc(length ? length : 1)) == NULL)) {
        free(call->text);
        free(call);
        return NULL;
    }
    if (data != NULL && length > 0) memcpy(call->data, data, length);
    call->length = length;
    bridge_ref(b);
    call->b = b;
    return call;
}

/* The handler id's answer to kind (the JS thread is not the caller); sink receives the answer's bytes. */
static jump_status call_there(bridge *b, host_kind kind, uint32_t id, const char *text, const char *data,
                              size_t length, jump_storage_sink sink, void *sink_context) {
    host_call *call = new_call(b, kind, id, text, data, length);
    char *bytes = NULL;
    size_t size = 0;
    jump_status status;
    if (call == NULL) return kind <= HOST_ERASE ? JUMP_E_STORAGE : JUMP_E_INTERNAL;
    status = wait_for_js(b, call, &bytes, &size);
    if (status == JUMP_OK && sink != NULL) {
        if (bytes != NULL) sink(sink_context, bytes, size);
        else if (kind == HOST_LOAD) status = JUMP_E_NOT_FOUND;
    }
    if (bytes != NULL) {
        memset(bytes, 0, size);
        free(bytes);
    }
    return status;
}

static jump_status host_call_from(host_userdata *h, host_kind kind, const char *text, const char *data,
                                  size_t length, jump_storage_sink sink, void *sink_context) {
    /* On the JS thread only where no JavaScript may run (guarded_quiet: a finalizer, the teardown); every other
     * call of the JS thread runs on a helper while the JS thread serves the queue. */
    if (pthread_equal(pthread_self(), h->b->js_thread)) return kind <= HOST_ERASE ? JUMP_E_STORAGE : JUMP_E_BUSY;
    return call_there(h->b, kind, h->id, text, data, length, sink, sink_context);
}

/* ---- libjump's callbacks ------------------------------------------------------------------------------------ */

static jump_status storage_load(void *context, const char *key, jump_storage_sink sink, void *sink_context) {
    return host_call_from(context, HOST_LOAD, key, NULL, 0, sink, sink_context);
}

static jump_status storage_save(void *context, const char *key, const char *data, size_t length) {
    return host_call_from(context, HOST_SAVE, key, data != NULL ? data : "", length, NULL, NULL);
}

static jump_status storage_erase(void *context, const char *key) {
    return host_call_from(context, HOST_ERASE, key, NULL, 0, NULL, NULL);
}

jump_status bridge_authenticate(void *userdata, const char *external_user_id, jump_storage_sink sink, void *sink_context) {
    return host_call_from(userdata, HOST_AUTHENTICATE, external_user_id, NULL, 0, sink, sink_context);
}

jump_status bridge_open_url(void *userdata, const char *url) {
    return host_call_from(userdata, HOST_OPEN_URL, url, NULL, 0, NULL, NULL);
}

static host_userdata *new_userdata(bridge *b, uint32_t id, int disarm) {
    host_userdata *h = calloc(1, sizeof *h);
    if (h == NULL) return NULL;
    bridge_ref(b);
    h->b = b;
    h->id = id;
    h->disarm = disarm;
    return h;
}

void *host_userdata_new(bridge *b, uint32_t id) {
    host_userdata *h = new_userdata(b, id, 1);
    if (h != NULL) bridge_arm(b, +1);
    return h;
}

void host_userdata_free(void *userdata) {
    host_userdata *h = userdata;
    if (h == NULL) return;
    post_release(h->b, h->id, h->disarm);
    bridge_unref(h->b);
    free(h);
}

jump_status bridge_set_storage(bridge *b, jump_config *config, uint32_t id) {
    host_userdata *h = new_userdata(b, id, 0);
    if (h == NULL) return JUMP_E_INTERNAL;
    /* context_free (host_userdata_free) runs once, also during this call when it fails */
    return jump_config_set_storage(config, storage_load, storage_save, storage_erase, h, host_userdata_free);
}

/* ---- the log sink -------------------------------------------------------------------------------------------- */

/* libjump's level of a log line: 0 debug, 1 info, 2 warning, 3 error (an unknown one counts as info). Read from
 * the text, so that the lines nobody wants are dropped here, before any allocation or wake-up. */
static int level_of(const char *json) {
    const char *at = strstr(json, "\"level\":\"");
    if (at == NULL) return 1;
    at += 9;
    if (strncmp(at, "debug\"", 6) == 0) return 0;
    if (strncmp(at, "warning\"", 8) == 0) return 2;
    if (strncmp(at, "error\"", 6) == 0) return 3;
    return 1;
}

static void log_callback(void *userdata, const char *json) {
    log_context *l = userdata;
    log_line *line;
    int queued;
    if (json == NULL || level_of(json) < l->min_level || (line = calloc(1, sizeof *line)) == NULL) return;
    if ((line->text = strdup(json)) == NULL) {
        free(line);
        return;
    }
    line->item.kind = ITEM_LOG;
    line->id = l->id;
    pthread_mutex_lock(&l->b->lock);
    queued = enqueue_locked(l->b, &line->item);
    pthread_mutex_unlock(&l->b->lock);
    if (!queued) {
        free(line->text);
        free(line);
    }
}

static void log_free(void *userdata) {
    log_context *l = userdata;
    pthread_mutex_lock(&log_lock);
    if (log_installed == l) log_installed = NULL;
    pthread_mutex_unlock(&log_lock);
    post_release(l->b, l->id, 0);
    bridge_unref(l->b);
    free(l);
}

jump_status bridge_set_log(bridge *b, uint32_t id, int min_level) {
    log_context *l;
    if (id == 0) return jump_set_log_callback(NULL, NULL, NULL); /* the previous one's log_free releases it */
    if ((l = calloc(1, sizeof *l)) == NULL) return JUMP_E_INTERNAL;
    bridge_ref(b);
    l->b = b;
    l->id = id;
    l->min_level = min_level;
    pthread_mutex_lock(&log_lock);
    log_installed = l;
    pthread_mutex_unlock(&log_lock);
    return jump_set_log_callback(log_callback, l, log_free);
}
