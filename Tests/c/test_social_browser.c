/*
 * test_social_browser.c - the browser flow of social sign-in through the C ABI against the emulator, played
 * on the emulator's fake identity provider with libcurl (no browser, no redirect following): two-step and
 * thin registration, the token_url redirect completion, completion URLs that do not belong, cancel, refused
 * OpenID input, the provider page itself; and the loopback sign-in (RFC 8252) for desktop and CLI hosts.
 * The other social tests are in test_social_*.c; their shared helpers in social_support.{c,h}.
 */

#include "harness.h"
#include "social_support.h"

#include <curl/curl.h>
#include <pthread.h>
#include <strings.h>

/* ---- the browser flow ------------------------------------------------------------------------------------ */

TEST(browser_sign_in_registration_required_then_register_social) {
    jump_client *client, *second;
    identity ident;
    json_t *detail, *record, *incomplete, *messages, *result = NULL, *profiles;
    char *email = unique_email("social"), *location, *token = NULL, *attributes, *out = NULL, *uuid = NULL;
    REQUIRE_EMULATOR();
    REQUIRE_MSG(create_identity("google", "Ann Social", email, &ident) == 0, "POST /emulator/identities failed");
    client = social_client(NULL); /* thin registration off */
    REQUIRE(client != NULL);

    location = browser_existing(client, "google", NULL, &ident);
    REQUIRE(location != NULL);
    CHECK_MSG(has_prefix(location, emu_url()) && strstr(location, "/signin/device?") != NULL,
              "the provider sent the browser to %s", location);
    CHECK_STATUS(complete(client, location, &result), JUMP_E_REGISTRATION_REQUIRED);
    detail = error_detail();
    token = dup_or_null(json_str(detail, "social_registration_token"));
    CHECK_MSG(token != NULL && token[0] != '\0', "no social_registration_token");
    CHECK_MSG(str_is(detail, "provider", "google"), "provider %s", str_or(detail, "provider"));
    record = json_object_get(detail, "prereg_record");
    CHECK_MSG(str_is(record, "email", email), "prereg_record.email %s", str_or(record, "email"));
    CHECK_MSG(str_is(record, "displayName", "Ann Social"), "prereg_record.displayName %s",
              str_or(record, "displayName"));
    CHECK_MSG(json_is_object(json_object_get(detail, "prereg_fields")), "no prereg_fields object");
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    REQUIRE(token != NULL && json_is_object(record));

    /* The required email left out: the form is refused field by field. */
    incomplete = json_deep_copy(record);
    json_object_del(incomplete, "email");
    attributes = json_dumps(incomplete, JSON_COMPACT);
    CHECK_STATUS(J.client_register_social(client, token, attributes, &out), JUMP_E_VALIDATION);
    CHECK(out == NULL);
    messages = invalid_field("emailAddress");
    CHECK_MSG(non_empty_string_array(messages), "invalid_fields has no emailAddress messages: %s", J.error_last());
    json_decref(messages);
    free(attributes);
    json_decref(incomplete);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);

    /* Completed: the user is made and signed in, with the identity among the record's profiles. */
    attributes = json_dumps(record, JSON_COMPACT);
    CHECK_OK(J.client_register_social(client, token, attributes, &out));
    free(attributes);
    result = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(result, "is_new")), "is_new not true");
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    json_decref(detail);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    REQUIRE(uuid != NULL);
    CHECK_MSG(record_has_identity(client, ident.identifier), "the record's profiles lack %s", ident.identifier);
    CHECK(server_user_has_identity(uuid, ident.identifier));
    profiles = linked(client);
    CHECK_MSG(json_array_size(profiles) == 1 && str_is(json_array_get(profiles, 0), "identifier", ident.identifier) &&
                  str_is(json_array_get(profiles, 0), "provider", "google") &&
                  str_is(json_array_get(profiles, 0), "email", email),
              "linked profiles %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    {
        json_t *user = emu_get_user(uuid, NULL);
        CHECK_MSG(str_is(user, "email", email), "the emulator's user has email %s", str_or(user, "email"));
        json_decref(user);
    }
    free(location);

    /* Another installation signing in with the same identity gets the same account. */
    second = social_client(NULL);
    REQUIRE(second != NULL);
    location = browser_existing(second, "google", NULL, &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(second, location, &result));
    CHECK_MSG(str_is(result, "outcome", "signed_in"), "outcome %s", str_or(result, "outcome"));
    CHECK_MSG(json_is_false(json_object_get(result, "is_new")), "is_new not false");
    CHECK_MSG(str_is(result, "uuid", uuid), "uuid %s, registered %s", str_or(result, "uuid"), uuid);
    CHECK_MSG(str_is(result, "provider", "google"), "provider %s", str_or(result, "provider"));
    CHECK_MSG(str_is(result, "identifier", ident.identifier), "identifier %s", str_or(result, "identifier"));
    CHECK(json_is_false(json_object_get(result, "merged")));
    CHECK_EQ_INT(J.client_is_signed_in(second), 1);
    json_decref(result);
    free(location);
    free(token);
    free(uuid);
    free(email);
    J.client_free(second);
    J.client_free(client);
}

