/* test_sign_in_token.c - sign-in tokens, API-key mode, identify and authorized requests through the C ABI,
 * against the emulator's token API (users and tokens made through its admin API). */
#include "harness.h"
#include "support.h"

/* A client with no Capture settings, pointed at the emulator's token API. */
static jump_client *token_client(void) {
    char extra[512];
    snprintf(extra, sizeof extra, "{\"signInTokenAuthBaseUrl\":\"%s\",\"signInTokenApiBaseUrl\":\"%s\","
             "\"storageDirectory\":\":memory:\"}", emu_url(), emu_url());
    return new_client(NULL, extra);
}

static json_t *status_of(jump_client *client) {
    char *text = NULL;
    if (!CHECK_OK(J.client_status(client, &text))) return NULL;
    return take_json(text);
}

TEST(decode_sign_in_and_request) {
    char *user, *token, *out = NULL, path[160];
    jump_client *client;
    json_t *json;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return;
    user = emu_token_user();
    REQUIRE(user != NULL);
    token = emu_sign_in_token(user);
    REQUIRE(token != NULL);
    REQUIRE_OK(J.sign_in_token_decode(token, &out));
    json = take_json(out);
    CHECK_STR_EQ(json_str(json, "user_id"), user);
    CHECK_STR_EQ(json_str(json, "environment"), "dev");
    json_decref(json);

    client = token_client();
    REQUIRE(client != NULL);
    out = NULL;
    REQUIRE_OK(J.client_sign_in_with_token(client, token, &out));
    json = take_json(out);
    CHECK(json_is_true(json_object_get(json, "changed")));
    json_decref(json);
    json = status_of(client);
    CHECK(json_is_true(json_object_get(json, "use_sign_in_token")));
    CHECK_STR_EQ(json_str(json, "user_id"), user);
    json_decref(json);

    snprintf(path, sizeof path, "/v2/user/%s/profile", user);
    out = NULL;
    REQUIRE_OK(J.client_request(client, "PUT", path, "{\"Content-Type\":\"application/json\"}", "{\"a\":1}", 7, &out));
    json = take_json(out);
    CHECK_EQ_INT(json_integer_value(json_object_get(json, "status")), 200);
    json_decref(json);
    out = NULL;
    REQUIRE_OK(J.client_request(client, "GET", path, NULL, NULL, 0, &out));
    json = take_json(out);
    CHECK_EQ_INT(json_integer_value(json_object_get(json, "status")), 200);
    CHECK_MSG(strstr(json_str(json, "body") ? json_str(json, "body") : "", "\"a\":1") != NULL, "body: %s",
              json_str(json, "body") ? json_str(json, "body") : "(none)");
    json_decref(json);

    CHECK_OK(J.client_sign_out(client));
    json = status_of(client);
    CHECK(json_is_false(json_object_get(json, "signed_in")));
    json_decref(json);
    J.client_free(client);
    free(token);
    free(user);
}

/* jump_client_request_async: the body is copied before the call returns, the completion carries the same
 * object as jump_client_request, a request held by the server can be cancelled, and a bad argument still
 * gets its one completion. */
TEST(request_async_copies_its_body_and_can_be_cancelled) {
    char *user, *token, path[160], body[16];
    jump_client *client;
    jump_request *request = NULL;
    recorder done;
    json_t *payload, *result;
    double start;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return;
    user = emu_token_user();
    REQUIRE(user != NULL);
    token = emu_sign_in_token(user);
    REQUIRE(token != NULL);
    client = token_client();
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in_with_token(client, token, NULL));
    recorder_init(&done);
    snprintf(path, sizeof path, "/v2/user/%s/profile", user);

    snprintf(body, sizeof body, "{\"a\":2}");
    CHECK_OK(J.client_request_async(client, "PUT", path, "{\"Content-Type\":\"application/json\"}", body,
                                    strlen(body), recorder_callback, &done, recorder_free, &request));
    memset(body, 'x', sizeof body - 1); /* the caller's buffer is gone once the call returned */
    CHECK_OK(J.request_wait(request, 10000));
    J.request_free(request);
    payload = recorder_payload(&done, 0);
    CHECK_STR_EQ(json_str(payload, "operation"), "request");
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(payload, "result"), "status")), 200);
    json_decref(payload);

    CHECK_OK(J.client_request_async(client, "GET", path, NULL, NULL, 0, recorder_callback, &done, recorder_free,
                                    &request));
    CHECK_OK(J.request_wait(request, 10000));
    J.request_free(request);
    payload = recorder_payload(&done, 1);
    result = json_object_get(payload, "result");
    CHECK_EQ_INT(json_integer_value(json_object_get(result, "status")), 200);
    CHECK_MSG(strstr(json_str(result, "body") ? json_str(result, "body") : "", "\"a\":2") != NULL, "body: %s",
              json_str(result, "body") ? json_str(result, "body") : "(none)");
    json_decref(payload);

    CHECK(emu_fault("delay", 1, path, 5000) == 0);
    CHECK_OK(J.client_request_async(client, "GET", path, NULL, NULL, 0, recorder_callback, &done, recorder_free,
                                    &request));
    sleep_ms(300); /* on the wire, held by the emulator */
    start = now_ms();
    CHECK_OK(J.request_cancel(request));
    CHECK_OK(J.request_wait(request, 10000));
    CHECK_MSG(now_ms() - start < 3000, "the cancelled request took %.0f ms to complete", now_ms() - start);
    J.request_free(request);
    payload = recorder_payload(&done, 2);
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), JUMP_E_CANCELLED);
    json_decref(payload);

    request = (jump_request *)&request;
    CHECK_STATUS(J.client_request_async(client, "BREW", path, NULL, NULL, 0, recorder_callback, &done, recorder_free,
                                        &request), JUMP_E_INVALID_ARGUMENT);
    CHECK(request == NULL);
    J.client_free(client);
    CHECK(recorder_wait_frees(&done, 4, 5000));
    CHECK_EQ_INT(recorder_calls(&done), 4);
    recorder_destroy(&done);
    free(token);
    free(user);
}

