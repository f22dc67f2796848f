/* test_async.c - asynchronous operations, callbacks, events, cancellation, host dispatchers. */
#include "harness.h"
#include "support.h"

#include <pthread.h>

static int start_fresh(void) {
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return 0;
    return CHECK_MSG(emu_reset() == 0, "POST /emulator/reset failed");
}

static long payload_status(json_t *payload) { return (long)json_integer_value(json_object_get(payload, "status")); }

static int is_completion(json_t *payload) {
    return json_str(payload, "kind") != NULL && strcmp(json_str(payload, "kind"), "completion") == 0 &&
           json_integer_value(json_object_get(payload, "version")) == 1;
}

TEST(sign_in_async_and_wait) {
    jump_client *client;
    jump_request *request = NULL;
    recorder r;
    char *email, *uuid;
    json_t *payload, *result;
    if (!start_fresh()) return;
    email = unique_email("async");
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    recorder_init(&r);
    REQUIRE_OK(J.client_sign_in_async(client, email, TEST_PASSWORD, recorder_callback, &r, recorder_free, &request));
    REQUIRE(request != NULL);
    CHECK_OK(J.request_wait(request, 15000));
    /* request_wait returns after the callback returned. */
    CHECK_EQ_INT(recorder_calls(&r), 1);
    payload = recorder_payload(&r, 0);
    CHECK_MSG(is_completion(payload), "not a completion payload");
    CHECK(json_str(payload, "operation") && strcmp(json_str(payload, "operation"), "sign_in") == 0);
    CHECK_EQ_INT(payload_status(payload), 0);
    result = json_object_get(payload, "result");
    CHECK_MSG(json_str(result, "uuid") && strcmp(json_str(result, "uuid"), uuid) == 0, "result.uuid");
    CHECK(json_is_false(json_object_get(result, "is_new")));
    json_decref(payload);
    CHECK_MSG(!pthread_equal(r.last_thread, pthread_self()), "the callback ran on the caller's thread");
    CHECK_MSG(recorder_wait_frees(&r, 1, 5000), "userdata_free did not run");
    sleep_ms(100);
    CHECK_EQ_INT(recorder_calls(&r), 1);
    CHECK_EQ_INT(recorder_frees(&r), 1);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    J.request_free(request);
    J.client_free(client);
    recorder_destroy(&r);
    free(email);
    free(uuid);
}

TEST(failed_start_still_calls_back_once) {
    jump_client *client;
    jump_request *request = (jump_request *)&request;
    recorder r;
    json_t *payload;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    recorder_init(&r);
    CHECK_STATUS(J.client_sign_in_async(client, NULL, TEST_PASSWORD, recorder_callback, &r, recorder_free, &request),
                 JUMP_E_INVALID_ARGUMENT);
    CHECK(request == NULL);
    CHECK_MSG(recorder_wait_calls(&r, 1, 5000), "no callback after a refused start");
    CHECK_MSG(recorder_wait_frees(&r, 1, 5000), "no userdata_free after a refused start");
    sleep_ms(100);
    CHECK_EQ_INT(recorder_calls(&r), 1);
    CHECK_EQ_INT(recorder_frees(&r), 1);
    payload = recorder_payload(&r, 0);
    CHECK(is_completion(payload));
    CHECK_EQ_INT(payload_status(payload), JUMP_E_INVALID_ARGUMENT);
    CHECK(json_is_object(json_object_get(payload, "error")));
    json_decref(payload);
    J.client_free(client);
    recorder_destroy(&r);
}

TEST(failing_operation_reports_error_in_payload) {
    jump_client *client;
    jump_request *request = NULL;
    recorder r;
    json_t *payload, *error;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    recorder_init(&r);
    REQUIRE_OK(J.client_sign_in_async(client, "nobody@example.com", "wrong-password", recorder_callback, &r,
                                      recorder_free, &request));
    CHECK_OK(J.request_wait(request, 15000));
    payload = recorder_payload(&r, 0);
    CHECK_EQ_INT(payload_status(payload), JUMP_E_BAD_CREDENTIALS);
    error = json_object_get(payload, "error");
    CHECK_MSG(json_is_object(error) && json_integer_value(json_object_get(error, "status")) == JUMP_E_BAD_CREDENTIALS &&
                  json_str(error, "message") != NULL,
              "the payload's error detail is incomplete");
    CHECK_MSG(!recorder_contains(&r, "wrong-password"), "the payload contains the password");
    json_decref(payload);
    J.request_free(request);
    J.client_free(client);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
}

