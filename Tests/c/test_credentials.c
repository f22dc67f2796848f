/* test_credentials.c - jump_client_credentials, its _async variant and jump_client_has_valid_credentials:
 * no request while the token lasts, one refresh for a crowd once it does not, every credential
 * kind, bad arguments, and no token in the error of a refused refresh.
 *
 * libjump knows a token's expiry only by its own clock (expires_in counted from the answer), so advancing the
 * emulator's clock does not age a token the client holds. A token "with less than min_ttl left" is made by
 * having the emulator issue short-lived tokens (its access-token lifetime settings), and one test lets the
 * real clock run a few seconds. */
#include "harness.h"
#include "support.h"
#include "tiny_server.h"

#include <stdint.h>

#define REFRESH_COUNTER "POST /oauth/refresh_access_token"
#define TOKEN_COUNTER "POST /v1/token"
#define CROWD 32

/* Every request the emulator counted (admin calls are not counted), or -1. */
static long total_requests(void) {
    json_t *counters = emu_counters(), *value;
    const char *key;
    long total = 0;
    if (counters == NULL) return -1;
    json_object_foreach(counters, key, value) total += (long)json_integer_value(value);
    json_decref(counters);
    return total;
}

/* jump_client_credentials parsed (new reference) or NULL after a recorded failure. */
#define credentials_of(c, ttl, flags) credentials_at(__FILE__, __LINE__, c, ttl, flags)
static json_t *credentials_at(const char *file, int line, jump_client *client, int64_t min_ttl, uint32_t flags) {
    char *out = NULL;
    jump_status s = J.client_credentials(client, min_ttl, flags, &out);
    if (s != JUMP_OK) {
        support_fail(file, line, "jump_client_credentials(%lld, %u) returned %d (%s): %s", (long long)min_ttl,
                     flags, (int)s, harness_status_name(s), J.error_last());
        return NULL;
    }
    return take_json(out);
}

static char *dup_str(const char *s) { return s != NULL ? strdup(s) : NULL; }

static int same(const char *a, const char *b) { return a != NULL && b != NULL && strcmp(a, b) == 0; }

/* A Capture client signed in as a new user, its tokens issued with `lifetime` seconds (0: the default hour);
 * later tokens live an hour. */
static jump_client *capture_client(int lifetime, char **uuid) {
    jump_client *client;
    char settings[96];
    *uuid = NULL;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return NULL;
    if (lifetime > 0) {
        snprintf(settings, sizeof settings, "{\"access_token_lifetime\":%d}", lifetime);
        if (!CHECK(emu_settings(settings) == 0)) return NULL;
    }
    client = new_client(NULL, "{\"storageDirectory\":\":memory:\"}");
    if (client == NULL) return NULL;
    *uuid = sign_in_new_user(client, NULL, NULL);
    if (*uuid == NULL || !CHECK(emu_settings("{\"access_token_lifetime\":3600}") == 0)) {
        J.client_free(client);
        return NULL;
    }
    return client;
}

/* ---- sign-in-token helpers (users and tokens: emulator.h) ---- */

/* A client with no Capture settings whose token API is auth_base (the emulator when NULL). */
static jump_client *token_client(const char *auth_base) {
    char extra[512];
    snprintf(extra, sizeof extra, "{\"signInTokenAuthBaseUrl\":\"%s\",\"signInTokenApiBaseUrl\":\"%s\","
             "\"storageDirectory\":\":memory:\",\"requestTimeoutMs\":5000}", auth_base ? auth_base : emu_url(), emu_url());
    return new_client(NULL, extra);
}

/* ---- a crowd of threads calling jump_client_credentials at once ---- */

typedef struct crowd {
    jump_client *client;
    int64_t min_ttl;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int waiting, go;
    jump_status results[CROWD];
    char *tokens[CROWD];
    int refreshed[CROWD];
} crowd;

typedef struct crowd_member {
    crowd *c;
    int index;
} crowd_member;

