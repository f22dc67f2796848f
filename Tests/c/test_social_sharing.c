/*
 * test_social_sharing.c - sharing through the C ABI against the emulator: activities and set_status per
 * provider, failures classified per provider, sharing tokens across a restart and a sign-out, and the email /
 * SMS content with shortened URLs.
 * The other social tests are in test_social_*.c; their shared helpers in social_support.{c,h}.
 */

#include "harness.h"
#include "social_support.h"
#include "drop_relay.h"

#include <curl/curl.h>
#include <pthread.h>
#include <strings.h>

/* ---- sharing ----------------------------------------------------------------------------------------------- */

/* GET /emulator/engage/activities -> the array (new reference) or NULL. */
static json_t *activities(void) {
    json_t *reply = emu_call("GET", "/emulator/engage/activities", NULL, NULL);
    json_t *list = json_object_get(reply, "activities");
    if (list != NULL) json_incref(list);
    json_decref(reply);
    return list;
}

/* A client signed in through the browser with facebook (thin registration) and twitter linked, so it holds
 * both device tokens. */
static jump_client *sharing_client(char **facebook_identifier) {
    jump_client *client = social_client(THIN);
    char *email = unique_email("share"), *location;
    json_t *result = NULL;
    if (facebook_identifier != NULL) *facebook_identifier = NULL;
    if (client == NULL) return NULL;
    location = browser_new(client, "facebook", NULL, "Sha Re", email);
    if (location == NULL || complete(client, location, &result) != JUMP_OK) {
        printf("    the facebook browser sign-in failed: %s\n", J.error_last());
        free(location);
        free(email);
        J.client_free(client);
        return NULL;
    }
    if (facebook_identifier != NULL) *facebook_identifier = dup_or_null(json_str(result, "identifier"));
    json_decref(result);
    free(location);
    location = browser_new(client, "twitter", "{\"link\":true}", "Sha Re", email);
    if (location == NULL || complete(client, location, &result) != JUMP_OK) {
        printf("    linking twitter through the browser failed: %s\n", J.error_last());
        free(location);
        free(email);
        J.client_free(client);
        return NULL;
    }
    json_decref(result);
    free(location);
    free(email);
    return client;
}

/* A session in `dir` signed in through the browser with facebook (thin registration), its device token kept
 * with it; the client that made it is freed (the app stopped). 1 when it worked. */
static int facebook_session_in(const char *dir, const char *name, const char *email) {
    jump_client *client = social_client_in(dir, THIN);
    char *location;
    json_t *result = NULL;
    int ok;
    if (client == NULL) return 0;
    location = browser_new(client, "facebook", NULL, name, email);
    ok = location != NULL && complete(client, location, &result) == JUMP_OK;
    if (!ok) printf("    the facebook browser sign-in failed: %s\n", J.error_last());
    json_decref(result);
    free(location);
    J.client_free(client);
    return ok;
}

