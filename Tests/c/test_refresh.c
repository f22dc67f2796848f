/* test_refresh.c - access-token expiry, transparent single-flight refresh, token_refreshed events. */
#include "harness.h"
#include "support.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <unistd.h>

#define REFRESH_COUNTER "POST /oauth/refresh_access_token"

static jump_client *signed_in_client(const char *extra, char **uuid) {
    jump_client *client;
    *uuid = NULL;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return NULL;
    if (!CHECK_MSG(emu_reset() == 0, "POST /emulator/reset failed")) return NULL;
    client = new_client(NULL, extra);
    if (client == NULL) return NULL;
    *uuid = sign_in_new_user(client, NULL, NULL);
    if (*uuid == NULL) {
        J.client_free(client);
        return NULL;
    }
    return client;
}

static char *token_of(jump_client *client) {
    char *token = NULL, *copy;
    if (!CHECK_OK(J.client_access_token(client, &token))) return NULL;
    copy = token != NULL ? strdup(token) : NULL;
    J.string_free(token);
    return copy;
}

TEST(expired_token_refreshed_once_on_fetch) {
    char *uuid, *before, *after;
    jump_client *client = signed_in_client(NULL, &uuid);
    REQUIRE(client != NULL);
    before = token_of(client);
    CHECK(before != NULL && before[0] != '\0');
    CHECK(emu_advance_clock(7200) == 0);
    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_fetch_record(client));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    after = token_of(client);
    CHECK_MSG(after != NULL && before != NULL && strcmp(before, after) != 0, "the access token did not change");
    /* The refreshed token works: another call needs no further refresh. */
    CHECK_OK(J.client_fetch_record(client));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    free(before);
    free(after);
    free(uuid);
    J.client_free(client);
}

TEST(sync_after_expiry_refreshes_and_sends) {
    char *uuid;
    jump_client *client = signed_in_client(NULL, &uuid);
    jump_record *record = NULL;
    json_t *user;
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_record(client, &record));
    CHECK_OK(J.record_set_string(record, "/aboutMe", "after expiry"));
    CHECK(emu_advance_clock(7200) == 0);
    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_sync(client, NULL));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    user = emu_get_user(uuid, NULL);
    CHECK(json_str(user, "aboutMe") && strcmp(json_str(user, "aboutMe"), "after expiry") == 0);
    json_decref(user);
    J.record_free(record);
    free(uuid);
    J.client_free(client);
}

TEST(token_refreshed_event) {
    char *uuid;
    jump_client *client = signed_in_client(NULL, &uuid);
    recorder events;
    int index;
    REQUIRE(client != NULL);
    recorder_init(&events);
    CHECK_OK(J.client_set_event_callback(client, recorder_callback, &events, recorder_free));
    CHECK(emu_advance_clock(7200) == 0);
    CHECK_OK(J.client_fetch_record(client));
    index = -1;
    {
        double deadline = now_ms() + 5000;
        while ((index = recorder_find(&events, 0, "event", "token_refreshed")) < 0 && now_ms() < deadline) sleep_ms(20);
    }
    CHECK_MSG(index >= 0, "no token_refreshed event (%d events)", recorder_count(&events));
    if (index >= 0) {
        json_t *event = recorder_payload(&events, index);
        CHECK(json_str(event, "kind") && strcmp(json_str(event, "kind"), "event") == 0);
        CHECK_EQ_INT(json_integer_value(json_object_get(event, "version")), 1);
        CHECK_MSG(json_str(event, "uuid") && strcmp(json_str(event, "uuid"), uuid) == 0, "event uuid");
        json_decref(event);
    }
    J.client_free(client);
    CHECK(recorder_wait_frees(&events, 1, 5000));
    recorder_destroy(&events);
    free(uuid);
}

typedef struct crowd {
    jump_client *client;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int waiting, go;
    jump_status results[16];
} crowd;

typedef struct crowd_member {
    crowd *c;
    int index;
} crowd_member;

static void *crowd_fetch(void *arg) {
    crowd_member *m = arg;
    crowd *c = m->c;
    pthread_mutex_lock(&c->mutex);
    c->waiting++;
    pthread_cond_broadcast(&c->cond);
    while (!c->go) pthread_cond_wait(&c->cond, &c->mutex);
    pthread_mutex_unlock(&c->mutex);
    c->results[m->index] = J.client_fetch_record(c->client);
    return NULL;
}

/* Starts n threads that each fetch the record once all are waiting, then lets them go at once. */
static int crowd_start(crowd *c, crowd_member *members, pthread_t *threads, int n) {
    int i;
    for (i = 0; i < n; i++) {
        members[i].c = c;
        members[i].index = i;
        c->results[i] = JUMP_E_INTERNAL;
        if (pthread_create(&threads[i], NULL, crowd_fetch, &members[i]) != 0) return 0;
    }
    pthread_mutex_lock(&c->mutex);
    while (c->waiting < n) pthread_cond_wait(&c->cond, &c->mutex);
    c->go = 1;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->mutex);
    return 1;
}