TEST(register_fetch_and_sync_async) {
    jump_client *client;
    jump_request *request = NULL;
    jump_record *record = NULL;
    recorder reg, fetch, sync;
    char *email = unique_email("asyncreg"), attributes[300];
    json_t *payload, *result;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    recorder_init(&reg);
    recorder_init(&fetch);
    recorder_init(&sync);
    snprintf(attributes, sizeof attributes, "{\"email\":\"%s\",\"givenName\":\"Async\"}", email);
    REQUIRE_OK(J.client_register_traditional_async(client, attributes, "password123", recorder_callback, &reg,
                                                   recorder_free, &request));
    CHECK_OK(J.request_wait(request, 15000));
    J.request_free(request);
    payload = recorder_payload(&reg, 0);
    CHECK_EQ_INT(payload_status(payload), 0);
    result = json_object_get(payload, "result");
    CHECK(json_is_true(json_object_get(result, "is_new")) && json_str(result, "uuid") != NULL);
    json_decref(payload);

    REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &fetch, recorder_free, &request));
    CHECK_OK(J.request_wait(request, 15000));
    J.request_free(request);
    payload = recorder_payload(&fetch, 0);
    CHECK_EQ_INT(payload_status(payload), 0);
    CHECK_MSG(json_is_object(json_object_get(payload, "result")) &&
                  json_object_size(json_object_get(payload, "result")) == 0,
              "fetch_record_async result is not {}");
    json_decref(payload);

    REQUIRE_OK(J.client_record(client, &record));
    CHECK_OK(J.record_set_string(record, "/aboutMe", "async sync"));
    REQUIRE_OK(J.client_sync_async(client, recorder_callback, &sync, recorder_free, &request));
    CHECK_OK(J.request_wait(request, 15000));
    J.request_free(request);
    payload = recorder_payload(&sync, 0);
    CHECK_EQ_INT(payload_status(payload), 0);
    result = json_object_get(payload, "result");
    CHECK_MSG(json_array_has_string(json_object_get(result, "changed"), "/aboutMe") &&
                  json_integer_value(json_object_get(result, "requests")) == 1,
              "sync_async result does not describe the sync");
    json_decref(payload);

    J.record_free(record);
    J.client_free(client);
    CHECK(recorder_wait_frees(&reg, 1, 5000) && recorder_wait_frees(&fetch, 1, 5000) &&
          recorder_wait_frees(&sync, 1, 5000));
    recorder_destroy(&reg);
    recorder_destroy(&fetch);
    recorder_destroy(&sync);
    free(email);
}

TEST(cancel_during_slow_request) {
    jump_client *client;
    jump_request *request = NULL;
    recorder r;
    char *uuid;
    json_t *payload;
    double start, elapsed;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&r);
    CHECK(emu_fault("delay", 1, "/entity", 3000) == 0);
    start = now_ms();
    REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &r, recorder_free, &request));
    sleep_ms(300);
    CHECK_OK(J.request_cancel(request));
    CHECK_OK(J.request_wait(request, 15000));
    elapsed = now_ms() - start;
    payload = recorder_payload(&r, 0);
    CHECK_MSG(payload_status(payload) == JUMP_E_CANCELLED, "status after cancel: %ld", payload_status(payload));
    json_decref(payload);
    if (elapsed >= 2900) harness_note("cancellation took %.0f ms (the server delay was 3000 ms)", elapsed);
    CHECK_EQ_INT(recorder_calls(&r), 1);
    /* Cancelling again, or after the end, is harmless. */
    CHECK_OK(J.request_cancel(request));
    J.request_free(request);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    sleep_ms(100);
    J.client_free(client);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    free(uuid);
}

TEST(request_wait_times_out_then_completes) {
    jump_client *client;
    jump_request *request = NULL;
    recorder r;
    char *uuid;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&r);
    CHECK(emu_fault("delay", 1, "/entity", 1500) == 0);
    REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &r, recorder_free, &request));
    CHECK_STATUS(J.request_wait(request, 100), JUMP_E_TIMEOUT);
    CHECK_EQ_INT(recorder_calls(&r), 0);
    CHECK_OK(J.request_wait(request, -1));
    CHECK_EQ_INT(recorder_calls(&r), 1);
    J.request_free(request);
    J.client_free(client);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    free(uuid);
}

