/*
 * test_social_async.c - the _async variants of the social calls through the C ABI against the emulator, and
 * bad arguments to every social function (statuses, never crashes).
 * The other social tests are in test_social_*.c; their shared helpers in social_support.{c,h}.
 */

#include "harness.h"
#include "social_support.h"

#include <curl/curl.h>
#include <pthread.h>
#include <strings.h>

/* ---- async ------------------------------------------------------------------------------------------------- */

TEST(async_complete_and_native_deliver_the_outcome) {
    jump_client *client, *second;
    recorder r;
    jump_request *request = NULL;
    json_t *payload, *result, *error;
    char *email = unique_email("async"), *token = profile_token("As Ync", email), *location, *uuid = NULL;
    identity ident;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);

    recorder_init(&r);
    REQUIRE_OK(J.client_social_sign_in_native_async(client, "google", token, NULL, NULL, recorder_callback, &r,
                                                    recorder_free, &request));
    CHECK_OK(J.request_wait(request, 30000));
    J.request_free(request);
    payload = completion_of(&r);
    REQUIRE_MSG(payload != NULL, "no completion");
    result = json_object_get(payload, "result");
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), 0);
    CHECK(str_is(payload, "kind", "completion"));
    CHECK_MSG(str_is(result, "outcome", "registered") && json_is_true(json_object_get(result, "is_new")),
              "native async result %s", dump(payload));
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(payload);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    REQUIRE(uuid != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);

    /* The browser path, asynchronously, with an identity made on the page. */
    second = social_client(THIN);
    REQUIRE(second != NULL);
    REQUIRE(create_identity("facebook", "Fa Cebook", email, &ident) == 0);
    location = browser_existing(second, "facebook", NULL, &ident);
    REQUIRE(location != NULL);
    recorder_init(&r);
    request = NULL;
    REQUIRE_OK(J.client_social_complete_async(second, location, recorder_callback, &r, recorder_free, &request));
    CHECK_OK(J.request_wait(request, 30000));
    J.request_free(request);
    payload = completion_of(&r);
    REQUIRE_MSG(payload != NULL, "no completion");
    result = json_object_get(payload, "result");
    /* Same email as the google account: 380 without a merge. The async detail carries the same members. */
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), JUMP_E_MERGE_REQUIRED);
    error = json_object_get(payload, "error");
    CHECK_MSG(json_str(error, "merge_token") != NULL && str_is(error, "existing_provider", "google") &&
                  str_is(error, "conflicting_provider", "facebook"),
              "async merge detail %s", dump(payload));
    json_decref(payload);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);

    /* A completion that does not belong, asynchronously: the same refusal in the completion. */
    recorder_init(&r);
    request = NULL;
    CHECK_OK(J.client_social_complete_async(second, location, recorder_callback, &r, recorder_free, &request));
    payload = completion_of(&r);
    REQUIRE_MSG(payload != NULL, "no completion");
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(str_is(json_object_get(payload, "error"), "reason", "unknown_state"), "async refusal %s",
              dump(payload));
    json_decref(payload);
    J.request_free(request);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    free(location);

    /* And a successful async browser completion: signed in to the account the identity belongs to. */
    {
        identity mine;
        char *mine_email = unique_email("async.browser");
        REQUIRE(create_identity("linkedin", "Li Nked", mine_email, &mine) == 0);
        location = browser_existing(second, "linkedin", NULL, &mine);
        REQUIRE(location != NULL);
        recorder_init(&r);
        request = NULL;
        REQUIRE_OK(J.client_social_complete_async(second, location, recorder_callback, &r, recorder_free, &request));
        payload = completion_of(&r);
        REQUIRE_MSG(payload != NULL, "no completion");
        result = json_object_get(payload, "result");
        CHECK_MSG(json_integer_value(json_object_get(payload, "status")) == 0 && str_is(result, "outcome", "registered") &&
                      str_is(result, "identifier", mine.identifier),
                  "async browser completion %s", dump(payload));
        json_decref(payload);
        J.request_free(request);
        CHECK(recorder_wait_frees(&r, 1, 5000));
        recorder_destroy(&r);
        CHECK_EQ_INT(J.client_is_signed_in(second), 1);
        free(location);
        free(mine_email);
    }
    free(uuid);
    free(token);
    free(email);
    J.client_free(second);
    J.client_free(client);
}