typedef struct identify_answer {
    const char *token;
    int calls;
} identify_answer;

static jump_status answer_with_token(void *userdata, const char *external_user_id, jump_storage_sink sink,
                                     void *sink_context) {
    identify_answer *answer = userdata;
    char json[4096];
    (void)external_user_id;
    answer->calls++;
    snprintf(json, sizeof json, "{\"type\":\"sign_in_token\",\"sign_in_token\":\"%s\"}", answer->token);
    sink(sink_context, json, strlen(json));
    return JUMP_OK;
}

static jump_status refuse(void *userdata, const char *external_user_id, jump_storage_sink sink, void *sink_context) {
    (void)userdata, (void)external_user_id, (void)sink, (void)sink_context;
    return JUMP_E_NETWORK;
}

TEST(identify_calls_back_only_when_the_user_differs) {
    char *a, *b, *token_a, *token_b, *out = NULL;
    identify_answer answer;
    jump_client *client;
    json_t *json;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return;
    a = emu_token_user();
    b = emu_token_user();
    REQUIRE(a != NULL && b != NULL);
    token_a = emu_sign_in_token(a);
    token_b = emu_sign_in_token(b);
    client = token_client();
    REQUIRE(client != NULL);
    answer.token = token_a;
    answer.calls = 0;
    REQUIRE_OK(J.client_identify_external_user(client, "app-a", answer_with_token, &answer, &out));
    json = take_json(out);
    CHECK_STR_EQ(json_str(json, "action"), "signed_in");
    json_decref(json);
    CHECK_OK(J.client_identify_external_user(client, "app-a", answer_with_token, &answer, NULL));
    CHECK_EQ_INT(answer.calls, 1);
    answer.token = token_b;
    out = NULL;
    REQUIRE_OK(J.client_identify_external_user(client, "app-b", answer_with_token, &answer, &out));
    json = take_json(out);
    CHECK_STR_EQ(json_str(json, "action"), "switched");
    json_decref(json);
    CHECK_STATUS(J.client_identify_external_user(client, "app-c", refuse, NULL, NULL), JUMP_E_NETWORK);
    json = status_of(client);
    CHECK_STR_EQ(json_str(json, "user_id"), b);
    CHECK_STR_EQ(json_str(json, "external_user_id"), "app-b");
    json_decref(json);
    J.client_free(client);
    free(token_a);
    free(token_b);
    free(a);
    free(b);
}

TEST(api_key_mode_and_mismatch) {
    char *a, *b, *token_b, path[160], *out = NULL;
    jump_client *client;
    json_t *json;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return;
    a = emu_token_user();
    b = emu_token_user();
    REQUIRE(a != NULL && b != NULL);
    token_b = emu_sign_in_token(b);
    client = token_client();
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_use_api_key(client, "jump-team-key", a, "dev", "us"));
    snprintf(path, sizeof path, "/v2/user/%s", a);
    REQUIRE_OK(J.client_request(client, "GET", path, NULL, NULL, 0, &out));
    json = take_json(out);
    CHECK_EQ_INT(json_integer_value(json_object_get(json, "status")), 200);
    json_decref(json);
    CHECK_STATUS(J.client_sign_in_with_token(client, token_b, NULL), JUMP_E_ALREADY_SIGNED_IN);
    json = json_parse(J.error_last());
    CHECK_STR_EQ(json_str(json, "mismatch"), "user_id");
    json_decref(json);
    CHECK_STATUS(J.client_use_api_key(client, "k", NULL, "mars", "us"), JUMP_E_INVALID_ARGUMENT);
    J.client_free(client);
    free(token_b);
    free(a);
    free(b);
}

TEST(bad_arguments) {
    jump_client *client;
    char *out = (char *)&out;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    client = token_client();
    REQUIRE(client != NULL);
    CHECK_STATUS(J.sign_in_token_decode(NULL, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(J.sign_in_token_decode("bm90IGpzb24=", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_sign_in_with_token(client, "\xff", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_sign_in_with_token(NULL, "x", NULL), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_identify_external_user(client, "x", NULL, NULL, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_request(client, "GET", "/v2/x", NULL, NULL, 0, &out), JUMP_E_NOT_SIGNED_IN);
    CHECK_STATUS(J.client_use_api_key(client, "jump-team-key", NULL, "dev", "us"), JUMP_OK);
    CHECK_STATUS(J.client_request(client, "BREW", "/v2/x", NULL, NULL, 0, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_request(client, "GET", "/v2/x", "[1]", NULL, 0, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_request(client, "POST", "/v2/x", NULL, NULL, 3, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_request(client, "GET", "https://example.com/", NULL, NULL, 0, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_request(client, "GET", "/v2/x", "{\"x-jump-api-key\":\"other\"}", NULL, 0, &out),
                 JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_request(client, "GET", "/v2/x", NULL, NULL, 0, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK(out == NULL);
    J.client_free(client);
}