TEST(thin_registration_registers_an_identity_made_on_the_page) {
    jump_client *client;
    json_t *result = NULL, *begun;
    char *email = unique_email("thin"), *location, *page = NULL, *record_email;
    jump_record *record = NULL;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    begun = begin(client, "facebook", NULL);
    REQUIRE(begun != NULL);
    location = idp_create(json_str(begun, "url"), "Tim Thin", email, &page);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_MSG(page != NULL && strstr(page, "Sign in with Facebook") != NULL, "the page title does not name Facebook");
    free(page);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    CHECK(json_is_true(json_object_get(result, "is_new")));
    CHECK(str_is(result, "provider", "facebook"));
    CHECK_MSG(has_prefix(json_str(result, "identifier"), "https://facebook.example/"), "identifier %s",
              str_or(result, "identifier"));
    CHECK_MSG(json_str(result, "uuid") != NULL, "no uuid");
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    REQUIRE_OK(J.client_record(client, &record));
    record_email = record_string(record, "/email");
    CHECK_MSG(record_email != NULL && strcmp(record_email, email) == 0, "record email %s",
              record_email ? record_email : "(null)");
    free(record_email);
    J.record_free(record);
    if (json_str(result, "identifier") != NULL) CHECK(record_has_identity(client, json_str(result, "identifier")));
    json_decref(result);
    free(location);
    free(email);
    J.client_free(client);
}