static void *crowd_credentials(void *arg) {
    crowd_member *m = arg;
    crowd *c = m->c;
    char *out = NULL;
    pthread_mutex_lock(&c->mutex);
    c->waiting++;
    pthread_cond_broadcast(&c->cond);
    while (!c->go) pthread_cond_wait(&c->cond, &c->mutex);
    pthread_mutex_unlock(&c->mutex);
    c->results[m->index] = J.client_credentials(c->client, c->min_ttl, 0, &out);
    if (out != NULL) {
        json_t *json = json_parse(out);
        c->tokens[m->index] = dup_str(json_str(json, "access_token"));
        c->refreshed[m->index] = json_is_true(json_object_get(json, "refreshed"));
        json_decref(json);
        J.string_free(out);
    }
    return NULL;
}

/* Runs CROWD threads released together; checks they all succeeded with one and the same token, which is
 * returned (malloc'd). *refreshed_count: how many said "refreshed". */
static char *run_crowd(jump_client *client, int64_t min_ttl, int *refreshed_count) {
    crowd c;
    crowd_member members[CROWD];
    pthread_t threads[CROWD];
    int i, started = 0;
    char *token = NULL;
    memset(&c, 0, sizeof c);
    c.client = client;
    c.min_ttl = min_ttl;
    pthread_mutex_init(&c.mutex, NULL);
    pthread_cond_init(&c.cond, NULL);
    for (i = 0; i < CROWD; i++) {
        members[i].c = &c;
        members[i].index = i;
        c.results[i] = JUMP_E_INTERNAL;
        if (pthread_create(&threads[i], NULL, crowd_credentials, &members[i]) != 0) break;
        started++;
    }
    CHECK_EQ_INT(started, CROWD);
    pthread_mutex_lock(&c.mutex);
    while (c.waiting < started) pthread_cond_wait(&c.cond, &c.mutex);
    c.go = 1;
    pthread_cond_broadcast(&c.cond);
    pthread_mutex_unlock(&c.mutex);
    for (i = 0; i < started; i++) pthread_join(threads[i], NULL);
    *refreshed_count = 0;
    for (i = 0; i < started; i++) {
        CHECK_MSG(c.results[i] == JUMP_OK, "thread %d: jump_client_credentials returned %d (%s)", i, (int)c.results[i],
                  harness_status_name(c.results[i]));
        CHECK_MSG(i == 0 || same(c.tokens[i], c.tokens[0]), "thread %d got another token than thread 0", i);
        *refreshed_count += c.refreshed[i];
    }
    token = dup_str(c.tokens[0]);
    for (i = 0; i < started; i++) free(c.tokens[i]);
    pthread_mutex_destroy(&c.mutex);
    pthread_cond_destroy(&c.cond);
    return token;
}

/* ======================================================================================================== */

TEST(capture_token_with_time_left_needs_no_request) {
    char *uuid, *token = NULL;
    jump_client *client = capture_client(0, &uuid);
    json_t *json;
    int i;
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_access_token(client, &token));
    CHECK(emu_clear_counters() == 0);
    for (i = 0; i < 5; i++) {
        json = credentials_of(client, 60, 0);
        REQUIRE(json != NULL);
        CHECK_STR_EQ(json_str(json, "kind"), "capture");
        CHECK_STR_EQ(json_str(json, "access_token"), token);
        CHECK(json_is_false(json_object_get(json, "refreshed")));
        CHECK_MSG(json_integer_value(json_object_get(json, "expires_in")) > 3500 &&
                  json_integer_value(json_object_get(json, "expires_in")) <= 3600, "expires_in %lld",
                  (long long)json_integer_value(json_object_get(json, "expires_in")));
        CHECK_MSG(json_integer_value(json_object_get(json, "expires_at")) - (json_int_t)time(NULL) ==
                  json_integer_value(json_object_get(json, "expires_in")) ||
                  json_integer_value(json_object_get(json, "expires_at")) - (json_int_t)time(NULL) + 1 ==
                  json_integer_value(json_object_get(json, "expires_in")), "expires_at and expires_in disagree");
        json_decref(json);
    }
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 60), 1);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 0), 1);
    /* Longer than the token lives: not valid, and finding that out costs no request either. */
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 7200), 0);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, INT64_MAX), 0);
    CHECK_EQ_INT(total_requests(), 0);
    J.string_free(token);
    free(uuid);
    J.client_free(client);
}