TEST(sixteen_threads_one_refresh) {
    char *uuid;
    crowd c;
    crowd_member members[16];
    pthread_t threads[16];
    int i;
    memset(&c, 0, sizeof c);
    c.client = signed_in_client(NULL, &uuid);
    REQUIRE(c.client != NULL);
    pthread_mutex_init(&c.mutex, NULL);
    pthread_cond_init(&c.cond, NULL);
    CHECK(emu_advance_clock(7200) == 0);
    CHECK(emu_clear_counters() == 0);
    REQUIRE(crowd_start(&c, members, threads, 16));
    for (i = 0; i < 16; i++) pthread_join(threads[i], NULL);
    for (i = 0; i < 16; i++)
        CHECK_MSG(c.results[i] == JUMP_OK, "thread %d: fetch_record returned %d (%s)", i, (int)c.results[i],
                  harness_status_name(c.results[i]));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    CHECK_EQ_INT(J.client_is_signed_in(c.client), 1);
    free(uuid);
    J.client_free(c.client);
}

TEST(access_token_and_explicit_refresh) {
    char *uuid, *first, *second;
    jump_client *client = signed_in_client(NULL, &uuid);
    json_t *state;
    REQUIRE(client != NULL);
    first = token_of(client);
    CHECK(first != NULL && strlen(first) > 0);
    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_refresh_access_token(client));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    second = token_of(client);
    CHECK_MSG(first != NULL && second != NULL && strcmp(first, second) != 0,
              "jump_client_refresh_access_token did not change the token");
    /* A valid token is returned as is: no extra request. */
    free(token_of(client));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    state = get_state(client);
    CHECK(json_is_number(json_object_get(state, "access_token_expires_at")));
    json_decref(state);
    /* The refreshed token is accepted by the server. */
    CHECK_OK(J.client_fetch_record(client));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    free(first);
    free(second);
    free(uuid);
    J.client_free(client);
}

TEST(access_token_refreshes_within_the_margin) {
    char *uuid, *token;
    jump_client *client;
    /* A margin longer than the token's one-hour life: the token is "known to be expired" at once. */
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    CHECK(emu_reset() == 0);
    client = new_client(NULL, "{\"tokenRefreshMarginSeconds\":7200}");
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    CHECK(emu_clear_counters() == 0);
    token = token_of(client);
    CHECK(token != NULL);
    CHECK_MSG(emu_counter(REFRESH_COUNTER) == 1,
              "jump_client_access_token did not refresh a token inside the refresh margin (%ld refreshes)",
              emu_counter(REFRESH_COUNTER));
    free(token);
    free(uuid);
    J.client_free(client);
}

TEST(failed_refresh_keeps_the_session) {
    char *uuid;
    jump_client *client = signed_in_client(NULL, &uuid);
    jump_status s;
    REQUIRE(client != NULL);
    CHECK(emu_advance_clock(7200) == 0);
    CHECK(emu_fault("http_500", 5, "/oauth/refresh_access_token", 0) == 0);
    s = J.client_fetch_record(client);
    CHECK_MSG(s == JUMP_E_SERVER, "fetch_record with a failing refresh returned %d (%s)", (int)s,
              harness_status_name(s));
    CHECK_MSG(J.client_is_signed_in(client) == 1, "a server error during refresh signed the user out");
    CHECK(emu_clear_faults() == 0);
    CHECK_OK(J.client_fetch_record(client));
    free(uuid);
    J.client_free(client);
}

/* The leader of a refresh may take about three request timeouts: the store's lock (another process holds it),
 * the request, the lock again. Its followers wait for as long: they do not give up with "busy" while it goes
 * on to succeed. Here another process (this test, with flock on the storage directory as libjump takes it)
 * holds the store for 0.8 of the request timeout, and the refresh takes another half. */
TEST(followers_wait_for_a_leader_held_up_by_another_process) {
    char dir[512], extra[64], *uuid;
    crowd c;
    crowd_member members[4];
    pthread_t threads[4];
    int i, fd;
    memset(&c, 0, sizeof c);
    REQUIRE_EMULATOR();
    snprintf(dir, sizeof dir, "%s/held-store", emu_tmpdir());
    snprintf(extra, sizeof extra, "{\"requestTimeoutMs\":2000}");
    c.client = new_client(dir, extra);
    REQUIRE(c.client != NULL);
    uuid = sign_in_new_user(c.client, NULL, NULL);
    REQUIRE(uuid != NULL);
    pthread_mutex_init(&c.mutex, NULL);
    pthread_cond_init(&c.cond, NULL);
    CHECK(emu_advance_clock(7200) == 0);
    CHECK(emu_clear_counters() == 0);
    CHECK(emu_fault("delay", 1, "/oauth/refresh_access_token", 1000) == 0);
    fd = open(dir, O_RDONLY | O_DIRECTORY);
    REQUIRE(fd >= 0);
    REQUIRE(flock(fd, LOCK_EX) == 0);
    REQUIRE(crowd_start(&c, members, threads, 4));
    sleep_ms(1600);
    flock(fd, LOCK_UN);
    close(fd);
    for (i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    for (i = 0; i < 4; i++)
        CHECK_MSG(c.results[i] == JUMP_OK, "thread %d: fetch_record returned %d (%s)", i, (int)c.results[i],
                  harness_status_name(c.results[i]));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    free(uuid);
    J.client_free(c.client);
}
