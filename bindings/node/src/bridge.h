/*
 * bridge.h - what the files of the bridge share (bridge.c: the environment's bridge and its queue; bridge_js.c:
 * the JS thread running what is queued; bridge_guard.c: the JS thread's calls into libjump; bridge_host.c:
 * libjump's callbacks waiting for the JS thread, and the log sink). Private to them: the other files of the
 * addon see the bridge through addon.h alone.
 */
#ifndef JUMP_ADDON_BRIDGE_H
#define JUMP_ADDON_BRIDGE_H

#include "addon.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Helper threads: one per nesting level of guarded calls (a host call run while the JS thread waits may itself
 * call libjump); deeper than this, calls run on the JS thread itself, with the STUCK_MS escape. */
#define MAX_HELPERS 4


typedef enum host_kind { HOST_LOAD, HOST_SAVE, HOST_ERASE, HOST_AUTHENTICATE, HOST_OPEN_URL } host_kind;

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

extern pthread_mutex_t log_lock;
extern log_context *log_installed; /* the context libjump holds now (the one process-wide log callback) */

/* bridge.c */
void free_call(host_call *call);
/* Drops one reference of call; the bridge's lock is held. Returns 1 when call is to be freed (after unlocking:
 * free_call takes the lock). */
int drop_call_locked(host_call *call);
int enqueue_locked(bridge *b, bridge_item *item);
bridge_item *take_locked(bridge *b, int calls_only);
void post_release(bridge *b, uint32_t id, int disarm);
/* bridge_js.c: drains the queue (calls_only: the host calls alone, for guarded()), at most a batch. */
void pump(bridge *b, napi_env env, int calls_only);

#endif