TEST(capture_thirty_two_threads_one_refresh) {
    char *uuid, *old = NULL, *fresh;
    jump_client *client = capture_client(30, &uuid);
    json_t *json;
    int refreshed = 0;
    REQUIRE(client != NULL);
    CHECK(emu_clear_counters() == 0);
    /* 30 s left: enough for 20, not for 60. (Not jump_client_access_token: its 60 s margin would refresh.) */
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 20), 1);
    json = credentials_of(client, 20, 0);
    REQUIRE(json != NULL);
    old = dup_str(json_str(json, "access_token"));
    CHECK(json_is_false(json_object_get(json, "refreshed")));
    CHECK_MSG(json_integer_value(json_object_get(json, "expires_in")) <= 30, "expires_in %lld",
              (long long)json_integer_value(json_object_get(json, "expires_in")));
    json_decref(json);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 60), 0);
    CHECK_EQ_INT(total_requests(), 0);

    fresh = run_crowd(client, 60, &refreshed);
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    CHECK_EQ_INT(total_requests(), 1);
    CHECK_MSG(fresh != NULL && !same(fresh, old), "the crowd did not get a new token");
    CHECK_MSG(refreshed >= 1, "no thread said refreshed");
    /* The new token lasts an hour: valid for 60 s, returned as is, accepted by the server. */
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 60), 1);
    json = credentials_of(client, 60, 0);
    CHECK(json != NULL && same(json_str(json, "access_token"), fresh));
    CHECK(json != NULL && json_is_false(json_object_get(json, "refreshed")));
    json_decref(json);
    CHECK_OK(J.client_fetch_record(client));
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    free(old);
    free(fresh);
    free(uuid);
    J.client_free(client);
}

TEST(capture_token_ages_past_min_ttl_by_the_clock) {
    /* A 64-second token against min_ttl 60: valid for about 4 s, then not, with no request to find out. */
    char *uuid, *old = NULL;
    jump_client *client = capture_client(64, &uuid);
    json_t *json;
    double start, flipped;
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_access_token(client, &old));
    CHECK(emu_clear_counters() == 0);
    start = now_ms();
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 60), 1);
    json = credentials_of(client, 60, 0);
    CHECK(json != NULL && json_is_false(json_object_get(json, "refreshed")));
    json_decref(json);
    while (J.client_has_valid_credentials(client, 60) == 1 && now_ms() - start < 10000) sleep_ms(100);
    flipped = now_ms() - start;
    CHECK_MSG(J.client_has_valid_credentials(client, 60) == 0, "still valid after %.0f ms", flipped);
    CHECK_MSG(flipped >= 1000, "valid for only %.0f ms", flipped);
    CHECK_EQ_INT(total_requests(), 0);
    json = credentials_of(client, 60, 0);
    CHECK(json != NULL && json_is_true(json_object_get(json, "refreshed")));
    CHECK(json != NULL && !same(json_str(json, "access_token"), old));
    json_decref(json);
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    J.string_free(old);
    free(uuid);
    J.client_free(client);
}

TEST(force_refresh_refreshes_a_valid_token) {
    char *uuid, *first, *second;
    jump_client *client = capture_client(0, &uuid);
    json_t *json;
    REQUIRE(client != NULL);
    json = credentials_of(client, 0, 0);
    REQUIRE(json != NULL);
    first = dup_str(json_str(json, "access_token"));
    json_decref(json);
    CHECK(emu_clear_counters() == 0);
    json = credentials_of(client, 0, JUMP_CREDENTIALS_FORCE_REFRESH);
    REQUIRE(json != NULL);
    second = dup_str(json_str(json, "access_token"));
    CHECK(json_is_true(json_object_get(json, "refreshed")));
    json_decref(json);
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    CHECK_MSG(!same(first, second), "FORCE_REFRESH returned the same token");
    json = credentials_of(client, 0, 0);
    CHECK(json != NULL && same(json_str(json, "access_token"), second));
    json_decref(json);
    CHECK_EQ_INT(total_requests(), 1);
    free(first);
    free(second);
    free(uuid);
    J.client_free(client);
}

