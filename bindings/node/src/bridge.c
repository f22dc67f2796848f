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
 *
 * Layer 2 of 4 (bridge): calls only args.c (layer 1) and the other files of the bridge (bridge.h).
 */
#include "bridge.h"

pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
log_context *log_installed; /* the context libjump holds now (the one process-wide log callback) */

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

void free_call(host_call *call) {
    if (call->data != NULL) memset(call->data, 0, call->length);
    if (call->answer != NULL) memset(call->answer, 0, call->answer_length);
    free(call->text);
    free(call->data);
    free(call->answer);
    bridge_unref(call->b);
    free(call);
}

int drop_call_locked(host_call *call) { return --call->refs == 0; }

/* Appends item and wakes the loop if the queue was empty (a pump drains it all, or wakes itself again). The lock
 * is held. 0 when the bridge is closed. */
int enqueue_locked(bridge *b, bridge_item *item) {
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
bridge_item *take_locked(bridge *b, int calls_only) {
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
void post_release(bridge *b, uint32_t id, int disarm) {
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
            item->orphan(item);
        }
    }
    pthread_mutex_lock(&log_lock);
    ours = log_installed != NULL && log_installed->b == b;
    pthread_mutex_unlock(&log_lock);
    if (ours) jump_set_log_callback(NULL, NULL, NULL); /* lines would only be dropped here from now on */
}

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

int bridge_post_work(bridge *b, bridge_item *item, work_complete_fn complete, work_orphan_fn orphan) {
    int queued;
    item->kind = ITEM_WORK;
    item->complete = complete;
    item->orphan = orphan;
    pthread_mutex_lock(&b->lock);
    queued = enqueue_locked(b, item);
    pthread_mutex_unlock(&b->lock);
    return queued;
}