TEST(share_activity_and_status_reach_the_providers) {
    jump_client *client;
    json_t *result, *list, *entry;
    char *out = NULL, *fb_identifier = NULL;
    size_t i;
    int saw_activity = 0, saw_status = 0;
    REQUIRE_EMULATOR();
    client = sharing_client(&fb_identifier);
    REQUIRE(client != NULL);
    emu_call("DELETE", "/emulator/engage/activities", NULL, NULL);

    REQUIRE_OK(J.client_share(client,
                              "{\"action\":\"read an article\",\"url\":\"https://news.example/a/1\","
                              "\"title\":\"Article\",\"user_generated_content\":\"worth it\"}",
                              "[\"facebook\",\"twitter\"]", &out));
    result = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(json_object_get(json_object_get(result, "results"), "facebook"), "ok")) &&
                  str_is(json_object_get(json_object_get(result, "results"), "facebook"), "method", "activity"),
              "share result %s", dump(result));
    CHECK_MSG(str_is(json_object_get(json_object_get(result, "results"), "twitter"), "method", "activity"),
              "twitter with a url: %s", dump(result));
    json_decref(result);

    /* Twitter uses set_status when there is no URL. */
    REQUIRE_OK(J.client_share(client, "{\"action\":\"is thinking\",\"user_generated_content\":\"hello world\"}",
                              "[\"twitter\"]", &out));
    result = take_json(out);
    CHECK_MSG(str_is(json_object_get(json_object_get(result, "results"), "twitter"), "method", "set_status"),
              "twitter without a url: %s", dump(result));
    json_decref(result);

    list = activities();
    for (i = 0; i < json_array_size(list); i++) {
        entry = json_array_get(list, i);
        if (str_is(entry, "provider", "facebook") && str_is(entry, "kind", "activity") &&
            str_is(json_object_get(entry, "activity"), "action", "read an article"))
            saw_activity++;
        if (str_is(entry, "provider", "twitter") && str_is(entry, "kind", "status")) saw_status++;
        if (str_is(entry, "provider", "facebook") && fb_identifier != NULL)
            CHECK_MSG(str_is(entry, "identifier", fb_identifier), "the facebook share went out as %s",
                      str_or(entry, "identifier"));
    }
    CHECK_MSG(saw_activity == 1 && saw_status == 1 && json_array_size(list) == 3, "the emulator recorded %s",
              list ? dump(list) : "(nothing)");
    json_decref(list);
    free(fb_identifier);
    J.client_free(client);
}

TEST(share_failure_is_classified_per_provider) {
    jump_client *client;
    json_t *detail, *results, *failed, *list;
    char *out = NULL;
    REQUIRE_EMULATOR();
    client = sharing_client(NULL);
    REQUIRE(client != NULL);
    emu_call("DELETE", "/emulator/engage/activities", NULL, NULL);
    json_decref(emu_call("POST", "/emulator/engage/share_errors",
                         "{\"provider\":\"facebook\",\"code\":4,\"msg\":\"(#341) Feed action request limit reached\"}",
                         NULL));

    CHECK_STATUS(J.client_share(client, "{\"action\":\"shared\",\"url\":\"https://example.com/x\"}",
                                "[\"facebook\",\"twitter\",\"linkedin\"]", &out),
                 JUMP_E_SERVER);
    CHECK(out == NULL);
    detail = error_detail();
    results = json_object_get(detail, "results");
    failed = json_object_get(results, "facebook");
    CHECK_MSG(json_is_false(json_object_get(failed, "ok")) && str_is(failed, "error_class", "rate_limit") &&
                  json_integer_value(json_object_get(failed, "code")) == 4,
              "facebook: %s", dump(detail));
    CHECK_MSG(json_is_true(json_object_get(json_object_get(results, "twitter"), "ok")), "twitter: %s",
              dump(results));
    /* Not signed in with linkedin through the browser: no device token. */
    CHECK_MSG(str_is(json_object_get(results, "linkedin"), "error_class", "not_signed_in"), "linkedin: %s",
              dump(results));
    json_decref(detail);
    list = activities();
    CHECK_MSG(json_array_size(list) == 1 && str_is(json_array_get(list, 0), "provider", "twitter"),
              "recorded %s", list ? dump(list) : "(nothing)");
    json_decref(list);

    /* An unknown device token on the server means: sign in again. */
    json_decref(emu_call("POST", "/emulator/engage/share_errors",
                         "{\"provider\":\"twitter\",\"code\":0,\"msg\":\"Missing parameter: apiKey\"}", NULL));
    CHECK_STATUS(J.client_share(client, "{\"action\":\"shared\",\"url\":\"https://example.com/y\"}", "[\"twitter\"]",
                                &out),
                 JUMP_E_SERVER);
    detail = error_detail();
    CHECK_MSG(str_is(json_object_get(json_object_get(detail, "results"), "twitter"), "error_class", "reauthenticate"),
              "twitter: %s", dump(detail));
    json_decref(detail);
    /* The queue is used up: the next share goes through. */
    CHECK_OK(J.client_share(client, "{\"action\":\"shared\",\"url\":\"https://example.com/z\"}", "[\"facebook\"]",
                            &out));
    J.string_free(out);
    J.client_free(client);
}