TEST(has_valid_credentials_does_not_wait_for_a_refresh_in_flight) {
    char *uuid;
    jump_client *client = capture_client(0, &uuid);
    jump_request *request = NULL;
    recorder done;
    double start, took;
    json_t *payload;
    REQUIRE(client != NULL);
    recorder_init(&done);
    CHECK(emu_fault("delay", 1, "/oauth/refresh_access_token", 2000) == 0);
    CHECK_OK(J.client_credentials_async(client, 0, JUMP_CREDENTIALS_FORCE_REFRESH, recorder_callback, &done,
                                        recorder_free, &request));
    sleep_ms(300); /* the refresh is on the wire now, held by the emulator */
    start = now_ms();
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 60), 1);
    took = now_ms() - start;
    CHECK_MSG(took < 500, "jump_client_has_valid_credentials took %.0f ms during a refresh", took);
    CHECK_MSG(recorder_calls(&done) == 0, "the delayed refresh finished before the check (the test proves nothing)");
    CHECK_OK(J.request_wait(request, 10000));
    payload = recorder_payload(&done, 0);
    CHECK_STR_EQ(json_str(payload, "operation"), "credentials");
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), 0);
    CHECK(json_is_true(json_object_get(json_object_get(payload, "result"), "refreshed")));
    json_decref(payload);
    J.request_free(request);
    J.client_free(client);
    CHECK(recorder_wait_frees(&done, 1, 5000));
    recorder_destroy(&done);
    free(uuid);
}

TEST(async_delivers_the_same_object) {
    char *uuid, *token = NULL;
    jump_client *client = capture_client(0, &uuid);
    jump_request *request = NULL;
    recorder done;
    json_t *payload, *result;
    REQUIRE(client != NULL);
    recorder_init(&done);
    REQUIRE_OK(J.client_access_token(client, &token));
    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_credentials_async(client, 60, 0, recorder_callback, &done, recorder_free, &request));
    CHECK_OK(J.request_wait(request, 10000));
    payload = recorder_payload(&done, 0);
    result = json_object_get(payload, "result");
    CHECK_STR_EQ(json_str(payload, "kind"), "completion");
    CHECK_STR_EQ(json_str(payload, "operation"), "credentials");
    CHECK_STR_EQ(json_str(result, "kind"), "capture");
    CHECK_STR_EQ(json_str(result, "access_token"), token);
    CHECK(json_is_integer(json_object_get(result, "expires_at")));
    CHECK(json_is_false(json_object_get(result, "refreshed")));
    json_decref(payload);
    CHECK_EQ_INT(total_requests(), 0);
    J.request_free(request);
    /* A bad argument: the status is returned and the callback still runs once, with it. */
    request = (jump_request *)&request;
    CHECK_STATUS(J.client_credentials_async(client, -1, 0, recorder_callback, &done, recorder_free, &request),
                 JUMP_E_INVALID_ARGUMENT);
    CHECK(request == NULL);
    CHECK(recorder_wait_calls(&done, 2, 5000));
    payload = recorder_payload(&done, 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), JUMP_E_INVALID_ARGUMENT);
    json_decref(payload);
    CHECK_STATUS(J.client_credentials_async(NULL, 0, 0, recorder_callback, &done, recorder_free, NULL),
                 JUMP_E_INVALID_HANDLE);
    CHECK(recorder_wait_calls(&done, 3, 5000));
    J.client_free(client);
    CHECK(recorder_wait_frees(&done, 3, 5000));
    recorder_destroy(&done);
    J.string_free(token);
    free(uuid);
}