TEST(redirect_completion_through_token_url) {
    jump_client *client;
    json_t *begun, *result = NULL;
    char redirect[200], options[300], prefix[200], *location, *token_url, *email = unique_email("redirect");
    int port;
    REQUIRE_EMULATOR();
    port = emu_closed_port();
    snprintf(redirect, sizeof redirect, "http://127.0.0.1:%d/app/done?x=1", port);
    snprintf(prefix, sizeof prefix, "http://127.0.0.1:%d/app/done", port);
    snprintf(options, sizeof options, "{\"redirect_uri\":\"%s\"}", redirect);
    client = social_client(THIN);
    REQUIRE(client != NULL);

    begun = begin(client, "linkedin", options);
    REQUIRE(begun != NULL);
    CHECK_MSG(str_is(begun, "completion", "redirect"), "completion %s", str_or(begun, "completion"));
    CHECK_MSG(str_is(begun, "completion_prefix", prefix), "completion_prefix %s", str_or(begun, "completion_prefix"));
    token_url = query_param(json_str(begun, "url"), "token_url");
    CHECK_MSG(has_prefix(token_url, redirect) && strstr(token_url, str_or(begun, "state")) != NULL, "token_url %s",
              token_url ? token_url : "(none)");
    free(token_url);
    location = idp_create(json_str(begun, "url"), "Rita Redirect", email, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_MSG(has_prefix(location, redirect) && strstr(location, "token=") != NULL, "the browser went to %s", location);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    json_decref(result);
    free(location);
    J.client_free(client);

    /* engageResponseType "token" sends the browser to engageWhitelistedDomain. */
    snprintf(options, sizeof options, "{\"engageResponseType\":\"token\",\"engageWhitelistedDomain\":\"%s\"}", prefix);
    client = social_client(options);
    REQUIRE(client != NULL);
    begun = begin(client, "google", NULL);
    REQUIRE(begun != NULL);
    CHECK_MSG(str_is(begun, "completion", "redirect") && str_is(begun, "completion_prefix", prefix),
              "token mode: completion %s at %s", str_or(begun, "completion"), str_or(begun, "completion_prefix"));
    json_decref(begun);
    J.client_free(client);
    /* ... which it needs. */
    client = social_client("{\"engageResponseType\":\"token\"}");
    REQUIRE(client != NULL);
    {
        char *out = NULL;
        CHECK_STATUS(J.client_social_begin(client, "google", NULL, &out), JUMP_E_INVALID_ARGUMENT);
        CHECK(last_detail_is("argument", "engageWhitelistedDomain"));
    }
    J.client_free(client);
    free(email);
}

TEST(completion_urls_that_do_not_belong_change_nothing) {
    jump_client *client, *other;
    json_t *begun, *result = NULL;
    char *email = unique_email("belong"), *location, *before, *after, *forged, *elsewhere, *uuid, *state;
    const char *query;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    other = social_client(THIN);
    REQUIRE(client != NULL && other != NULL);
    begun = begin(client, "google", NULL);
    REQUIRE(begun != NULL);
    location = idp_create(json_str(begun, "url"), "Bea Long", email, NULL);
    state = dup_or_null(json_str(begun, "state"));
    json_decref(begun);
    REQUIRE(location != NULL && state != NULL);
    before = state_text(client);

    /* Unknown state (Engage's device ending carries none; a forged one must still be refused). */
    forged = malloc(strlen(location) + 64);
    REQUIRE(forged != NULL);
    sprintf(forged, "%s&state=not-a-state-of-this-client", location);
    CHECK_STATUS(complete(client, forged, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "unknown_state"), "reason: %s", J.error_last());
    free(forged);
    /* The right state, another place. */
    query = strchr(location, '?');
    REQUIRE(query != NULL);
    elsewhere = malloc(strlen(emu_url()) + strlen(query) + strlen(state) + 32);
    sprintf(elsewhere, "%s/elsewhere%s&state=%s", emu_url(), query, state);
    CHECK_STATUS(complete(client, elsewhere, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "wrong_location"), "reason: %s", J.error_last());
    free(elsewhere);
    free(state);
    /* A URL without a state, and one that is not a URL at all. */
    CHECK_STATUS(complete(client, "https://example.com/signin/device?token=abc", &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(complete(client, "not a url", &result), JUMP_E_INVALID_ARGUMENT);
    /* Another client never began this sign-in. */
    CHECK_STATUS(complete(other, location, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "unknown_state"), "reason: %s", J.error_last());
    CHECK_EQ_INT(J.client_is_signed_in(other), 0);
    after = state_text(client);
    CHECK_MSG(strcmp(before, after) == 0, "the client state changed:\n      %s\n      %s", before, after);
    free(after);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);

    /* The rejections consumed nothing: the real completion still works, once. */
    REQUIRE_OK(complete(client, location, &result));
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    before = (free(before), state_text(client));
    CHECK_STATUS(complete(client, location, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "unknown_state"), "a reused state: %s", J.error_last());
    after = state_text(client);
    CHECK_MSG(strcmp(before, after) == 0, "a reused completion changed the state:\n      %s\n      %s", before, after);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    free(before);
    free(after);
    free(uuid);
    free(location);
    free(email);
    J.client_free(other);
    J.client_free(client);
}

TEST(cancel_on_the_provider_page_is_cancelled) {
    jump_client *client;
    json_t *begun, *result = NULL;
    char *location, *error;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    begun = begin(client, "yahoo", NULL);
    REQUIRE(begun != NULL);
    location = idp_press(json_str(begun, "url"), "id", "cancel", NULL, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    error = query_param(location, "error");
    CHECK_MSG(error != NULL, "the cancel ended on %s (no error parameter)", location);
    free(error);
    CHECK_STATUS(complete(client, location, &result), JUMP_E_CANCELLED);
    CHECK_MSG(last_detail_is("reason", "user_canceled"), "detail: %s", J.error_last());
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    /* The sign-in is over: the same URL does not complete anything any more. */
    CHECK_STATUS(complete(client, location, &result), JUMP_E_INVALID_ARGUMENT);
    free(location);
    J.client_free(client);
}

TEST(openid_input_refused_by_the_provider_is_validation) {
    jump_client *client;
    json_t *begun, *result = NULL, *messages;
    char *location, *text;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    begun = begin(client, "openid", "{\"input\":\"not-a-url\"}");
    REQUIRE(begun != NULL);
    /* The provider ends the flow at once; a browser following it would land on the completion URL. */
    location = idp_create(json_str(begun, "url"), "Ole Open", "ole@example.com", NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_STATUS(complete(client, location, &result), JUMP_E_VALIDATION);
    messages = invalid_field("input");
    text = messages != NULL ? json_dumps(messages, JSON_ENCODE_ANY) : NULL;
    CHECK_MSG(text != NULL && strstr(text, "Your OpenID must be a URL") != NULL, "invalid_fields.input %s",
              text ? text : "(none)");
    free(text);
    json_decref(messages);
    free(location);
    J.client_free(client);
}

TEST(provider_page_escapes_names_and_shows_reauthentication) {
    jump_client *client;
    identity ident;
    json_t *begun, *result = NULL;
    http_reply page;
    char *location, *email = unique_email("markup");
    const char *name = "Zo\xc3\xab <b>\"Q&A\"</b> O'Neil";
    REQUIRE_EMULATOR();
    REQUIRE(create_identity("linkedin", name, email, &ident) == 0);
    client = engage_only_client(NULL);
    REQUIRE(client != NULL);
    begun = begin(client, "linkedin", "{\"force_reauth\":true}");
    REQUIRE(begun != NULL);
    REQUIRE(http_raw("GET", json_str(begun, "url"), NULL, &page) == 0);
    CHECK_EQ_INT(page.status, 200);
    CHECK_MSG(strstr(page.body, "<b>\"Q&A\"</b>") == NULL, "the page shows the name unescaped");
    CHECK_MSG(strstr(page.body, "Re-authentication requested") != NULL, "no re-authentication note with force_reauth");
    http_reply_free(&page);
    location = idp_press(json_str(begun, "url"), "value", ident.id, NULL, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(json_object_get(result, "profile"), "displayName", name), "displayName %s",
              str_or(json_object_get(result, "profile"), "displayName"));
    CHECK(str_is(json_object_get(result, "profile"), "identifier", ident.identifier));
    json_decref(result);
    free(location);
    free(email);
    J.client_free(client);
}

/* ---- loopback ---------------------------------------------------------------------------------------------- */

typedef struct browser_thread {
    pthread_t thread;
    int started;
    int opened;          /* open_url calls */
    char *url;           /* the sign-in URL it was given */
    char *email;         /* for the identity it makes */
    int press_cancel;    /* cancel on the page instead */
    int probe;           /* first send the listener what a browser or a stray local client also sends */
    long probe_status[2];/* its answers: /favicon.ico, and the callback path with a state it never issued */
    int do_nothing;      /* never visit the URL */
    long landing_status; /* what the listener answered the browser */
    char *landing_url;
    char *landing_body;
} browser_thread;

static void *browser_main(void *arg) {
    browser_thread *b = arg;
    char *location;
    http_reply reply;
    const char *fields[] = {"display_name", "Loop Back", "email", b->email, NULL, NULL};
    if (b->probe) {
        char *token_url = query_param(b->url, "token_url"), *origin, *forged, *slash;
        if (token_url != NULL) {
            origin = strdup(token_url);
            slash = strchr(origin + strlen("http://"), '/');
            if (slash != NULL) *slash = '\0';
            strcat(origin = realloc(origin, strlen(origin) + 16), "/favicon.ico");
            if (http_raw("GET", origin, NULL, &reply) == 0) b->probe_status[0] = reply.status;
            http_reply_free(&reply);
            forged = with_param(token_url, "state", "not-issued-by-libjump");
            forged = realloc(forged, strlen(forged) + 32);
            strcat(forged, "&token=forged0123456789");
            if (http_raw("GET", forged, NULL, &reply) == 0) b->probe_status[1] = reply.status;
            http_reply_free(&reply);
            free(forged);
            free(origin);
            free(token_url);
        }
    }
    location = b->press_cancel ? idp_press_at(__FILE__, __LINE__, b->url, "id", "cancel", NULL, NULL)
                               : idp_press_at(__FILE__, __LINE__, b->url, "id", "create-identity", fields, NULL);
    if (location == NULL) return NULL;
    b->landing_url = location;
    if (http_raw("GET", location, NULL, &reply) == 0) {
        b->landing_status = reply.status;
        b->landing_body = reply.body;
        reply.body = NULL;
    }
    http_reply_free(&reply);
    return NULL;
}

/* jump_open_url_fn: hands the URL to a "browser" on another thread and returns at once. */
static jump_status open_in_browser(void *userdata, const char *url) {
    browser_thread *b = userdata;
    b->opened++;
    free(b->url);
    b->url = strdup(url);
    if (b->do_nothing) return JUMP_OK;
    if (pthread_create(&b->thread, NULL, browser_main, b) != 0) return JUMP_E_INTERNAL;
    b->started = 1;
    return JUMP_OK;
}

static void browser_finish(browser_thread *b) {
    if (b->started) pthread_join(b->thread, NULL);
    b->started = 0;
    free(b->url);
    free(b->email);
    free(b->landing_url);
    free(b->landing_body);
}

TEST(loopback_sign_in_with_the_browser_on_another_thread) {
    jump_client *client;
    browser_thread b;
    char *out = NULL;
    json_t *result;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    memset(&b, 0, sizeof b);
    b.email = unique_email("loopback");
    CHECK_OK(J.client_social_sign_in_loopback(client, "google", NULL, open_in_browser, &b, 20000, &out));
    result = take_json(out);
    CHECK_EQ_INT(b.opened, 1);
    CHECK_MSG(str_is(result, "outcome", "registered") && str_is(result, "provider", "google"), "loopback result %s",
              result ? dump(result) : "(none)");
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    json_decref(result);
    if (b.started) pthread_join(b.thread, NULL);
    b.started = 0;
    CHECK_MSG(b.url != NULL && has_prefix(b.url, emu_url()), "open_url got %s", b.url ? b.url : "(none)");
    {
        char *token_url = query_param(b.url, "token_url");
        CHECK_MSG(has_prefix(token_url, "http://127.0.0.1:"), "the loopback token_url is %s",
                  token_url ? token_url : "(none)");
        free(token_url);
    }
    CHECK_MSG(has_prefix(b.landing_url, "http://127.0.0.1:"), "the browser landed on %s",
              b.landing_url ? b.landing_url : "(none)");
    CHECK_MSG(b.landing_status == 200 && b.landing_body != NULL && b.landing_body[0] != '\0',
              "the listener answered the browser %ld", b.landing_status);
    browser_finish(&b);

    /* Cancelled on the page. */
    CHECK_OK(J.client_sign_out(client));
    memset(&b, 0, sizeof b);
    b.email = unique_email("loopback.cancel");
    b.press_cancel = 1;
    CHECK_STATUS(J.client_social_sign_in_loopback(client, "google", NULL, open_in_browser, &b, 20000, &out),
                 JUMP_E_CANCELLED);
    CHECK(last_detail_is("reason", "user_canceled"));
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    browser_finish(&b);
    J.client_free(client);
}

/* jump_open_url_fn of a host whose "open" blocks until the browser is closed (a console browser, or
 * webbrowser.open with some $BROWSER): it starts the browser, then waits until the sign-in has finished. */
typedef struct blocking_open {
    browser_thread browser;
    jump_client *client;
    int finished_inside; /* the sign-in completed while open_url still ran */
} blocking_open;

static jump_status open_and_block(void *userdata, const char *url) {
    blocking_open *o = userdata;
    int i;
    jump_status status = open_in_browser(&o->browser, url);
    if (status != JUMP_OK) return status;
    for (i = 0; i < 500 && !J.client_is_signed_in(o->client); i++) sleep_ms(10);
    o->finished_inside = J.client_is_signed_in(o->client);
    return JUMP_OK;
}

TEST(loopback_serves_while_open_url_blocks) {
    blocking_open o;
    char *out = NULL;
    json_t *result;
    REQUIRE_EMULATOR();
    memset(&o, 0, sizeof o);
    o.client = social_client(THIN);
    REQUIRE(o.client != NULL);
    o.browser.email = unique_email("blocking");
    CHECK_OK(J.client_social_sign_in_loopback(o.client, "google", NULL, open_and_block, &o, 20000, &out));
    result = take_json(out);
    CHECK_MSG(o.finished_inside, "the sign-in did not finish while open_url blocked (the listener waited for it)");
    CHECK_MSG(str_is(result, "outcome", "registered"), "loopback result %s", result ? dump(result) : "(none)");
    CHECK_EQ_INT(o.browser.landing_status, 200);
    json_decref(result);
    browser_finish(&o.browser);
    J.client_free(o.client);
}

TEST(loopback_listener_is_not_ended_by_stray_requests) {
    jump_client *client;
    browser_thread b;
    char *out = NULL;
    json_t *result;
    jump_status status;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    memset(&b, 0, sizeof b);
    b.email = unique_email("loopback.stray");
    b.probe = 1;
    /* Before the browser comes back, the listener gets a favicon request and a callback with a state this
     * client never issued (a stray local client, or a stale tab): neither may end the sign-in. */
    status = J.client_social_sign_in_loopback(client, "google", NULL, open_in_browser, &b, 20000, &out);
    CHECK_MSG(status == JUMP_OK, "the sign-in returned %d after stray requests: %s", (int)status, J.error_last());
    result = take_json(out);
    CHECK_MSG(status != JUMP_OK || str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    json_decref(result);
    if (b.started) pthread_join(b.thread, NULL);
    b.started = 0;
    CHECK_MSG(b.probe_status[0] == 404, "/favicon.ico -> %ld", b.probe_status[0]);
    CHECK_MSG(b.probe_status[1] >= 400, "a callback with a foreign state -> %ld (the sign-in page said received)",
              b.probe_status[1]);
    CHECK_MSG(b.landing_status == 200, "the real browser landing -> %ld", b.landing_status);
    browser_finish(&b);
    J.client_free(client);
}

TEST(loopback_times_out_when_the_browser_never_comes_back) {
    jump_client *client;
    browser_thread b;
    char *out = NULL;
    double start;
    recorder r;
    jump_request *request = SENTINEL;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);

    /* Nobody comes back: JUMP_E_TIMEOUT after timeout_ms, and nothing is left pending. */
    memset(&b, 0, sizeof b);
    b.do_nothing = 1;
    start = now_ms();
    CHECK_STATUS(J.client_social_sign_in_loopback(client, "google", NULL, open_in_browser, &b, 1500, &out),
                 JUMP_E_TIMEOUT);
    CHECK(out == NULL);
    CHECK_MSG(now_ms() - start >= 1400 && now_ms() - start < 10000, "timed out after %.0f ms", now_ms() - start);
    CHECK_EQ_INT(b.opened, 1);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    /* The listener is gone: the token URL it advertised refuses connections. */
    if (b.url != NULL) {
        char *token_url = query_param(b.url, "token_url");
        http_reply reply;
        if (token_url != NULL) {
            CHECK_MSG(http_raw("GET", token_url, NULL, &reply) != 0, "the listener still answers after the timeout");
            http_reply_free(&reply);
        }
        free(token_url);
    }
    browser_finish(&b);

    /* An async start without open_url is refused through the callback too. */
    recorder_init(&r);
    CHECK_STATUS(J.client_social_sign_in_loopback_async(client, "google", NULL, NULL, 1000, recorder_callback, &r,
                                                        recorder_free, &request),
                 JUMP_E_INVALID_ARGUMENT);
    CHECK(request == NULL);
    CHECK(recorder_wait_calls(&r, 1, 5000));
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    J.client_free(client);
}

/* The async loopback whose callback userdata is also what open_url receives: a struct holding both. */
typedef struct loopback_async {
    recorder r; /* first member: recorder_callback casts userdata to a recorder */
    browser_thread b;
} loopback_async;

static jump_status open_async(void *userdata, const char *url) {
    loopback_async *a = userdata;
    return open_in_browser(&a->b, url);
}

TEST(loopback_async_delivers_the_outcome_and_can_be_cancelled) {
    jump_client *client;
    loopback_async a;
    jump_request *request = NULL;
    json_t *payload;
    double start;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);

    memset(&a, 0, sizeof a);
    recorder_init(&a.r);
    a.b.email = unique_email("loopback.async");
    REQUIRE_OK(J.client_social_sign_in_loopback_async(client, "facebook", NULL, open_async, 20000, recorder_callback, &a,
                                                      recorder_free, &request));
    payload = completion_of(&a.r);
    REQUIRE_MSG(payload != NULL, "no completion");
    CHECK_MSG(json_integer_value(json_object_get(payload, "status")) == 0 &&
                  str_is(json_object_get(payload, "result"), "outcome", "registered"),
              "async loopback %s", dump(payload));
    json_decref(payload);
    J.request_free(request);
    CHECK(recorder_wait_frees(&a.r, 1, 5000));
    CHECK_EQ_INT(a.b.opened, 1);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    browser_finish(&a.b);
    recorder_destroy(&a.r);
    CHECK_OK(J.client_sign_out(client));

    /* Cancelled while waiting for the browser. */
    memset(&a, 0, sizeof a);
    recorder_init(&a.r);
    a.b.do_nothing = 1;
    request = NULL;
    REQUIRE_OK(J.client_social_sign_in_loopback_async(client, "google", NULL, open_async, 60000, recorder_callback, &a,
                                                      recorder_free, &request));
    sleep_ms(300);
    start = now_ms();
    CHECK_OK(J.request_cancel(request));
    payload = completion_of(&a.r);
    CHECK_MSG(payload != NULL && json_integer_value(json_object_get(payload, "status")) == JUMP_E_CANCELLED,
              "cancelled loopback: %s", payload ? dump(payload) : "(no completion)");
    CHECK_MSG(now_ms() - start < 5000, "the cancel took %.0f ms", now_ms() - start);
    json_decref(payload);
    J.request_free(request);
    CHECK(recorder_wait_frees(&a.r, 1, 5000));
    CHECK_EQ_INT(a.b.opened, 1);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    browser_finish(&a.b);
    recorder_destroy(&a.r);
    J.client_free(client);
}
