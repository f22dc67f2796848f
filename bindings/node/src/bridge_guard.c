/*
 * bridge_guard.c - the JS thread's calls into libjump, run on a helper thread while a libjump thread may wait
 * for JavaScript (guarded), and the failure detail such a call leaves.
 *
 * Layer 2 of 4 (bridge): calls only args.c (layer 1) and the other files of the bridge (bridge.h).
 */
#include "bridge.h"

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

/* The failure detail of the last guarded call that ran on a helper (jump_error_last() is per thread), or NULL;
 * the caller frees it. */
static char *bridge_take_detail(napi_env env) {
    bridge *b = bridge_of(env);
    char *detail;
    if (b == NULL) return NULL;
    detail = b->detail;
    b->detail = NULL;
    return detail;
}

/* status_error with the detail of the failed call (addon.h). */
napi_value failure(napi_env env, jump_status status) {
    char *helped = bridge_take_detail(env); /* the call ran on a helper, whose last error it is */
    napi_value error = status_error(env, status, helped != NULL ? helped : jump_error_last());
    free(helped);
    if (error == NULL) throw_napi(env, "cannot describe a failure");
    return error;
}

static jump_status run_client_free(void *client) {
    jump_client_free(client); /* in-flight requests are cancelled; lib/client.js rejects their promises */
    return JUMP_OK;
}

void free_jump_client(addon_client *c, jump_client *client, int quiet) {
    /* While libjump still has the client, a thread of its may wait for its JavaScript storage under its lock. */
    (quiet ? guarded_quiet : guarded)(c, run_client_free, client);
    c->armed = 0;
}