TEST(request_free_before_completion) {
    jump_client *client;
    jump_request *request = NULL;
    recorder r;
    char *uuid;
    json_t *payload;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&r);
    CHECK(emu_fault("delay", 1, "/entity", 500) == 0);
    REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &r, recorder_free, &request));
    J.request_free(request);
    CHECK_MSG(recorder_wait_calls(&r, 1, 10000), "the callback did not run after jump_request_free");
    payload = recorder_payload(&r, 0);
    CHECK_EQ_INT(payload_status(payload), 0);
    json_decref(payload);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    J.client_free(client);
    recorder_destroy(&r);
    free(uuid);
}

/* ---- jump_request_wait inside a callback -------------------------------------------------------------- */

typedef struct nested {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    jump_request *request;
    jump_client *client;
    int ready;
    jump_status wait_status, wait_zero_status;
    int signed_in_seen;
    char *state;
} nested;

static void nested_hook(recorder *r, const char *json) {
    nested *n = r->hook_data;
    char *state = NULL;
    (void)json;
    pthread_mutex_lock(&n->mutex);
    {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 5;
        while (!n->ready)
            if (pthread_cond_timedwait(&n->cond, &n->mutex, &deadline) != 0) break;
    }
    pthread_mutex_unlock(&n->mutex);
    n->wait_status = J.request_wait(n->request, 2000);
    n->wait_zero_status = J.request_wait(n->request, 0);
    /* Other calls are allowed in a callback. */
    n->signed_in_seen = J.client_is_signed_in(n->client);
    if (J.client_state(n->client, &state) == JUMP_OK) {
        n->state = strdup(state);
        J.string_free(state);
    }
}

TEST(wait_inside_callback_is_busy) {
    jump_client *client;
    recorder r;
    nested n;
    char *uuid;
    double start;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    memset(&n, 0, sizeof n);
    pthread_mutex_init(&n.mutex, NULL);
    pthread_cond_init(&n.cond, NULL);
    n.client = client;
    n.wait_status = n.wait_zero_status = JUMP_E_INTERNAL;
    recorder_init(&r);
    r.hook = nested_hook;
    r.hook_data = &n;
    start = now_ms();
    REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &r, recorder_free, &n.request));
    pthread_mutex_lock(&n.mutex);
    n.ready = 1;
    pthread_cond_broadcast(&n.cond);
    pthread_mutex_unlock(&n.mutex);
    CHECK_MSG(recorder_wait_calls(&r, 1, 15000), "the callback did not finish (deadlocked in jump_request_wait?)");
    CHECK_MSG(n.wait_status == JUMP_E_BUSY, "jump_request_wait(2000) inside a callback returned %d (%s)",
              (int)n.wait_status, harness_status_name(n.wait_status));
    CHECK_MSG(n.wait_zero_status == JUMP_E_BUSY, "jump_request_wait(0) inside a callback returned %d",
              (int)n.wait_zero_status);
    CHECK_MSG(now_ms() - start < 1900, "jump_request_wait in a callback blocked instead of returning BUSY");
    CHECK_EQ_INT(n.signed_in_seen, 1);
    CHECK_MSG(n.state != NULL, "jump_client_state failed inside a callback");
    CHECK_OK(J.request_wait(n.request, 5000));
    J.request_free(n.request);
    J.client_free(client);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    free(n.state);
    free(uuid);
}

/* ---- events ------------------------------------------------------------------------------------------ */

static int wait_for_event(recorder *r, const char *name, int timeout_ms) {
    double deadline = now_ms() + timeout_ms;
    int index;
    while ((index = recorder_find(r, 0, "event", name)) < 0 && now_ms() < deadline) sleep_ms(20);
    return index;
}