/* ---- bad arguments ----------------------------------------------------------------------------------------- */

#define BAD_UTF8 "\xff\xfe"
#define CHECK_FAILS_OUT(call, out, expected)                                                               \
    do {                                                                                                   \
        out = SENTINEL;                                                                                    \
        CHECK_STATUS(call, expected);                                                                      \
        CHECK_MSG(out == NULL, "%s: the out-parameter was not set to NULL on failure", #call);            \
    } while (0)

/* An async call with a bad argument: refused at its start (that status returned) or started and failed; either
 * way the callback runs once with the status. */
static void check_async_refused(const char *file, int line, const char *what, jump_status got, jump_status expected,
                                recorder *r) {
    json_t *payload;
    if (got != expected && got != JUMP_OK)
        harness_fail(file, line, "%s returned %d, expected %d (or JUMP_OK and the failure in the callback)", what,
                     (int)got, (int)expected);
    if (!recorder_wait_calls(r, 1, 5000)) {
        harness_fail(file, line, "%s: the callback did not run", what);
        return;
    }
    payload = recorder_payload(r, 0);
    if (json_integer_value(json_object_get(payload, "status")) != expected)
        harness_fail(file, line, "%s: the callback reported %lld", what,
                     (long long)json_integer_value(json_object_get(payload, "status")));
    json_decref(payload);
    if (!recorder_wait_frees(r, 1, 5000)) harness_fail(file, line, "%s: userdata_free did not run", what);
}
#define CHECK_ASYNC_REFUSED(call, expected)                                                                \
    do {                                                                                                   \
        recorder r_;                                                                                       \
        jump_status s_;                                                                                    \
        recorder_init(&r_);                                                                                \
        s_ = call;                                                                                         \
        check_async_refused(__FILE__, __LINE__, #call, s_, expected, &r_);                                 \
        recorder_destroy(&r_);                                                                             \
    } while (0)

/* An open_url that cannot open anything. */
static jump_status refuse_open(void *userdata, const char *url) {
    (void)userdata;
    (void)url;
    return JUMP_E_UNSUPPORTED;
}

TEST(bad_arguments_are_statuses_never_crashes) {
    jump_client *client, *freed;
    char *out;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);

    /* Providers and begin. */
    CHECK_FAILS_OUT(J.client_providers(NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_providers(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_load_engage_config(NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_begin(NULL, "google", NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_begin(client, NULL, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, BAD_UTF8, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "", NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_social_begin(client, "google", NULL, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "[1,2]", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "options"), "non-object options: %s", J.error_last());
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"link\":", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"bogus\":1}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "bogus"), "unknown option: %s", J.error_last());
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"force_reauth\":\"yes\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"input\":" "\"" BAD_UTF8 "\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"link\":true,\"merge_token\":\"m\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"redirect_uri\":\"javascript:alert(1)\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"redirect_uri\":\"http://example.com/cb\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);

    /* Complete. */
    CHECK_FAILS_OUT(J.client_social_complete(NULL, "http://127.0.0.1/x?state=1", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_complete(client, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_complete(client, "http://127.0.0.1/x?state=" BAD_UTF8, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_complete(client, "", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_complete(client, "http://127.0.0.1/x?state=%zz%&&==&state", &out), out,
                    JUMP_E_INVALID_ARGUMENT);

    /* Native. */
    CHECK_FAILS_OUT(J.client_social_sign_in_native(NULL, "google", "{}", NULL, NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, NULL, "{}", NULL, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", NULL, NULL, NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "", NULL, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", BAD_UTF8, NULL, NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "twitter", "{}", BAD_UTF8, NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, BAD_UTF8, "{}", NULL, NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "{}", NULL, "\"link\"", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "{}", NULL, "{\"link\":1}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "{}", NULL, "{\"merge_token\":7}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    /* Linking needs a signed-in user. */
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "{}", NULL, "{\"link\":true}", &out), out,
                    JUMP_E_NOT_SIGNED_IN);

    /* Registration, merge, linked profiles, unlink, token URL. */
    CHECK_FAILS_OUT(J.client_register_social(NULL, "t", "{}", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_register_social(client, NULL, "{}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, "", "{}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, BAD_UTF8, "{}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, "t", NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, "t", "[]", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, "t", "{", &out), out, JUMP_E_INVALID_ARGUMENT);
    /* A token Capture never saw. */
    CHECK(J.client_register_social(client, "0123456789012345678901234567890123456789",
                                   "{\"email\":\"never@example.com\"}", &out) != JUMP_OK);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK_FAILS_OUT(J.client_sign_in_merge(NULL, "a@example.com", "pw123456", "m", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_sign_in_merge(client, "a@example.com", "pw123456", NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_sign_in_merge(client, "a@example.com", "pw123456", "", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_sign_in_merge(client, NULL, "pw123456", "m", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_sign_in_merge(client, "a@example.com", BAD_UTF8, "m", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_linked_profiles(NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_linked_profiles(client, &out), out, JUMP_E_NOT_SIGNED_IN);
    CHECK_STATUS(J.client_linked_profiles(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_unlink_account(NULL, "x"), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_unlink_account(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_unlink_account(client, BAD_UTF8), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_unlink_account(client, "https://x.example/1"), JUMP_E_NOT_SIGNED_IN);
    CHECK_STATUS(J.client_set_token_url(NULL, NULL), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_set_token_url(client, BAD_UTF8), JUMP_E_INVALID_ARGUMENT);

    /* Async starts refused: the status, and the callback once with it. */
    CHECK_ASYNC_REFUSED(J.client_social_complete_async(NULL, "x", recorder_callback, &r_, recorder_free, NULL),
                        JUMP_E_INVALID_HANDLE);
    CHECK_ASYNC_REFUSED(J.client_social_complete_async(client, NULL, recorder_callback, &r_, recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_social_sign_in_native_async(client, "google", BAD_UTF8, NULL, NULL, recorder_callback,
                                                             &r_, recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_social_sign_in_native_async(client, "google", "{}", NULL, "[]", recorder_callback, &r_,
                                                             recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_register_social_async(client, "t", "7", recorder_callback, &r_, recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_sign_in_merge_async(client, "a@example.com", "pw123456", NULL, recorder_callback, &r_,
                                                     recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_unlink_account_async(NULL, "x", recorder_callback, &r_, recorder_free, NULL),
                        JUMP_E_INVALID_HANDLE);

    /* A freed client handle. */
    freed = social_client(NULL);
    REQUIRE(freed != NULL);
    J.client_free(freed);
    CHECK_FAILS_OUT(J.client_providers(freed, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_begin(freed, "google", NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_complete(freed, "http://127.0.0.1/?state=x", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(freed, "google", "{}", NULL, NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_linked_profiles(freed, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_unlink_account(freed, "x"), JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_share_content(freed, "{\"action\":\"a\"}", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_share(freed, "{\"action\":\"a\"}", "[\"facebook\"]", &out), out, JUMP_E_INVALID_HANDLE);

    /* Sharing arguments. */
    CHECK_FAILS_OUT(J.client_share(client, NULL, "[\"facebook\"]", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share(client, "{\"action\":\"a\"}", NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share(client, "{\"url\":\"https://example.com\"}", "[\"facebook\"]", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share(client, "{\"action\":\"a\"}", "{\"facebook\":1}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share(client, "[]", "[\"facebook\"]", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share_content(client, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share_content(client, "{\"action\":", &out), out, JUMP_E_INVALID_ARGUMENT);
    /* Loopback arguments. */
    CHECK_FAILS_OUT(J.client_social_sign_in_loopback(client, "google", NULL, NULL, NULL, 1000, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_loopback(NULL, "google", NULL, NULL, NULL, 1000, &out), out,
                    JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_sign_in_loopback(client, "google", "{\"redirect_uri\":\"http://127.0.0.1:1/x\"}",
                                                     refuse_open, NULL, 1000, &out),
                    out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_loopback(client, "google", NULL, refuse_open, NULL, 5000, &out), out,
                    JUMP_E_UNSUPPORTED);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
}