TEST(sharing_tokens_survive_a_restart_and_leave_with_sign_out) {
    const char *dir;
    jump_client *client;
    char *email = unique_email("restart"), *out = NULL;
    json_t *result = NULL, *detail;
    jump_status status;
    REQUIRE_EMULATOR();
    dir = emu_tmpdir();
    REQUIRE(facebook_session_in(dir, "Re Start", email));

    /* The app starts again: still signed in, and still able to share with facebook. */
    client = social_client_in(dir, THIN);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK_OK(J.client_share(client, "{\"action\":\"came back\",\"url\":\"https://example.com/back\"}", "[\"facebook\"]",
                            &out));
    J.string_free(out);
    /* A native sign-in gives no device token: twitter cannot be shared to. */
    {
        char *tw_email = unique_email("restart.tw"), *tw = profile_token("Tw", tw_email);
        CHECK_OK(native(client, "twitter", tw, "secret-1", "{\"link\":true}", &result));
        json_decref(result);
        CHECK_STATUS(J.client_share(client, "{\"action\":\"x\",\"url\":\"https://example.com/t\"}", "[\"twitter\"]",
                                    &out),
                     JUMP_E_SERVER);
        CHECK(str_is(json_object_get(json_object_get((detail = error_detail()), "results"), "twitter"), "error_class",
                     "not_signed_in"));
        json_decref(detail);
        free(tw);
        free(tw_email);
    }

    /* Signed out: the device tokens go too (in memory and on disk). */
    CHECK_OK(J.client_sign_out(client));
    status = J.client_share(client, "{\"action\":\"gone\",\"url\":\"https://example.com/gone\"}", "[\"facebook\"]", &out);
    CHECK_MSG(status == JUMP_E_NOT_SIGNED_IN || status == JUMP_E_SERVER, "share after sign-out returned %d", (int)status);
    if (status == JUMP_E_SERVER) {
        detail = error_detail();
        CHECK(str_is(json_object_get(json_object_get(detail, "results"), "facebook"), "error_class", "not_signed_in"));
        json_decref(detail);
    }
    J.client_free(client);
    client = social_client_in(dir, THIN);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    status = J.client_share(client, "{\"action\":\"gone\",\"url\":\"https://example.com/gone\"}", "[\"facebook\"]", &out);
    CHECK_MSG(status == JUMP_E_NOT_SIGNED_IN || status == JUMP_E_SERVER, "share after a restart signed out: %d",
              (int)status);
    J.client_free(client);
    free(email);
}