TEST(events_in_order) {
    jump_client *client;
    jump_record *record = NULL;
    recorder events;
    char *uuid;
    int signed_in, fetched, synced, signed_out, i;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    recorder_init(&events);
    CHECK_OK(J.client_set_event_callback(client, recorder_callback, &events, recorder_free));
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    CHECK_OK(J.client_fetch_record(client));
    REQUIRE_OK(J.client_record(client, &record));
    CHECK_OK(J.record_set_string(record, "/aboutMe", "events"));
    CHECK_OK(J.client_sync(client, NULL));
    J.record_free(record);
    CHECK_OK(J.client_sign_out(client));
    signed_out = wait_for_event(&events, "signed_out", 5000);
    signed_in = recorder_find(&events, 0, "event", "signed_in");
    fetched = recorder_find(&events, 0, "event", "record_fetched");
    synced = recorder_find(&events, 0, "event", "record_synced");
    CHECK_MSG(signed_in >= 0, "no signed_in event");
    CHECK_MSG(fetched >= 0, "no record_fetched event");
    CHECK_MSG(synced >= 0, "no record_synced event");
    CHECK_MSG(signed_out >= 0, "no signed_out event");
    CHECK_MSG(signed_in < fetched && fetched < synced && synced < signed_out,
              "events out of order: signed_in #%d, record_fetched #%d, record_synced #%d, signed_out #%d", signed_in,
              fetched, synced, signed_out);
    for (i = 0; i < recorder_count(&events); i++) {
        json_t *event = recorder_payload(&events, i);
        CHECK_MSG(json_str(event, "kind") && strcmp(json_str(event, "kind"), "event") == 0 &&
                      json_integer_value(json_object_get(event, "version")) == 1,
                  "event #%d is not {\"version\":1,\"kind\":\"event\"}", i);
        if (i <= signed_out && json_str(event, "event") && strcmp(json_str(event, "event"), "signed_out") != 0)
            CHECK_MSG(json_str(event, "uuid") && strcmp(json_str(event, "uuid"), uuid) == 0, "event #%d uuid", i);
        json_decref(event);
    }
    CHECK_MSG(!pthread_equal(events.last_thread, pthread_self()), "events ran on the caller's thread");
    CHECK_EQ_INT(events.max_active, 1);
    J.client_free(client);
    CHECK_MSG(recorder_wait_frees(&events, 1, 5000), "client_free did not run the event userdata_free");
    sleep_ms(50);
    CHECK_EQ_INT(recorder_frees(&events), 1);
    recorder_destroy(&events);
    free(uuid);
}

TEST(event_callback_replaced_and_removed) {
    jump_client *client;
    recorder a, b;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    recorder_init(&a);
    recorder_init(&b);
    CHECK_OK(J.client_set_event_callback(client, recorder_callback, &a, recorder_free));
    CHECK_OK(J.client_set_event_callback(client, recorder_callback, &b, recorder_free));
    CHECK_MSG(recorder_wait_frees(&a, 1, 5000), "replacing the event callback did not free the old userdata");
    CHECK_OK(J.client_set_event_callback(client, NULL, NULL, NULL));
    CHECK_MSG(recorder_wait_frees(&b, 1, 5000), "removing the event callback did not free its userdata");
    free(sign_in_new_user(client, NULL, NULL));
    sleep_ms(200);
    CHECK_MSG(recorder_calls(&a) == 0 && recorder_calls(&b) == 0, "a removed event callback was called");
    J.client_free(client);
    sleep_ms(50);
    CHECK_EQ_INT(recorder_frees(&a), 1);
    CHECK_EQ_INT(recorder_frees(&b), 1);
    recorder_destroy(&a);
    recorder_destroy(&b);
}

TEST(callbacks_serialized_per_client) {
    jump_client *client;
    jump_request *requests[6];
    recorder r;
    char *uuid;
    int i;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&r);
    r.hold_ms = 40;
    for (i = 0; i < 6; i++) {
        requests[i] = NULL;
        CHECK_OK(J.client_fetch_record_async(client, recorder_callback, &r, NULL, &requests[i]));
    }
    CHECK_MSG(recorder_wait_calls(&r, 6, 20000), "only %d of 6 callbacks ran", recorder_calls(&r));
    CHECK_MSG(r.max_active == 1, "%d callbacks of one client ran at the same time", r.max_active);
    for (i = 0; i < 6; i++) J.request_free(requests[i]);
    J.client_free(client);
    recorder_destroy(&r);
    free(uuid);
}

