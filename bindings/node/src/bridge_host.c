/*
 * bridge_host.c - libjump's callbacks (host storage, authenticate, openUrl) waiting on their thread for the
 * JS thread's answer, and the log sink, whose lines never wait.
 *
 * Layer 2 of 4 (bridge): calls only args.c (layer 1) and the other files of the bridge (bridge.h).
 */
#include "bridge.h"

#define STUCK_MS 250
#define POLL_MS 50

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