TEST(not_signed_in_and_bad_arguments) {
    jump_client *client;
    char *out = (char *)&out, *uuid;
    json_t *detail;
    REQUIRE_EMULATOR();
    client = new_client(NULL, "{\"storageDirectory\":\":memory:\"}");
    REQUIRE(client != NULL);
    CHECK_STATUS(J.client_credentials(client, 0, 0, &out), JUMP_E_NOT_SIGNED_IN);
    CHECK(out == NULL);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 0), 0);
    out = (char *)&out;
    CHECK_STATUS(J.client_credentials(NULL, 0, 0, &out), JUMP_E_INVALID_HANDLE);
    CHECK(out == NULL);
    CHECK_EQ_INT(J.client_has_valid_credentials(NULL, 0), 0);
    /* Handles of another kind, and pointers libjump never made, are statuses too. */
    {
        jump_config *config = NULL;
        unsigned char garbage[64];
        memset(garbage, 0xA5, sizeof garbage);
        REQUIRE_OK(J.config_new(&config));
        CHECK_STATUS(J.client_credentials((jump_client *)config, 0, 0, &out), JUMP_E_INVALID_HANDLE);
        CHECK_EQ_INT(J.client_has_valid_credentials((jump_client *)config, 0), 0);
        CHECK_STATUS(J.client_credentials((jump_client *)garbage, 0, 0, &out), JUMP_E_INVALID_HANDLE);
        CHECK_EQ_INT(J.client_has_valid_credentials((jump_client *)garbage, 0), 0);
        CHECK(out == NULL);
        J.config_free(config);
    }
    J.client_free(client);

    client = capture_client(0, &uuid);
    REQUIRE(client != NULL);
    CHECK(emu_clear_counters() == 0);
    CHECK_STATUS(J.client_credentials(client, 0, 0, NULL), JUMP_E_INVALID_ARGUMENT);
    out = (char *)&out;
    CHECK_STATUS(J.client_credentials(client, -1, 0, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK(out == NULL);
    detail = error_detail();
    CHECK_STR_EQ(json_str(detail, "argument"), "min_ttl_seconds");
    json_decref(detail);
    CHECK_STATUS(J.client_credentials(client, INT64_MIN, 0, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_credentials(client, 0, 2, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_credentials(client, 0, 0xffffffffu, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, -1), 0);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, INT64_MIN), 0);
    CHECK_EQ_INT(total_requests(), 0);
    /* No token lasts INT64_MAX seconds: one refresh, and the fresh token is returned as is. */
    detail = credentials_of(client, INT64_MAX, 0);
    CHECK(detail != NULL && json_is_true(json_object_get(detail, "refreshed")));
    json_decref(detail);
    CHECK_EQ_INT(emu_counter(REFRESH_COUNTER), 1);
    /* Signed out: not signed in again. */
    CHECK_OK(J.client_sign_out(client));
    CHECK_STATUS(J.client_credentials(client, 0, 0, &out), JUMP_E_NOT_SIGNED_IN);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 0), 0);
    J.client_free(client);
    /* A freed handle is a status too. */
    CHECK_STATUS(J.client_credentials(client, 0, 0, &out), JUMP_E_INVALID_HANDLE);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 0), 0);
    free(uuid);
}

