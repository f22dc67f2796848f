/* test_event_queue.c - queue mode (jump_client_use_event_queue): completions and events wait for the host to
 * pump them on its own thread; the queue's fd is readable exactly while something waits; no host function is
 * entered from another thread. */
#include "harness.h"
#include "support.h"

#include <poll.h>
#include <pthread.h>

/* Host functions record the thread they run on; any other than the pumping thread is a failure. */
typedef struct host_calls {
    pthread_t pump;
    int callbacks, frees, events, elsewhere;
} host_calls;

static void host_callback(void *userdata, const char *json) {
    host_calls *h = userdata;
    (void)json;
    h->callbacks++;
    if (!pthread_equal(pthread_self(), h->pump)) h->elsewhere++;
}

static void host_free(void *userdata) {
    host_calls *h = userdata;
    h->frees++;
    if (!pthread_equal(pthread_self(), h->pump)) h->elsewhere++;
}

static void host_event(void *userdata, const char *json) {
    host_calls *h = userdata;
    (void)json;
    h->events++;
    if (!pthread_equal(pthread_self(), h->pump)) h->elsewhere++;
}

static int readable(int fd, int timeout_ms) {
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

/* Pops one document (new reference) or NULL when none waits. */
static json_t *pop(jump_client *client) {
    char *text = NULL;
    jump_status status = J.client_next_event(client, &text);
    if (status == JUMP_E_NOT_FOUND) return NULL;
    if (!CHECK_OK(status)) return NULL;
    return take_json(text);
}

TEST(completions_and_events_wait_for_the_pump) {
    jump_client *client;
    jump_request *requests[3] = {NULL, NULL, NULL};
    uint64_t ids[3] = {0, 0, 0};
    int seen[3] = {0, 0, 0}, events = 0, fd = -1, i, spins;
    host_calls h;
    char *uuid;
    json_t *doc;
    REQUIRE_EMULATOR();
    memset(&h, 0, sizeof h);
    h.pump = pthread_self();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    CHECK_OK(J.client_set_event_callback(client, host_event, &h, NULL));

    /* Outside queue mode there is nothing to pump. */
    CHECK_STATUS(J.client_event_fd(client, &fd), JUMP_E_UNSUPPORTED);
    CHECK_EQ_INT(fd, -1);
    CHECK_STATUS(J.client_next_event(client, NULL), JUMP_E_INVALID_ARGUMENT);
    {
        char *text = NULL;
        CHECK_STATUS(J.client_next_event(client, &text), JUMP_E_UNSUPPORTED);
    }

    REQUIRE_OK(J.client_use_event_queue(client, 1));
    REQUIRE_OK(J.client_event_fd(client, &fd));
    REQUIRE(fd >= 0);
    CHECK_MSG(!readable(fd, 0), "the fd is readable with nothing queued");
    CHECK(pop(client) == NULL);

    /* Two completions without a callback (matched by request id), one with a callback and userdata_free. */
    REQUIRE_OK(J.client_fetch_record_async(client, NULL, NULL, NULL, &requests[0]));
    REQUIRE_OK(J.client_fetch_record_async(client, NULL, NULL, NULL, &requests[1]));
    REQUIRE_OK(J.client_sync_async(client, host_callback, &h, host_free, &requests[2]));
    for (i = 0; i < 3; i++) {
        CHECK_OK(J.request_id(requests[i], &ids[i]));
        CHECK(ids[i] != 0);
        /* Waiting on the pumping thread does not wait for its own pumping. */
        CHECK_OK(J.request_wait(requests[i], 15000));
    }
    CHECK(ids[0] != ids[1] && ids[1] != ids[2]);
    CHECK_MSG(readable(fd, 0), "three completions wait and the fd is not readable");
    CHECK_EQ_INT(h.callbacks, 0); /* nothing ran before the pump */

    for (spins = 0; spins < 100 && (seen[0] + seen[1] + seen[2] < 3 || events < 1); spins++) {
        while ((doc = pop(client)) != NULL) {
            const char *kind = json_str(doc, "kind");
            if (kind && strcmp(kind, "completion") == 0) {
                uint64_t id = (uint64_t)json_integer_value(json_object_get(doc, "request_id"));
                CHECK_EQ_INT(json_integer_value(json_object_get(doc, "status")), 0);
                for (i = 0; i < 3; i++)
                    if (id == ids[i]) seen[i]++;
            } else if (kind && strcmp(kind, "event") == 0) {
                events++;
            }
            json_decref(doc);
        }
        CHECK_MSG(!readable(fd, 0), "the fd stays readable with the queue drained");
        if (seen[0] + seen[1] + seen[2] < 3 || events < 1) readable(fd, 100);
    }
    for (i = 0; i < 3; i++) CHECK_MSG(seen[i] == 1, "completion %d delivered %d times", i, seen[i]);
    CHECK_MSG(events >= 1, "no record_fetched event was queued");
    /* The callback given anyway ran inside jump_client_next_event, with its userdata_free, once each. */
    CHECK_EQ_INT(h.callbacks, 1);
    CHECK_EQ_INT(h.frees, 1);
    CHECK_EQ_INT(h.events, 0); /* the event callback is not used in queue mode */

    /* An event queued makes the fd readable; the pump takes it and the fd goes quiet. */
    CHECK_OK(J.client_sign_out(client));
    CHECK_MSG(readable(fd, 5000), "signed_out was not queued");
    doc = pop(client);
    CHECK_MSG(doc != NULL && json_str(doc, "event") && strcmp(json_str(doc, "event"), "signed_out") == 0,
              "expected the signed_out event");
    json_decref(doc);
    CHECK(!readable(fd, 0));
    CHECK_EQ_INT(h.elsewhere, 0);

    for (i = 0; i < 3; i++) J.request_free(requests[i]);
    free(uuid);
    J.client_free(client);
    CHECK_EQ_INT(h.elsewhere, 0);
}

TEST(turning_queue_mode_off_sends_what_waits_to_the_callbacks) {
    jump_client *client;
    recorder events;
    char *uuid;
    int fd = -1;
    REQUIRE_EMULATOR();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&events);
    CHECK_OK(J.client_set_event_callback(client, recorder_callback, &events, NULL));
    REQUIRE_OK(J.client_use_event_queue(client, 1));
    REQUIRE_OK(J.client_event_fd(client, &fd));
    CHECK_OK(J.client_sign_out(client));
    CHECK(readable(fd, 5000));
    CHECK_EQ_INT(recorder_calls(&events), 0);
    CHECK_OK(J.client_use_event_queue(client, 0));
    CHECK_MSG(recorder_wait_calls(&events, 1, 5000), "the queued signed_out never reached the callback");
    CHECK(recorder_find(&events, 0, "event", "signed_out") >= 0);
    CHECK_STATUS(J.client_event_fd(client, &fd), JUMP_E_UNSUPPORTED);
    CHECK_STATUS(J.client_use_event_queue(client, 2), JUMP_E_INVALID_ARGUMENT);
    free(uuid);
    J.client_free(client);
    recorder_destroy(&events);
}

TEST(queue_calls_refuse_bad_handles) {
    int fd = 7;
    char *text = NULL;
    uint64_t id = 9;
    CHECK_STATUS(J.client_use_event_queue(NULL, 1), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_event_fd(NULL, &fd), JUMP_E_INVALID_HANDLE);
    CHECK_EQ_INT(fd, -1);
    CHECK_STATUS(J.client_next_event(NULL, &text), JUMP_E_INVALID_HANDLE);
    CHECK(text == NULL);
    CHECK_STATUS(J.request_id(NULL, &id), JUMP_E_INVALID_HANDLE);
    CHECK(id == 0);
}