TEST(client_free_cancels_in_flight) {
    jump_client *client;
    jump_request *request = NULL;
    recorder r;
    char *uuid;
    json_t *payload;
    if (!start_fresh()) return;
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&r);
    CHECK(emu_fault("delay", 1, "/entity", 2500) == 0);
    REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &r, recorder_free, &request));
    sleep_ms(200);
    J.client_free(client);
    CHECK_MSG(recorder_wait_calls(&r, 1, 10000), "the in-flight callback never ran after jump_client_free");
    payload = recorder_payload(&r, 0);
    CHECK_MSG(payload_status(payload) == JUMP_E_CANCELLED, "status %ld after jump_client_free, expected %d",
              payload_status(payload), JUMP_E_CANCELLED);
    json_decref(payload);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    CHECK_OK(J.request_wait(request, 5000));
    sleep_ms(2500);
    CHECK_EQ_INT(recorder_calls(&r), 1);
    CHECK_EQ_INT(recorder_frees(&r), 1);
    J.request_free(request);
    recorder_destroy(&r);
    free(uuid);
}

/* ---- host dispatcher --------------------------------------------------------------------------------- */

typedef struct job_queue {
    pthread_mutex_t mutex;
    void (*jobs[256])(void *);
    void *args[256];
    int head, tail, posted;
    int running; /* 1 while the host runs jobs */
} job_queue;

static void host_dispatch(void *context, void (*job)(void *), void *arg) {
    job_queue *q = context;
    pthread_mutex_lock(&q->mutex);
    if (q->tail < 256) {
        q->jobs[q->tail] = job;
        q->args[q->tail] = arg;
        q->tail++;
    }
    q->posted++;
    pthread_mutex_unlock(&q->mutex);
}

static int run_jobs(job_queue *q) {
    int ran = 0;
    for (;;) {
        void (*job)(void *) = NULL;
        void *arg = NULL;
        pthread_mutex_lock(&q->mutex);
        if (q->head < q->tail) {
            job = q->jobs[q->head];
            arg = q->args[q->head];
            q->head++;
        }
        pthread_mutex_unlock(&q->mutex);
        if (job == NULL) return ran;
        q->running = 1;
        job(arg);
        q->running = 0;
        ran++;
    }
}

typedef struct dispatch_probe {
    job_queue *queue;
    int outside_jobs; /* callbacks seen while the host was not running a job */
} dispatch_probe;

static void dispatch_hook(recorder *r, const char *json) {
    dispatch_probe *p = r->hook_data;
    (void)json;
    if (!p->queue->running) p->outside_jobs++;
}

TEST(host_dispatcher_delivers_on_host_thread) {
    jump_client *client;
    job_queue q;
    recorder r;
    dispatch_probe probe;
    char *email, *uuid;
    double deadline;
    if (!start_fresh()) return;
    email = unique_email("dispatch");
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    memset(&q, 0, sizeof q);
    pthread_mutex_init(&q.mutex, NULL);
    probe.queue = &q;
    probe.outside_jobs = 0;
    recorder_init(&r);
    r.hook = dispatch_hook;
    r.hook_data = &probe;
    CHECK_OK(J.client_set_dispatcher(client, host_dispatch, &q));
    REQUIRE_OK(J.client_sign_in_async(client, email, TEST_PASSWORD, recorder_callback, &r, recorder_free, NULL));
    deadline = now_ms() + 15000;
    while (recorder_calls(&r) == 0 && now_ms() < deadline) {
        run_jobs(&q);
        sleep_ms(5);
    }
    CHECK_MSG(recorder_calls(&r) == 1, "the callback was not delivered through the dispatcher");
    CHECK_MSG(q.posted >= 1, "the dispatcher received no job");
    CHECK_MSG(pthread_equal(r.last_thread, pthread_self()), "the callback did not run on the host thread");
    CHECK_MSG(probe.outside_jobs == 0, "a callback ran outside the host's jobs");
    {
        json_t *payload = recorder_payload(&r, 0);
        CHECK_EQ_INT(payload_status(payload), 0);
        json_decref(payload);
    }
    /* Back to libjump's own thread. */
    CHECK_OK(J.client_set_dispatcher(client, NULL, NULL));
    run_jobs(&q);
    {
        recorder own;
        jump_request *request = NULL;
        int posted = q.posted;
        recorder_init(&own);
        REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &own, recorder_free, &request));
        CHECK_OK(J.request_wait(request, 15000));
        CHECK_EQ_INT(recorder_calls(&own), 1);
        CHECK(!pthread_equal(own.last_thread, pthread_self()));
        CHECK_EQ_INT(q.posted, posted);
        J.request_free(request);
        J.client_free(client);
        CHECK(recorder_wait_frees(&own, 1, 5000));
        recorder_destroy(&own);
    }
    run_jobs(&q);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    free(email);
    free(uuid);
}