TEST(sign_in_token_kind) {
    char *user, *token, *old = NULL, *fresh, path[160], *out = NULL;
    jump_client *client;
    json_t *json;
    int refreshed = 0;
    REQUIRE_EMULATOR();
    user = emu_token_user();
    REQUIRE(user != NULL);
    token = emu_sign_in_token(user);
    REQUIRE(token != NULL);
    client = token_client(NULL);
    REQUIRE(client != NULL);
    CHECK(emu_settings("{\"sign_in_access_token_lifetime\":30}") == 0);
    REQUIRE_OK(J.client_sign_in_with_token(client, token, NULL));
    CHECK(emu_settings("{\"sign_in_access_token_lifetime\":3600}") == 0);
    CHECK(emu_clear_counters() == 0);

    json = credentials_of(client, 20, 0);
    REQUIRE(json != NULL);
    CHECK_STR_EQ(json_str(json, "kind"), "sign_in_token");
    CHECK(json_is_false(json_object_get(json, "refreshed")));
    CHECK_MSG(json_integer_value(json_object_get(json, "expires_in")) <= 30, "expires_in %lld",
              (long long)json_integer_value(json_object_get(json, "expires_in")));
    old = dup_str(json_str(json, "access_token"));
    json_decref(json);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 20), 1);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 60), 0);
    CHECK_EQ_INT(total_requests(), 0);

    fresh = run_crowd(client, 60, &refreshed);
    CHECK_EQ_INT(emu_counter(TOKEN_COUNTER), 1);
    CHECK_EQ_INT(total_requests(), 1);
    CHECK_MSG(fresh != NULL && !same(fresh, old), "the crowd did not get a new token");
    CHECK(refreshed >= 1);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 60), 1);
    /* The new token is the one requests carry, and the server takes it. */
    snprintf(path, sizeof path, "/v2/user/%s", user);
    REQUIRE_OK(J.client_request(client, "GET", path, NULL, NULL, 0, &out));
    json = take_json(out);
    CHECK_EQ_INT(json_integer_value(json_object_get(json, "status")), 200);
    json_decref(json);
    CHECK_EQ_INT(emu_counter(TOKEN_COUNTER), 1);
    /* FORCE_REFRESH rotates once more. */
    json = credentials_of(client, 0, JUMP_CREDENTIALS_FORCE_REFRESH);
    CHECK(json != NULL && json_is_true(json_object_get(json, "refreshed")) && !same(json_str(json, "access_token"), fresh));
    json_decref(json);
    CHECK_EQ_INT(emu_counter(TOKEN_COUNTER), 2);
    J.client_free(client);
    free(old);
    free(fresh);
    free(token);
    free(user);
}

TEST(api_key_kind) {
    jump_client *client;
    char *out = NULL;
    json_t *json;
    REQUIRE_EMULATOR();
    client = token_client(NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_use_api_key(client, "jump-team-key", NULL, "dev", "us"));
    CHECK(emu_clear_counters() == 0);
    json = credentials_of(client, 3600, 0);
    REQUIRE(json != NULL);
    CHECK_STR_EQ(json_str(json, "kind"), "api_key");
    CHECK_STR_EQ(json_str(json, "access_token"), "jump-team-key");
    CHECK(json_is_null(json_object_get(json, "expires_at")));
    CHECK(json_is_null(json_object_get(json, "expires_in")));
    CHECK(json_is_false(json_object_get(json, "refreshed")));
    json_decref(json);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, INT64_MAX), 1);
    CHECK_STATUS(J.client_credentials(client, 0, JUMP_CREDENTIALS_FORCE_REFRESH, &out), JUMP_E_UNSUPPORTED);
    CHECK(out == NULL);
    CHECK_MSG(strstr(J.error_last(), "jump-team-key") == NULL, "the API key is in the error: %s", J.error_last());
    CHECK_EQ_INT(total_requests(), 0);
    J.client_free(client);
}

TEST(refused_capture_refresh_is_expired_without_the_token_in_the_error) {
    char *uuid, *token = NULL, *out = (char *)&out;
    jump_client *client = capture_client(0, &uuid);
    json_t *fault;
    long http = 0;
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_access_token(client, &token));
    /* Refused the way Capture refuses a revoked session (code 200, not a 5xx-like code). */
    fault = emu_call("POST", "/emulator/faults",
                     "{\"kind\":\"capture_error\",\"count\":1,\"path\":\"/oauth/refresh_access_token\",\"code\":200}",
                     &http);
    CHECK_MSG(http == 201, "the fault was not queued (HTTP %ld)", http);
    json_decref(fault);
    CHECK_STATUS(J.client_credentials(client, 0, JUMP_CREDENTIALS_FORCE_REFRESH, &out), JUMP_E_EXPIRED);
    CHECK(out == NULL);
    CHECK_MSG(token != NULL && strstr(J.error_last(), token) == NULL, "the token is in the error: %s", J.error_last());
    /* From then on, as jump_client_refresh_access_token says too. */
    CHECK_STATUS(J.client_credentials(client, 0, 0, &out), JUMP_E_EXPIRED);
    CHECK_STATUS(J.client_refresh_access_token(client), JUMP_E_EXPIRED);
    CHECK_EQ_INT(J.client_has_valid_credentials(client, 0), 0);
    J.string_free(token);
    free(uuid);
    J.client_free(client);
}