TEST(share_content_shortens_urls_for_email_and_sms) {
    jump_client *client;
    json_t *content, *email, *sms, *urls;
    const char *short_url;
    char *out = NULL;
    http_reply reply;
    REQUIRE_EMULATOR();
    client = social_client(NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_share_content(client,
                                      "{\"action\":\"read\",\"title\":\"A title\",\"description\":\"A description\","
                                      "\"url\":\"https://news.example/long/path?id=42\","
                                      "\"email\":{\"subject\":\"Look\",\"message_body\":\"See https://news.example/e\","
                                      "\"urls\":[\"https://news.example/e\"]},"
                                      "\"sms\":{\"message\":\"See this\",\"urls\":[\"https://news.example/s\"]}}",
                                      &out));
    content = take_json(out);
    email = json_object_get(content, "email");
    sms = json_object_get(content, "sms");
    CHECK_MSG(str_is(email, "subject", "Look"), "email %s", dump(email));
    CHECK_MSG(json_str(email, "body") != NULL, "email has no body");
    urls = json_object_get(email, "urls");
    short_url = json_str(urls, "https://news.example/e");
    CHECK_MSG(has_prefix(short_url, emu_url()) && strstr(short_url, "/s/") != NULL, "email urls %s",
              dump(urls));
    if (short_url != NULL && http_raw("GET", short_url, NULL, &reply) == 0) {
        CHECK_MSG(reply.status == 302 && reply.location != NULL && strcmp(reply.location, "https://news.example/e") == 0,
                  "GET %s -> %ld %s", short_url, reply.status, reply.location ? reply.location : "");
        http_reply_free(&reply);
    }
    CHECK_MSG(json_str(sms, "message") != NULL && strstr(json_str(sms, "message"), "See this") != NULL, "sms %s",
              dump(sms));
    CHECK_MSG(has_prefix(json_str(json_object_get(sms, "urls"), "https://news.example/s"), emu_url()), "sms urls %s",
              dump(json_object_get(sms, "urls")));
    json_decref(content);

    /* When get_urls fails the URLs stay long. */
    CHECK(emu_fault("http_500", 5, "/openid/get_urls", 0) == 0);
    REQUIRE_OK(J.client_share_content(client, "{\"action\":\"read\",\"url\":\"https://news.example/kept\"}", &out));
    content = take_json(out);
    {
        char *text = json_dumps(content, JSON_COMPACT);
        CHECK_MSG(text != NULL && strstr(text, "https://news.example/kept") != NULL && strstr(text, "/s/") == NULL,
                  "without shortening: %s", text ? text : "(none)");
        free(text);
    }
    json_decref(content);
    emu_clear_faults();
    J.client_free(client);
}

/* A share cannot be settled (Engage has no way to ask whether an activity went out): when the connection dies
 * after the share reached Engage, it is not sent again, and the caller hears JUMP_E_NETWORK with detail reason
 * "outcome_unknown" and the provider named, not that Engage refused it (JUMP_E_SERVER, before). */
static drop_relay share_relay; /* static: its connection threads outlive the test's frame */

TEST(a_share_whose_connection_died_is_an_unknown_outcome) {
    const char *dir;
    jump_client *client;
    char *email = unique_email("lostshare"), *out = NULL, more[512];
    json_t *list, *detail, *expected;
    REQUIRE_EMULATOR();
    dir = emu_tmpdir();
    REQUIRE(facebook_session_in(dir, "Lost Share", email));
    free(email);

    /* The same session, with Engage behind a relay that applies the armed request and closes its kept-alive
     * connection unanswered. */
    REQUIRE(drop_relay_start(&share_relay, emu_url()) == 0);
    snprintf(more, sizeof more, "{\"captureEnableThinRegistration\":true,\"engageDomain\":\"%s\"}", share_relay.url);
    client = social_client_in(dir, more);
    REQUIRE(client != NULL);
    emu_call("DELETE", "/emulator/engage/activities", NULL, NULL);
    CHECK_OK(J.client_share(client, "{\"action\":\"first\",\"url\":\"https://example.com/1\"}", "[\"facebook\"]", &out));
    J.string_free(out);
    out = NULL;
    drop_relay_arm(&share_relay, "/api/v2/activity", 1);
    CHECK_STATUS(J.client_share(client, "{\"action\":\"second\",\"url\":\"https://example.com/2\"}", "[\"facebook\"]", &out),
                 JUMP_E_NETWORK);
    CHECK_MSG(last_detail_is("reason", "outcome_unknown"), "detail: %s", J.error_last());
    detail = error_detail();
    expected = json_pack("[s]", "facebook");
    CHECK_MSG(json_equal(json_object_get(detail, "unknown"), expected), "unknown: %s", dump(detail));
    json_decref(expected);
    json_decref(detail);
    CHECK_EQ_INT(drop_relay_dropped(&share_relay), 1);
    CHECK_EQ_INT(drop_relay_count(&share_relay, "/api/v2/activity"), 2);
    /* Applied once, and not sent again. */
    list = activities();
    CHECK_EQ_INT((int)json_array_size(list), 2);
    json_decref(list);
    J.client_free(client);
    drop_relay_stop(&share_relay);
}
