/*
 * test_bad_input.c - the C ABI rules: no input and no server answer may abort the process. NULL for every
 * pointer parameter, invalid UTF-8, malformed JSON, freed / wrong-kind / random handles, double frees,
 * broken server replies, no server, slow server, malformed record paths.
 */
#include "harness.h"
#include "support.h"

#include <ctype.h>
#include <stdint.h>

static char sentinel_byte;
#define SENTINEL ((void *)&sentinel_byte)
#define BAD_UTF8 "\xff\xfe"

/* Calls `call` (which writes through `out`) after pre-setting out to a sentinel; checks the status and that
 * out was reset to NULL. */
#define CHECK_FAILS_OUT(call, out, expected)                                                               \
    do {                                                                                                   \
        out = SENTINEL;                                                                                    \
        CHECK_STATUS(call, expected);                                                                      \
        CHECK_MSG(out == NULL, "%s: the out-parameter was not set to NULL on failure", #call);            \
    } while (0)

static int contains_ci(const char *haystack, const char *needle) {
    size_t n = strlen(needle), i, j;
    if (haystack == NULL) return 0;
    for (i = 0; haystack[i] != '\0'; i++) {
        for (j = 0; j < n && haystack[i + j] != '\0'; j++)
            if (tolower((unsigned char)haystack[i + j]) != tolower((unsigned char)needle[j])) break;
        if (j == n) return 1;
    }
    return 0;
}

static jump_client *offline_client(void) {
    char extra[200];
    snprintf(extra, sizeof extra,
             "{\"captureDomain\":\"http://127.0.0.1:%d\",\"captureFlowDomain\":\"http://127.0.0.1:%d\","
             "\"storageDirectory\":\":memory:\",\"connectTimeoutMs\":2000,\"requestTimeoutMs\":3000}",
             emu_closed_port(), emu_closed_port());
    return new_client(NULL, extra);
}

/* An async call that fails to start: it returns `expected`, sets *out_request to NULL, and still runs the
 * callback exactly once (with the same status) and userdata_free exactly once. */
static void check_async_refused(const char *file, int line, const char *what, jump_status got, jump_status expected,
                                recorder *r, jump_request *request) {
    json_t *payload;
    if (got != expected)
        harness_fail(file, line, "%s returned %d (%s), expected %d (%s)", what, (int)got, harness_status_name(got),
                     (int)expected, harness_status_name(expected));
    if (request != NULL) harness_fail(file, line, "%s: *out_request not NULL after a refused start", what);
    if (!recorder_wait_calls(r, 1, 5000)) {
        harness_fail(file, line, "%s: the callback did not run after a refused start", what);
    } else {
        payload = recorder_payload(r, 0);
        if (json_integer_value(json_object_get(payload, "status")) != expected)
            harness_fail(file, line, "%s: the callback reported status %lld, expected %d", what,
                         (long long)json_integer_value(json_object_get(payload, "status")), (int)expected);
        if (!json_is_object(json_object_get(payload, "error")))
            harness_fail(file, line, "%s: the failure payload has no \"error\" object", what);
        json_decref(payload);
    }
    if (!recorder_wait_frees(r, 1, 5000)) harness_fail(file, line, "%s: userdata_free did not run", what);
    sleep_ms(50);
    if (recorder_calls(r) != 1 || recorder_frees(r) != 1)
        harness_fail(file, line, "%s: callback ran %d times, userdata_free %d times (expected 1 and 1)", what,
                     recorder_calls(r), recorder_frees(r));
}
#define CHECK_ASYNC_REFUSED(call, expected)                                                                \
    do {                                                                                                   \
        recorder r_;                                                                                       \
        jump_request *req_ = SENTINEL;                                                                     \
        jump_status s_;                                                                                    \
        recorder_init(&r_);                                                                                \
        s_ = call;                                                                                         \
        check_async_refused(__FILE__, __LINE__, #call, s_, expected, &r_, req_);                           \
        recorder_destroy(&r_);                                                                             \
    } while (0)

/* ---- NULL everywhere ------------------------------------------------------------------------------------ */

TEST(null_arguments_library_and_config) {
    jump_config *config = NULL, *out_config;
    json_t *object = json_object(), *out_json;
    char *out_text;

    CHECK_STATUS(J.error_last_jansson(NULL), JUMP_E_INVALID_ARGUMENT);
    J.string_free(NULL);
    CHECK_STATUS(J.config_new(NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.config_from_json(NULL, &out_config), out_config, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_from_json("{}", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.config_from_jansson(NULL, &out_config), out_config, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_from_jansson(object, NULL), JUMP_E_INVALID_ARGUMENT);

    REQUIRE_OK(J.config_new(&config));
    CHECK_STATUS(J.config_set_string(NULL, "captureLocale", "en-US"), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.config_set_string(config, NULL, "en-US"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_bool(NULL, "captureEnableThinRegistration", 1), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.config_set_bool(config, NULL, 1), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_int(NULL, "requestTimeoutMs", 1), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.config_set_int(config, NULL, 1), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.config_to_json(NULL, &out_text), out_text, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.config_to_json(config, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.config_to_jansson(NULL, &out_json), out_json, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.config_to_jansson(config, NULL), JUMP_E_INVALID_ARGUMENT);
    J.config_free(NULL);
    CHECK_EQ_INT(object->refcount, 1);
    json_decref(object);
    J.config_free(config);
}

TEST(null_arguments_client) {
    jump_config *config = NULL;
    jump_client *client = offline_client(), *out_client;
    jump_record *out_record;
    char *out_text;
    json_t *attributes = json_pack("{s:s}", "email", "x@example.com");
    recorder events;

    REQUIRE(client != NULL);
    REQUIRE_OK(J.config_new(&config));
    CHECK_FAILS_OUT(J.client_new(NULL, &out_client), out_client, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_new(config, NULL), JUMP_E_INVALID_ARGUMENT);
    J.client_free(NULL);

    CHECK_FAILS_OUT(J.client_state(NULL, &out_text), out_text, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_state(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_EQ_INT(J.client_is_signed_in(NULL), 0);
    CHECK_STATUS(J.client_restore(NULL), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_load_flow(NULL), JUMP_E_INVALID_HANDLE);

    CHECK_FAILS_OUT(J.client_register_traditional(NULL, "{}", "password1", &out_text), out_text,
                    JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_register_traditional(client, NULL, "password1", &out_text), out_text,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_traditional(client, "{\"email\":\"x@example.com\"}", NULL, &out_text),
                    out_text, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_traditional_jansson(NULL, attributes, "password1", &out_text), out_text,
                    JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_register_traditional_jansson(client, NULL, "password1", &out_text), out_text,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_traditional_jansson(client, attributes, NULL, &out_text), out_text,
                    JUMP_E_INVALID_ARGUMENT);

    CHECK_FAILS_OUT(J.client_sign_in(NULL, "x@example.com", "password1", &out_text), out_text,
                    JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_sign_in(client, NULL, "password1", &out_text), out_text, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_sign_in(client, "x@example.com", NULL, &out_text), out_text, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_sign_in(client, NULL, NULL, NULL), JUMP_E_INVALID_ARGUMENT);

    CHECK_STATUS(J.client_sign_out(NULL), JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_record(NULL, &out_record), out_record, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_record(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_fetch_record(NULL), JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_sync(NULL, &out_text), out_text, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_access_token(NULL, &out_text), out_text, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_access_token(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_refresh_access_token(NULL), JUMP_E_INVALID_HANDLE);

    /* The event callback: an invalid handle is refused; userdata_free runs at most once. */
    recorder_init(&events);
    CHECK_STATUS(J.client_set_event_callback(NULL, recorder_callback, &events, recorder_free), JUMP_E_INVALID_HANDLE);
    sleep_ms(50);
    CHECK_MSG(recorder_frees(&events) <= 1, "userdata_free ran %d times", recorder_frees(&events));
    CHECK_OK(J.client_set_event_callback(client, NULL, NULL, NULL));
    CHECK_STATUS(J.client_set_dispatcher(NULL, NULL, NULL), JUMP_E_INVALID_HANDLE);
    CHECK_OK(J.client_set_dispatcher(client, NULL, NULL));

    /* Not signed in: the operations that need a user say so. */
    CHECK_FAILS_OUT(J.client_record(client, &out_record), out_record, JUMP_E_NOT_SIGNED_IN);
    CHECK_STATUS(J.client_fetch_record(client), JUMP_E_NOT_SIGNED_IN);
    CHECK_FAILS_OUT(J.client_sync(client, &out_text), out_text, JUMP_E_NOT_SIGNED_IN);
    CHECK_FAILS_OUT(J.client_access_token(client, &out_text), out_text, JUMP_E_NOT_SIGNED_IN);
    CHECK_STATUS(J.client_refresh_access_token(client), JUMP_E_NOT_SIGNED_IN);
    CHECK_OK(J.client_sign_out(client));

    json_decref(attributes);
    J.config_free(config);
    J.client_free(client);
    recorder_destroy(&events);
}

TEST(null_arguments_async_still_call_back_once) {
    jump_client *client = offline_client();
    REQUIRE(client != NULL);
    CHECK_ASYNC_REFUSED(J.client_sign_in_async(NULL, "x@example.com", "password1", recorder_callback, &r_,
                                               recorder_free, &req_),
                        JUMP_E_INVALID_HANDLE);
    CHECK_ASYNC_REFUSED(
        J.client_sign_in_async(client, NULL, "password1", recorder_callback, &r_, recorder_free, &req_),
        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(
        J.client_sign_in_async(client, "x@example.com", NULL, recorder_callback, &r_, recorder_free, &req_),
        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_register_traditional_async(NULL, "{}", "password1", recorder_callback, &r_,
                                                            recorder_free, &req_),
                        JUMP_E_INVALID_HANDLE);
    CHECK_ASYNC_REFUSED(J.client_register_traditional_async(client, NULL, "password1", recorder_callback, &r_,
                                                            recorder_free, &req_),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_register_traditional_async(client, "{\"email\":\"a@example.com\"}", NULL,
                                                            recorder_callback, &r_, recorder_free, &req_),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_register_traditional_async(client, "{not json", "password1", recorder_callback,
                                                            &r_, recorder_free, &req_),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_fetch_record_async(NULL, recorder_callback, &r_, recorder_free, &req_),
                        JUMP_E_INVALID_HANDLE);
    CHECK_ASYNC_REFUSED(J.client_sync_async(NULL, recorder_callback, &r_, recorder_free, &req_),
                        JUMP_E_INVALID_HANDLE);
    J.client_free(client);
}

TEST(async_with_null_callback_or_null_request) {
    jump_client *client = offline_client();
    jump_request *request = NULL;
    recorder r;
    jump_status s;
    REQUIRE(client != NULL);
    /* No callback: either refused as an invalid argument or run without one; never a crash. */
    s = J.client_sign_in_async(client, "x@example.com", "password1", NULL, NULL, NULL, &request);
    CHECK_MSG(s == JUMP_OK || s == JUMP_E_INVALID_ARGUMENT, "sign_in_async with no callback returned %d", (int)s);
    if (s == JUMP_OK && CHECK(request != NULL)) {
        CHECK_OK(J.request_wait(request, 10000));
        J.request_free(request);
    }
    /* No out_request: allowed. */
    recorder_init(&r);
    CHECK_OK(J.client_sign_in_async(client, "x@example.com", "password1", recorder_callback, &r, recorder_free, NULL));
    CHECK(recorder_wait_calls(&r, 1, 10000));
    CHECK(recorder_wait_frees(&r, 1, 5000));
    J.client_free(client);
    recorder_destroy(&r);
}

TEST(null_arguments_request) {
    jump_client *client = offline_client();
    jump_request *request = NULL;
    recorder r;
    REQUIRE(client != NULL);
    CHECK_STATUS(J.request_cancel(NULL), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.request_wait(NULL, 0), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.request_wait(NULL, -1), JUMP_E_INVALID_HANDLE);
    J.request_free(NULL);
    /* A real request handle, with odd timeouts. */
    recorder_init(&r);
    REQUIRE_OK(J.client_sign_in_async(client, "x@example.com", "password1", recorder_callback, &r, recorder_free,
                                      &request));
    REQUIRE(request != NULL);
    CHECK_OK(J.request_wait(request, INT32_MIN));
    CHECK_OK(J.request_wait(request, 0));
    CHECK_OK(J.request_wait(request, INT32_MAX));
    CHECK_OK(J.request_cancel(request)); /* after completion: harmless */
    J.request_free(request);
    J.client_free(client);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
}

/* ---- a signed-in client for the record tests ------------------------------------------------------------ */

static jump_client *signed_in(jump_record **record, char **uuid) {
    jump_client *client;
    char *id;
    if (emu_url() == NULL) {
        CHECK_MSG(0, "the emulator is not available");
        return NULL;
    }
    emu_reset();
    client = new_client(NULL, NULL);
    if (client == NULL) return NULL;
    id = sign_in_new_user(client, NULL, NULL);
    if (id == NULL) {
        J.client_free(client);
        return NULL;
    }
    if (uuid != NULL)
        *uuid = id;
    else
        free(id);
    if (record != NULL && !CHECK_OK(J.client_record(client, record))) {
        J.client_free(client);
        return NULL;
    }
    return client;
}

TEST(null_arguments_record) {
    jump_record *record = NULL;
    jump_client *client = signed_in(&record, NULL);
    char *out_text;
    json_t *out_json, *value = json_string("x");
    REQUIRE(client != NULL);

    CHECK_FAILS_OUT(J.record_get(NULL, "/aboutMe", &out_text), out_text, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.record_get(record, NULL, &out_text), out_text, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_get(record, "/aboutMe", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.record_get_jansson(NULL, "/aboutMe", &out_json), out_json, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.record_get_jansson(record, NULL, &out_json), out_json, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_get_jansson(record, "/aboutMe", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.record_get_string(NULL, "/email", &out_text), out_text, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.record_get_string(record, NULL, &out_text), out_text, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_get_string(record, "/email", NULL), JUMP_E_INVALID_ARGUMENT);

    CHECK_STATUS(J.record_set(NULL, "/aboutMe", "\"x\""), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.record_set(record, NULL, "\"x\""), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_set(record, "/aboutMe", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_set_jansson(NULL, "/aboutMe", value), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.record_set_jansson(record, NULL, value), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_set_jansson(record, "/aboutMe", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_set_string(NULL, "/aboutMe", "x"), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.record_set_string(record, NULL, "x"), JUMP_E_INVALID_ARGUMENT);
    /* NULL value: JSON null (documented), not an error. */
    CHECK_OK(J.record_set_string(record, "/aboutMe", NULL));

    CHECK_FAILS_OUT(J.record_changes(NULL, &out_text), out_text, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.record_changes(record, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_discard_changes(NULL), JUMP_E_INVALID_HANDLE);
    J.record_free(NULL);
    CHECK_EQ_INT(value->refcount, 1);
    json_decref(value);
    J.record_free(record);
    J.client_free(client);
}

/* ---- invalid UTF-8 and malformed JSON ----------------------------------------------------------------- */

TEST(invalid_utf8_config) {
    jump_config *config = NULL, *out;
    json_t *object;
    REQUIRE_OK(J.config_new(&config));
    CHECK_STATUS(J.config_set_string(config, BAD_UTF8, "x"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_string(config, "captureLocale", BAD_UTF8), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_string(config, "captureDomain", "http://127.0.0.1/" BAD_UTF8), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_string(config, "storageDirectory", "/tmp/" BAD_UTF8), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_bool(config, BAD_UTF8, 1), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_int(config, BAD_UTF8, 1), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.config_from_json("{\"captureLocale\":\"" BAD_UTF8 "\"}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.config_from_json("{\"" BAD_UTF8 "\":\"x\"}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.config_from_json(BAD_UTF8, &out), out, JUMP_E_INVALID_ARGUMENT);
    /* jansson values built without UTF-8 checks. */
    object = json_object();
    json_object_set_new(object, "captureLocale", json_string_nocheck(BAD_UTF8));
    CHECK_FAILS_OUT(J.config_from_jansson(object, &out), out, JUMP_E_INVALID_ARGUMENT);
    json_decref(object);
    object = json_object();
    json_object_set_new_nocheck(object, BAD_UTF8, json_string("x"));
    CHECK_FAILS_OUT(J.config_from_jansson(object, &out), out, JUMP_E_INVALID_ARGUMENT);
    json_decref(object);
    J.config_free(config);
}

TEST(invalid_utf8_client_calls) {
    jump_client *client = offline_client();
    char *out;
    json_t *attributes;
    REQUIRE(client != NULL);
    /* Refused before any network traffic (the server is unreachable: a network error would show it went). */
    CHECK_FAILS_OUT(J.client_sign_in(client, BAD_UTF8, "password1", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_sign_in(client, "x@example.com", "pass" BAD_UTF8, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_traditional(client, "{\"email\":\"" BAD_UTF8 "\"}", "password1", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_traditional(client, "{\"email\":\"a@example.com\"}", BAD_UTF8, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_traditional(client, "{\"email\":", "password1", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_traditional(client, "[\"a@example.com\"]", "password1", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    attributes = json_object();
    json_object_set_new(attributes, "email", json_string_nocheck("a" BAD_UTF8 "@example.com"));
    CHECK_FAILS_OUT(J.client_register_traditional_jansson(client, attributes, "password1", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    json_decref(attributes);
    attributes = json_array();
    CHECK_FAILS_OUT(J.client_register_traditional_jansson(client, attributes, "password1", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    json_decref(attributes);
    CHECK_ASYNC_REFUSED(
        J.client_sign_in_async(client, BAD_UTF8, "password1", recorder_callback, &r_, recorder_free, &req_),
        JUMP_E_INVALID_ARGUMENT);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
}

TEST(invalid_utf8_and_malformed_json_record) {
    jump_record *record = NULL;
    jump_client *client = signed_in(&record, NULL);
    char *out;
    json_t *value, *changes;
    const char *malformed[] = {"", "\"unterminated", "{", "[1,", "tru", "'single'", "\"" BAD_UTF8 "\"", BAD_UTF8};
    size_t i;
    REQUIRE(client != NULL);
    CHECK_FAILS_OUT(J.record_get(record, "/" BAD_UTF8, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.record_get_string(record, "/about" BAD_UTF8, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_set_string(record, "/aboutMe", "hello " BAD_UTF8), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_set_string(record, "/" BAD_UTF8, "x"), JUMP_E_INVALID_ARGUMENT);
    for (i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
        if (!CHECK_STATUS(J.record_set(record, "/aboutMe", malformed[i]), JUMP_E_INVALID_ARGUMENT))
            harness_note("value: '%s'", malformed[i]);
    value = json_string_nocheck("bad " BAD_UTF8);
    CHECK_STATUS(J.record_set_jansson(record, "/aboutMe", value), JUMP_E_INVALID_ARGUMENT);
    json_decref(value);
    /* Nothing of the above became a change. */
    REQUIRE_OK(J.record_changes(record, &out));
    changes = take_json(out);
    CHECK_MSG(json_array_size(json_object_get(changes, "changed")) == 0, "refused edits were recorded as changes");
    json_decref(changes);
    J.record_free(record);
    J.client_free(client);
}

/* ---- freed, wrong-kind and random handles ------------------------------------------------------------- */

TEST(freed_handles) {
    jump_config *config = NULL;
    jump_client *client = offline_client();
    jump_request *request = NULL;
    char *out;
    recorder r;
    REQUIRE(client != NULL);
    REQUIRE_OK(J.config_new(&config));
    J.config_free(config);
    CHECK_STATUS(J.config_set_string(config, "captureLocale", "en-US"), JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.config_to_json(config, &out), out, JUMP_E_INVALID_HANDLE);
    J.config_free(config); /* double free */

    recorder_init(&r);
    REQUIRE_OK(J.client_sign_in_async(client, "x@example.com", "password1", recorder_callback, &r, recorder_free,
                                      &request));
    CHECK_OK(J.request_wait(request, 10000));
    J.request_free(request);
    CHECK_STATUS(J.request_cancel(request), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.request_wait(request, 0), JUMP_E_INVALID_HANDLE);
    J.request_free(request); /* double free */

    J.client_free(client);
    CHECK_FAILS_OUT(J.client_state(client, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_sign_out(client), JUMP_E_INVALID_HANDLE);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client); /* double free */
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
}

/* A client freed while other threads call into it: each call either sees the live client or gets
 * JUMP_E_INVALID_HANDLE (is_signed_in: 0), never a crash or another status. */
#define HAMMER_THREADS 4

typedef struct {
    jump_client *client;
    volatile int stop;
    int calls;
    int bad_status;
    int bad_signed_in;
} hammer_state;

static void *hammer(void *arg) {
    hammer_state *h = arg;
    int calls = 0;
    while (!h->stop || calls < 1000) {
        char *out = NULL;
        int signed_in = J.client_is_signed_in(h->client);
        jump_status s = J.client_state(h->client, &out);
        if (signed_in != 0 && signed_in != 1) __atomic_add_fetch(&h->bad_signed_in, 1, __ATOMIC_RELAXED);
        if (s != JUMP_OK && s != JUMP_E_INVALID_HANDLE) __atomic_add_fetch(&h->bad_status, 1, __ATOMIC_RELAXED);
        if (out != NULL) J.string_free(out);
        calls++;
        if (calls >= 200000) break;
    }
    __atomic_add_fetch(&h->calls, calls, __ATOMIC_RELAXED);
    return NULL;
}

TEST(free_while_other_threads_use_the_handle) {
    int round;
    for (round = 0; round < 20; round++) {
        hammer_state h;
        pthread_t threads[HAMMER_THREADS];
        int i, started = 0;
        char *out;
        memset(&h, 0, sizeof h);
        h.client = offline_client();
        REQUIRE(h.client != NULL);
        for (i = 0; i < HAMMER_THREADS; i++)
            if (pthread_create(&threads[i], NULL, hammer, &h) == 0) started++;
        REQUIRE(started == HAMMER_THREADS);
        {
            struct timespec pause = {0, (2000L + 1000L * round) * 1000L};
            nanosleep(&pause, NULL);
        }
        J.client_free(h.client);
        __atomic_store_n(&h.stop, 1, __ATOMIC_RELEASE);
        for (i = 0; i < HAMMER_THREADS; i++) pthread_join(threads[i], NULL);
        CHECK_EQ_INT(h.bad_status, 0);
        CHECK_EQ_INT(h.bad_signed_in, 0);
        CHECK(h.calls >= HAMMER_THREADS * 1000);
        CHECK_FAILS_OUT(J.client_state(h.client, &out), out, JUMP_E_INVALID_HANDLE);
        CHECK_EQ_INT(J.client_is_signed_in(h.client), 0);
    }
}

/* Handles of freed objects stay invalid when their slots are reused by new objects (enough of them that
 * reuse certainly happens), and no new handle equals an old one. */
#define CHURN 3000

TEST(freed_handle_stays_invalid_after_reuse) {
    static jump_config *old[CHURN], *fresh[CHURN];
    size_t i, j;
    int equal = 0, revived = 0;
    char *out;
    for (i = 0; i < CHURN; i++) REQUIRE_OK(J.config_new(&old[i]));
    for (i = 0; i < CHURN; i++) J.config_free(old[i]);
    for (i = 0; i < CHURN; i++) REQUIRE_OK(J.config_new(&fresh[i]));
    for (i = 0; i < CHURN; i++) {
        if (J.config_set_string(old[i], "captureLocale", "en-US") != JUMP_E_INVALID_HANDLE) revived++;
        for (j = 0; j < CHURN; j++) equal += old[i] == fresh[j];
    }
    CHECK_EQ_INT(revived, 0);
    CHECK_EQ_INT(equal, 0);
    for (i = 0; i < CHURN; i++) CHECK_OK(J.config_set_string(fresh[i], "captureLocale", "en-US"));
    /* A freed client handle, after a client of the same kind took its place, is not that new client. */
    {
        jump_client *first = offline_client(), *second;
        REQUIRE(first != NULL);
        J.client_free(first);
        for (i = 0; i < 100; i++) J.config_free(fresh[i]); /* more free slots, so reuse may pick first's */
        second = offline_client();
        REQUIRE(second != NULL);
        CHECK(first != second);
        CHECK_FAILS_OUT(J.client_state(first, &out), out, JUMP_E_INVALID_HANDLE);
        CHECK_OK(J.client_state(second, &out));
        if (out != NULL) J.string_free(out);
        J.client_free(second);
    }
    for (i = 100; i < CHURN; i++) J.config_free(fresh[i]);
}

TEST(freed_record_handle) {
    jump_record *record = NULL, *second = NULL;
    jump_client *client = signed_in(&record, NULL);
    char *out;
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_record(client, &second));
    J.record_free(record);
    CHECK_FAILS_OUT(J.record_get(record, "/email", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.record_set_string(record, "/aboutMe", "x"), JUMP_E_INVALID_HANDLE);
    J.record_free(record); /* double free */
    /* Another view of the same record is unaffected. */
    CHECK_OK(J.record_get(second, "/email", &out));
    if (out != NULL) J.string_free(out);
    J.record_free(second);
    J.client_free(client);
}

TEST(wrong_kind_handles) {
    jump_config *config = NULL;
    jump_record *record = NULL;
    jump_client *client = signed_in(&record, NULL);
    jump_request *request = NULL;
    recorder r;
    char *out;
    REQUIRE(client != NULL);
    REQUIRE_OK(J.config_new(&config));
    recorder_init(&r);
    REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &r, recorder_free, &request));

    CHECK_FAILS_OUT(J.client_state((jump_client *)config, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_state((jump_client *)record, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_state((jump_client *)request, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.config_to_json((jump_config *)client, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.record_get((jump_record *)client, "/email", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.record_get((jump_record *)request, "/email", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.request_cancel((jump_request *)record), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.request_wait((jump_request *)client, 0), JUMP_E_INVALID_HANDLE);
    CHECK_EQ_INT(J.client_is_signed_in((jump_client *)record), 0);
    CHECK_STATUS(J.client_new((jump_config *)client, (jump_client **)&out), JUMP_E_INVALID_HANDLE);

    /* Freeing through the wrong _free function must not free the object. */
    J.config_free((jump_config *)client);
    J.client_free((jump_client *)config);
    J.record_free((jump_record *)request);
    J.request_free((jump_request *)record);
    CHECK_OK(J.config_set_string(config, "captureLocale", "fr-FR"));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK_OK(J.record_get(record, "/email", &out));
    if (out != NULL) J.string_free(out);
    CHECK_OK(J.request_wait(request, 10000));

    J.request_free(request);
    J.record_free(record);
    J.config_free(config);
    J.client_free(client);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
}

TEST(random_pointer_handles) {
    unsigned char garbage[256];
    unsigned char *heap = malloc(256);
    void *pointers[7];
    size_t i;
    char *out;
    memset(garbage, 0xA5, sizeof garbage);
    memset(heap, 0x5A, 256);
    pointers[0] = (void *)(uintptr_t)0xdeadbeef0ULL;
    pointers[1] = garbage;
    pointers[2] = heap;
    pointers[3] = (void *)(uintptr_t)1;
    pointers[4] = (void *)&pointers;
    pointers[5] = (void *)(uintptr_t)0x4A55FFFFFFFFFFF0ULL; /* libjump's tag, a slot beyond any allocated */
    pointers[6] = (void *)(uintptr_t)0x4A55000000000018ULL; /* libjump's tag, misaligned */
    for (i = 0; i < sizeof pointers / sizeof pointers[0]; i++) {
        CHECK_FAILS_OUT(J.client_state((jump_client *)pointers[i], &out), out, JUMP_E_INVALID_HANDLE);
        CHECK_STATUS(J.config_set_int((jump_config *)pointers[i], "requestTimeoutMs", 1), JUMP_E_INVALID_HANDLE);
        CHECK_FAILS_OUT(J.record_get((jump_record *)pointers[i], "/email", &out), out, JUMP_E_INVALID_HANDLE);
        CHECK_STATUS(J.request_cancel((jump_request *)pointers[i]), JUMP_E_INVALID_HANDLE);
        CHECK_EQ_INT(J.client_is_signed_in((jump_client *)pointers[i]), 0);
        /* Freeing something libjump never made is harmless. */
        J.config_free((jump_config *)pointers[i]);
        J.client_free((jump_client *)pointers[i]);
        J.record_free((jump_record *)pointers[i]);
        J.request_free((jump_request *)pointers[i]);
    }
    /* The memory behind the fake handles is untouched. */
    for (i = 0; i < sizeof garbage; i++)
        if (garbage[i] != 0xA5 || heap[i] != 0x5A) break;
    CHECK_MSG(i == sizeof garbage, "libjump wrote into memory behind a fake handle");
    free(heap);
}

/* ---- broken servers -------------------------------------------------------------------------------- */

static void check_fault(const char *kind, const char *const *keywords) {
    jump_client *client = signed_in(NULL, NULL);
    json_t *detail;
    const char *message;
    size_t i;
    int named = 0;
    if (!CHECK(client != NULL)) return;
    CHECK(emu_fault(kind, 5, "/entity", 0) == 0);
    CHECK_STATUS(J.client_fetch_record(client), JUMP_E_SERVER);
    detail = json_parse(J.error_last());
    message = json_str(detail, "message");
    for (i = 0; keywords[i] != NULL; i++) named |= contains_ci(message, keywords[i]);
    CHECK_MSG(named, "fault %s: the message does not say what was wrong: %s", kind, message ? message : "(none)");
    json_decref(detail);
    emu_clear_faults();
    /* Still signed in, and the next call works. */
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK_OK(J.client_fetch_record(client));
    J.client_free(client);
}

TEST(server_answers_http_500) {
    const char *words[] = {"500", NULL};
    check_fault("http_500", words);
}

TEST(server_answers_html) {
    const char *words[] = {"html", "json", NULL};
    check_fault("html", words);
}

TEST(server_answers_garbage) {
    const char *words[] = {"json", "parse", "invalid", "malformed", NULL};
    check_fault("garbage", words);
}

TEST(server_answers_empty_body) {
    const char *words[] = {"empty", "json", "no body", NULL};
    check_fault("empty", words);
}

TEST(garbage_during_sign_in) {
    jump_client *client;
    char *email, *uuid, *out;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    email = unique_email("garbage");
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    CHECK(uuid != NULL);
    CHECK_OK(J.client_load_flow(client));
    CHECK(emu_fault("garbage", 5, "/oauth/auth_native_traditional", 0) == 0);
    CHECK_FAILS_OUT(J.client_sign_in(client, email, TEST_PASSWORD, &out), out, JUMP_E_SERVER);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    emu_clear_faults();
    out = NULL;
    CHECK_OK(J.client_sign_in(client, email, TEST_PASSWORD, &out));
    J.string_free(out);
    free(email);
    free(uuid);
    J.client_free(client);
}

TEST(nothing_listening_is_a_network_error) {
    jump_client *client = offline_client();
    char *out;
    REQUIRE(client != NULL);
    CHECK_FAILS_OUT(J.client_sign_in(client, "x@example.com", "password1", &out), out, JUMP_E_NETWORK);
    CHECK_STATUS(J.client_load_flow(client), JUMP_E_NETWORK);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
}

TEST(slow_server_is_a_timeout) {
    jump_client *client;
    char *uuid;
    double start, elapsed;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    client = new_client(NULL, "{\"requestTimeoutMs\":500}");
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    CHECK(emu_fault("delay", 3, "/entity", 1500) == 0);
    start = now_ms();
    CHECK_STATUS(J.client_fetch_record(client), JUMP_E_TIMEOUT);
    elapsed = now_ms() - start;
    CHECK_MSG(elapsed < 4500, "the timed-out call took %.0f ms", elapsed);
    emu_clear_faults();
    sleep_ms(1200); /* let the delayed replies drain */
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    free(uuid);
    J.client_free(client);
}

TEST(odd_credentials_do_not_trap) {
    jump_client *client;
    size_t big = 1 << 20;
    char *huge, *out;
    jump_status s;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    huge = malloc(big + 1);
    memset(huge, 'a', big);
    huge[big] = '\0';
    out = SENTINEL;
    s = J.client_sign_in(client, "", "", &out);
    CHECK_MSG(s != JUMP_OK && out == NULL, "sign-in with empty strings returned %d", (int)s);
    out = SENTINEL;
    s = J.client_sign_in(client, "x@example.com", huge, &out);
    CHECK_MSG(s != JUMP_OK && out == NULL, "sign-in with a 1 MB password returned %d", (int)s);
    out = SENTINEL;
    s = J.client_sign_in(client, "\xe2\x98\x83@example.com", "\xf0\x9f\x94\x91\xf0\x9f\x94\x91-pass", &out);
    CHECK_MSG(s != JUMP_OK && out == NULL, "sign-in with an unknown unicode user returned %d", (int)s);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    free(huge);
    J.client_free(client);
}

/* ---- record paths ------------------------------------------------------------------------------------- */

TEST(malformed_record_paths) {
    jump_record *record = NULL;
    jump_client *client = signed_in(&record, NULL);
    const char *paths[] = {"",          "no-slash",   "/a//b",     "/photos#x",        "/photos#",
                           "/#1",       "//",         "/aboutMe/", "/photos#-1",       "/photos#99999999999999999999999",
                           "/photos#1", "/nonexistentAttribute",   "/primaryAddress/nope",
                           "/aboutMe/deeper", "/photos#1/value", "aboutMe", "/ aboutMe"};
    size_t i;
    char *out, *changes_text;
    json_t *changes;
    REQUIRE(client != NULL);
    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        jump_status s;
        out = SENTINEL;
        s = J.record_get(record, paths[i], &out);
        CHECK_MSG(s == JUMP_E_INVALID_ARGUMENT || s == JUMP_E_NOT_FOUND, "record_get(\"%s\") returned %d (%s)",
                  paths[i], (int)s, harness_status_name(s));
        CHECK_MSG(out == NULL, "record_get(\"%s\"): out not NULL", paths[i]);
        out = SENTINEL;
        s = J.record_get_string(record, paths[i], &out);
        CHECK_MSG(s == JUMP_E_INVALID_ARGUMENT || s == JUMP_E_NOT_FOUND, "record_get_string(\"%s\") returned %d",
                  paths[i], (int)s);
        CHECK_MSG(out == NULL, "record_get_string(\"%s\"): out not NULL", paths[i]);
        s = J.record_set(record, paths[i], "\"value\"");
        CHECK_MSG(s == JUMP_E_INVALID_ARGUMENT || s == JUMP_E_NOT_FOUND, "record_set(\"%s\") returned %d (%s)",
                  paths[i], (int)s, harness_status_name(s));
    }
    REQUIRE_OK(J.record_changes(record, &changes_text));
    changes = take_json(changes_text);
    CHECK_MSG(json_array_size(json_object_get(changes, "changed")) == 0, "refused paths were recorded as changes");
    json_decref(changes);
    J.record_free(record);
    J.client_free(client);
}

/* The saved-account calls (jump.h "Several accounts"): bad arguments are statuses, an unknown uuid is
 * JUMP_E_NOT_FOUND in both modes, and a freed client is JUMP_E_INVALID_HANDLE. */
TEST(bad_arguments_account_calls) {
    const char *modes[2] = {"single", "multiple"};
    int i;
    for (i = 0; i < 2; i++) {
        char extra[64];
        jump_client *client;
        char *out;
        json_t *listed;
        snprintf(extra, sizeof extra, "{\"storageDirectory\":\":memory:\",\"accounts\":\"%s\"}", modes[i]);
        client = new_client(NULL, extra);
        REQUIRE(client != NULL);
        CHECK_FAILS_OUT(J.client_accounts(NULL, &out), out, JUMP_E_INVALID_HANDLE);
        CHECK_STATUS(J.client_accounts(client, NULL), JUMP_E_INVALID_ARGUMENT);
        REQUIRE_OK(J.client_accounts(client, &out));
        listed = take_json(out);
        CHECK_MSG(json_array_size(json_object_get(listed, "accounts")) == 0 && json_is_null(json_object_get(listed, "active")),
                  "a new %s client lists accounts", modes[i]);
        json_decref(listed);
        CHECK_STATUS(J.client_switch_account(NULL, "x"), JUMP_E_INVALID_HANDLE);
        CHECK_STATUS(J.client_switch_account(client, NULL), JUMP_E_INVALID_ARGUMENT);
        CHECK_STATUS(J.client_switch_account(client, BAD_UTF8), JUMP_E_INVALID_ARGUMENT);
        CHECK_STATUS(J.client_switch_account(client, "no-such-uuid"), JUMP_E_NOT_FOUND);
        CHECK_STATUS(J.client_remove_account(NULL, "x"), JUMP_E_INVALID_HANDLE);
        CHECK_STATUS(J.client_remove_account(client, NULL), JUMP_E_INVALID_ARGUMENT);
        CHECK_STATUS(J.client_remove_account(client, BAD_UTF8), JUMP_E_INVALID_ARGUMENT);
        CHECK_STATUS(J.client_remove_account(client, "no-such-uuid"), JUMP_E_NOT_FOUND);
        CHECK_ASYNC_REFUSED(J.client_switch_account_async(NULL, "x", recorder_callback, &r_, recorder_free, &req_),
                            JUMP_E_INVALID_HANDLE);
        CHECK_ASYNC_REFUSED(J.client_switch_account_async(client, NULL, recorder_callback, &r_, recorder_free, &req_),
                            JUMP_E_INVALID_ARGUMENT);
        J.client_free(client);
        CHECK_FAILS_OUT(J.client_accounts(client, &out), out, JUMP_E_INVALID_HANDLE);
        CHECK_STATUS(J.client_switch_account(client, "x"), JUMP_E_INVALID_HANDLE);
        CHECK_STATUS(J.client_remove_account(client, "x"), JUMP_E_INVALID_HANDLE);
    }
}