/* A sign-in-token server whose refusal of a refresh quotes the request and the access token it issued (which
 * the client never sent anywhere): libjump must not hand either back in an error. */
#define ECHO_ACCESS "AT-cred-echo-4c1e9a7b2d5f8e3a6b0c"
#define ECHO_REFRESH "RT-cred-echo-9d8c7b6a5f4e3d2c1b0a"

static void token_echo_handler(tiny_server *server, const tiny_request *request, int fd) {
    char *grant = tiny_form_value(request->body, "grant_type");
    (void)server;
    if (strcmp(request->path, "/v1/token") == 0 && grant != NULL && strcmp(grant, "refresh_token") == 0) {
        json_t *answer = json_pack("{s:{s:s, s:s+}}", "detail", "error_type", "reauthentication_required", "message",
                                   "refused the refresh of access token " ECHO_ACCESS "; you sent ", request->body);
        char *text = json_dumps(answer, JSON_COMPACT);
        tiny_respond_json(fd, 400, text);
        free(text);
        json_decref(answer);
    } else if (strcmp(request->path, "/v1/token") == 0) {
        tiny_respond_json(fd, 200, "{\"access_token\":\"" ECHO_ACCESS "\",\"refresh_token\":\"" ECHO_REFRESH "\","
                                   "\"expires_in\":30,\"token_type\":\"Bearer\"}");
    } else {
        tiny_respond_json(fd, 404, "{\"detail\":{\"error_type\":\"not_found\"}}");
    }
    free(grant);
}

TEST(refused_sign_in_token_refresh_keeps_both_tokens_out_of_the_error) {
    tiny_server server;
    jump_client *client;
    char *user, *token, *out = (char *)&out;
    const char *error;
    REQUIRE_EMULATOR();
    user = emu_token_user();
    REQUIRE(user != NULL);
    token = emu_sign_in_token(user);
    REQUIRE(token != NULL);
    REQUIRE(tiny_start(&server, token_echo_handler, NULL) == 0);
    client = token_client(server.url);
    if (client != NULL && CHECK_OK(J.client_sign_in_with_token(client, token, NULL))) {
        CHECK_EQ_INT(J.client_has_valid_credentials(client, 60), 0);
        CHECK_STATUS(J.client_credentials(client, 60, 0, &out), JUMP_E_EXPIRED);
        CHECK(out == NULL);
        error = J.error_last();
        CHECK_MSG(strstr(error, "reauthentication_required") != NULL, "the detail lost the server's reason: %s", error);
        CHECK_MSG(strstr(error, ECHO_ACCESS) == NULL, "the access token is in the error: %s", error);
        CHECK_MSG(strstr(error, ECHO_REFRESH) == NULL, "the refresh token is in the error: %s", error);
        CHECK_EQ_INT(tiny_requests(&server), 2);
        /* Pending re-authentication: the token still lasts 20 s, so that much is granted without a request... */
        out = NULL;
        CHECK_OK(J.client_credentials(client, 20, 0, &out));
        CHECK(out != NULL && strstr(out, ECHO_ACCESS) != NULL);
        J.string_free(out);
        /* ...but not more, and the explicit refresh agrees. */
        out = (char *)&out;
        CHECK_STATUS(J.client_credentials(client, 60, 0, &out), JUMP_E_EXPIRED);
        CHECK_MSG(strstr(J.error_last(), ECHO_ACCESS) == NULL, "the access token is in the error: %s", J.error_last());
        CHECK_STATUS(J.client_refresh_access_token(client), JUMP_E_EXPIRED);
        CHECK_EQ_INT(tiny_requests(&server), 2);
    }
    J.client_free(client);
    tiny_stop(&server);
    free(token);
    free(user);
}
