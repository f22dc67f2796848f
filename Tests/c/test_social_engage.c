/*
 * test_social_engage.c - social sign-in (Engage) through the C ABI against the emulator: the app's providers
 * (the server's and custom OpenID / SAML ones), the start URLs, the Engage configuration and its ETag cache,
 * pending browser sign-ins, secrets kept out of logs, messages and events, and Engage-only apps (no Capture).
 * The other social tests are in test_social_*.c; their shared helpers in social_support.{c,h}.
 */

#include "harness.h"
#include "social_support.h"

#include <curl/curl.h>
#include <pthread.h>
#include <strings.h>

/* ---- providers ------------------------------------------------------------------------------------------- */

#define CUSTOM_PROVIDERS                                                                                   \
    "{\"engageCustomProviders\":{"                                                                         \
    "\"acme\":{\"friendly_name\":\"Acme ID\",\"openid_identifier\":\"https://openid.acme.example/%@\","   \
    "\"opx_blob\":\"blob-1\"},"                                                                            \
    "\"corp\":{\"friendly_name\":\"Corp SSO\",\"saml_provider\":\"corp-idp\"}}}"

TEST(providers_in_server_order_with_custom_providers_last) {
    static const char *const server_order[] = {"facebook", "google", "twitter", "linkedin", "openid", "yahoo"};
    jump_client *client;
    char *out = NULL;
    json_t *loaded, *providers, *sign_in, *sharing, *entry;
    size_t i;
    REQUIRE_EMULATOR();
    client = social_client(CUSTOM_PROVIDERS);
    REQUIRE(client != NULL);

    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_false(json_object_get(loaded, "from_cache")), "first load from_cache should be false");
    json_decref(loaded);
    /* Fetched again with If-None-Match: nothing changed. */
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_false(json_object_get(loaded, "changed")), "an unchanged configuration reported changed");
    json_decref(loaded);

    REQUIRE_OK(J.client_providers(client, &out));
    providers = take_json(out);
    sign_in = json_object_get(providers, "sign_in");
    sharing = json_object_get(providers, "sharing");
    REQUIRE_MSG(json_array_size(sign_in) == 8, "sign_in has %zu providers, expected 6 + 2 custom",
                json_array_size(sign_in));
    for (i = 0; i < 6; i++) {
        entry = json_array_get(sign_in, i);
        CHECK_MSG(str_is(entry, "name", server_order[i]), "sign_in[%zu] is %s, expected %s", i, str_or(entry, "name"),
                  server_order[i]);
        CHECK_MSG(json_is_null(json_object_get(entry, "custom")), "server provider %s marked custom",
                  str_or(entry, "name"));
        CHECK_MSG(json_str(entry, "friendly_name") != NULL, "provider %s has no friendly_name", str_or(entry, "name"));
    }
    entry = json_array_get(sign_in, 4); /* openid */
    CHECK(json_is_true(json_object_get(entry, "requires_input")));
    CHECK_MSG(str_is(entry, "input_prompt", "Enter your OpenID URL"), "openid input_prompt %s", str_or(entry, "input_prompt"));
    CHECK(json_is_false(json_object_get(json_array_get(sign_in, 0), "requires_input")));
    /* The custom ones come last. */
    entry = json_array_get(sign_in, 6);
    CHECK_MSG(str_is(entry, "name", "acme") && str_is(entry, "custom", "openid") &&
                  json_is_true(json_object_get(entry, "requires_input")) && str_is(entry, "friendly_name", "Acme ID"),
              "sign_in[6] is %s", dump(entry));
    entry = json_array_get(sign_in, 7);
    CHECK_MSG(str_is(entry, "name", "corp") && str_is(entry, "custom", "saml") &&
                  json_is_false(json_object_get(entry, "requires_input")),
              "sign_in[7] is %s", dump(entry));

    REQUIRE_MSG(json_array_size(sharing) == 3, "sharing has %zu providers", json_array_size(sharing));
    CHECK(str_is(json_array_get(sharing, 0), "name", "facebook"));
    CHECK(str_is(json_array_get(sharing, 1), "name", "twitter"));
    CHECK(str_is(json_array_get(sharing, 2), "name", "linkedin"));
    entry = json_object_get(json_array_get(sharing, 1), "properties");
    CHECK_MSG(json_object_get(entry, "uses_set_status_if_no_url") != NULL,
              "twitter's sharing properties lack uses_set_status_if_no_url");
    CHECK(json_is_boolean(json_object_get(providers, "hide_tagline")));
    json_decref(providers);
    J.client_free(client);
}

TEST(begin_urls_substitute_the_input_and_name_the_saml_provider) {
    jump_client *client;
    json_t *begun, *detail;
    char *value, *prefix, *messages;
    char *out = (char *)"sentinel";
    REQUIRE_EMULATOR();
    client = social_client(CUSTOM_PROVIDERS);
    REQUIRE(client != NULL);
    prefix = absolute("/signin/device");

    begun = begin(client, "acme", "{\"input\":\"ann\"}");
    REQUIRE(begun != NULL);
    CHECK_MSG(has_prefix(json_str(begun, "url"), emu_url()) && strstr(json_str(begun, "url"), "/openid/start?") != NULL,
              "acme starts at %s", str_or(begun, "url"));
    value = query_param(json_str(begun, "url"), "openid_identifier");
    CHECK_MSG(value != NULL && strcmp(value, "https://openid.acme.example/ann") == 0, "openid_identifier %s",
              value ? value : "(none)");
    free(value);
    value = query_param(json_str(begun, "url"), "opx_blob");
    CHECK_MSG(value != NULL && strcmp(value, "blob-1") == 0, "opx_blob %s", value ? value : "(none)");
    free(value);
    value = query_param(json_str(begun, "url"), "state");
    CHECK_MSG(value != NULL && strcmp(value, str_or(begun, "state")) == 0, "state in the URL %s vs %s",
              value ? value : "(none)", str_or(begun, "state"));
    free(value);
    value = query_param(json_str(begun, "url"), "applicationId");
    CHECK_MSG(value != NULL && strcmp(value, ENGAGE_APP) == 0, "applicationId %s", value ? value : "(none)");
    free(value);
    CHECK(str_is(begun, "completion", "device"));
    CHECK_MSG(str_is(begun, "completion_prefix", prefix), "completion_prefix %s, expected %s",
              str_or(begun, "completion_prefix"), prefix);
    json_decref(begun);

    begun = begin(client, "corp", NULL);
    REQUIRE(begun != NULL);
    CHECK_MSG(strstr(str_or(begun, "url"), "/saml2/sso/start?") != NULL, "corp starts at %s", str_or(begun, "url"));
    value = query_param(json_str(begun, "url"), "saml_provider");
    CHECK_MSG(value != NULL && strcmp(value, "corp-idp") == 0, "saml_provider %s", value ? value : "(none)");
    free(value);
    value = query_param(json_str(begun, "url"), "openid_identifier");
    CHECK_MSG(value == NULL, "a SAML start carries openid_identifier %s", value);
    free(value);
    json_decref(begun);

    /* force_reauth reaches the provider. */
    begun = begin(client, "google", "{\"force_reauth\":true}");
    REQUIRE(begun != NULL);
    value = query_param(json_str(begun, "url"), "force_reauth");
    CHECK_MSG(value != NULL && strcmp(value, "true") == 0, "force_reauth %s", value ? value : "(none)");
    free(value);
    json_decref(begun);

    /* A requires_input provider without input. */
    CHECK_STATUS(J.client_social_begin(client, "openid", NULL, &out), JUMP_E_VALIDATION);
    CHECK(out == NULL);
    detail = invalid_field("input");
    messages = detail != NULL ? json_dumps(detail, JSON_ENCODE_ANY) : NULL;
    CHECK_MSG(non_empty_string_array(detail), "invalid_fields.input %s", messages ? messages : "(none)");
    free(messages);
    json_decref(detail);
    CHECK_STATUS(J.client_social_begin(client, "acme", "{\"input\":\"\"}", &out), JUMP_E_VALIDATION);
    CHECK(non_empty_string_array(invalid_field("input")));
    /* A provider the app does not have. */
    CHECK_STATUS(J.client_social_begin(client, "myspace", NULL, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_detail_is("argument", "provider"));
    free(prefix);
    J.client_free(client);
}

TEST(custom_openid_and_saml_providers_sign_in_end_to_end) {
    jump_client *client;
    json_t *begun, *result = NULL;
    char *email = unique_email("acme"), *location, *page = NULL;
    REQUIRE_EMULATOR();
    {
        /* CUSTOM_PROVIDERS with thin registration added. */
        char *more = strdup(CUSTOM_PROVIDERS);
        more[strlen(more) - 1] = '\0';
        more = realloc(more, strlen(more) + 64);
        strcat(more, ",\"captureEnableThinRegistration\":true}");
        client = social_client(more);
        free(more);
    }
    REQUIRE(client != NULL);

    begun = begin(client, "acme", "{\"input\":\"ann\"}");
    REQUIRE(begun != NULL);
    location = idp_create(json_str(begun, "url"), "Ann Acme", email, &page);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_MSG(page != NULL && strstr(page, "jump-emulator") != NULL, "the provider page is not the emulator's");
    free(page);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    /* The OpenID identifier is what the user's input made of the app's template. */
    CHECK_MSG(str_is(result, "identifier", "https://openid.acme.example/ann"), "identifier %s",
              str_or(result, "identifier"));
    CHECK(record_has_identity(client, "https://openid.acme.example/ann"));
    json_decref(result);
    free(location);
    CHECK_OK(J.client_sign_out(client));

    free(email);
    email = unique_email("corp");
    begun = begin(client, "corp", NULL);
    REQUIRE(begun != NULL);
    location = idp_create(json_str(begun, "url"), "Cora Corp", email, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    CHECK_MSG(has_prefix(json_str(result, "identifier"), "saml:corp-idp:"), "SAML identifier %s",
              str_or(result, "identifier"));
    json_decref(result);
    free(location);
    free(email);
    J.client_free(client);
}

TEST(engage_config_is_cached_and_refetched_by_etag) {
    const char *dir;
    jump_client *client;
    char *out = NULL;
    json_t *loaded, *providers;
    REQUIRE_EMULATOR();
    dir = emu_tmpdir();
    client = social_client_in(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(loaded, "changed")) && json_is_false(json_object_get(loaded, "from_cache")),
              "first load %s", dump(loaded));
    json_decref(loaded);
    J.client_free(client);

    /* The next start cannot reach the configuration: the cached copy serves. */
    REQUIRE(emu_fault("http_500", 10, "/openid/mobile_config_and_baseurl", 0) == 0);
    client = social_client_in(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(loaded, "from_cache")), "offline load %s", dump(loaded));
    json_decref(loaded);
    REQUIRE_OK(J.client_providers(client, &out));
    providers = take_json(out);
    CHECK_EQ_INT(json_array_size(json_object_get(providers, "sign_in")), 6);
    json_decref(providers);
    emu_clear_faults();
    /* Without a cache and without the server there is nothing to go on. */
    {
        jump_client *fresh = social_client(NULL);
        REQUIRE(fresh != NULL);
        REQUIRE(emu_fault("http_500", 10, "/openid/mobile_config_and_baseurl", 0) == 0);
        CHECK(J.client_providers(fresh, &out) != JUMP_OK);
        CHECK(out == NULL);
        emu_clear_faults();
        J.client_free(fresh);
    }

    /* The app's providers change on the server: a new ETag, so the next load sees it. */
    emu_clear_counters();
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    J.string_free(out);
    json_decref(emu_call("POST", "/emulator/engage_apps",
                         "{\"engage_app_id\":\"" ENGAGE_APP "\",\"api_key\":\"" ENGAGE_API_KEY "\","
                         "\"providers\":[\"yahoo\",\"google\"],\"sharing_providers\":[\"twitter\"]}",
                         NULL));
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(loaded, "changed")), "after the app changed: %s",
              dump(loaded));
    json_decref(loaded);
    REQUIRE_OK(J.client_providers(client, &out));
    providers = take_json(out);
    CHECK_MSG(json_array_size(json_object_get(providers, "sign_in")) == 2 &&
                  str_is(json_array_get(json_object_get(providers, "sign_in"), 0), "name", "yahoo") &&
                  str_is(json_array_get(json_object_get(providers, "sign_in"), 1), "name", "google") &&
                  json_array_size(json_object_get(providers, "sharing")) == 1,
              "providers after the change: %s", dump(providers));
    json_decref(providers);
    /* And a provider the app dropped can no longer be started. */
    CHECK_STATUS(J.client_social_begin(client, "facebook", NULL, &out), JUMP_E_INVALID_ARGUMENT);
    J.client_free(client);
}

/* Presses the page's first existing-identity button. */
static char *browser_existing_by_name(const char *url) {
    return idp_press(url, "name", "identity_id", NULL, NULL);
}

TEST(pending_sign_ins_are_capped_at_sixteen) {
    jump_client *client;
    json_t *first, *begun, *result = NULL;
    char options[200], *location, *email = unique_email("cap");
    int i;
    REQUIRE_EMULATOR();
    /* Redirect endings carry the state (inside token_url), so many can be pending at once. */
    snprintf(options, sizeof options, "{\"redirect_uri\":\"http://127.0.0.1:%d/app/done\"}", emu_closed_port());
    client = social_client(THIN);
    REQUIRE(client != NULL);
    first = begin(client, "google", options);
    REQUIRE(first != NULL);
    sleep_ms(1100); /* the first one is strictly the oldest (begin times are kept in seconds) */
    for (i = 0; i < 16; i++) {
        begun = begin(client, "google", options);
        REQUIRE(begun != NULL);
        if (i < 15) json_decref(begun);
    }
    /* The first sign-in was pushed out by the 17th: its completion no longer belongs. */
    location = idp_create(json_str(first, "url"), "Ca P", email, NULL);
    REQUIRE(location != NULL);
    CHECK_STATUS(complete(client, location, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_detail_is("reason", "unknown_state"));
    free(location);
    /* The newest one completes. */
    location = browser_existing_by_name(json_str(begun, "url"));
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_OK(complete(client, location, &result));
    CHECK(str_is(result, "outcome", "registered")); /* the refused completion made no account */
    json_decref(result);
    free(location);
    json_decref(first);
    free(email);
    J.client_free(client);
}

/* Engage's /signin/device ending carries no state: the client binds it to its one pending "device" sign-in,
 * and a sign-in begun again (the user closed the first tab) takes the place of the one before. */
TEST(device_ending_without_state_completes_the_newest_device_sign_in) {
    jump_client *client;
    json_t *abandoned, *retried, *result = NULL;
    char *location, *state, *email = unique_email("retry");
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    abandoned = begin(client, "google", NULL);
    retried = begin(client, "google", NULL);
    REQUIRE(abandoned != NULL && retried != NULL);
    CHECK(str_is(retried, "completion", "device"));
    location = idp_create(json_str(retried, "url"), "Re Try", email, NULL);
    REQUIRE(location != NULL);
    state = query_param(location, "state");
    CHECK_MSG(state == NULL, "the emulator echoed the state (Engage does not): %s", location);
    free(state);
    CHECK_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    json_decref(result);
    result = NULL;
    /* Used once; the abandoned sign-in was replaced, so nothing is left for a second ending. */
    CHECK_STATUS(complete(client, location, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_detail_is("reason", "unknown_state"));
    free(location);
    json_decref(abandoned);
    json_decref(retried);
    free(email);
    J.client_free(client);
}

/* Collects log lines (jump_set_log_callback) while it is installed. */
static recorder log_lines;

TEST(social_secrets_stay_out_of_logs_messages_and_events) {
    jump_client *client, *engage_only;
    recorder events;
    json_t *conflict = NULL, *detail, *result = NULL;
    char *email = unique_email("secret"), *merge_token = NULL, *registration_token = NULL, *token;
    char *message = NULL, *location, *attributes, *engage_token = NULL, *device_token = NULL;
    identity ident;
    REQUIRE_EMULATOR();
    recorder_init(&log_lines);
    recorder_init(&events);
    REQUIRE_OK(J.set_log_callback(recorder_callback, &log_lines, NULL));
    client = social_client(NULL);
    REQUIRE(client != NULL);
    CHECK_OK(J.client_set_event_callback(client, recorder_callback, &events, recorder_free));

    /* 310: the social registration token is in the detail, not in the message. */
    token = profile_token("Se Cret", email);
    CHECK_STATUS(native(client, "google", token, NULL, NULL, &result), JUMP_E_REGISTRATION_REQUIRED);
    detail = error_detail();
    registration_token = dup_or_null(json_str(detail, "social_registration_token"));
    message = dup_or_null(json_str(detail, "message"));
    attributes = json_dumps(json_object_get(detail, "prereg_record"), JSON_COMPACT);
    json_decref(detail);
    REQUIRE(registration_token != NULL && message != NULL && attributes != NULL);
    CHECK_MSG(strstr(message, registration_token) == NULL, "the message shows the registration token");
    free(message);
    /* Registering signs in: the signed_in event. */
    CHECK_OK(J.client_register_social(client, registration_token, attributes, NULL));
    free(attributes);
    CHECK_MSG(recorder_wait_calls(&events, 1, 5000) && recorder_find(&events, 0, "event", "signed_in") >= 0,
              "no signed_in event after the social registration");
    CHECK_OK(J.client_sign_out(client));

    /* 380: the merge token likewise. */
    {
        char *merge_email = unique_email("secret.merge");
        conflict = merge_conflict(merge_email, "capture", "facebook");
        free(merge_email);
    }
    REQUIRE(conflict != NULL);
    CHECK_STATUS(native(client, "facebook", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                        NULL, &result),
                 JUMP_E_MERGE_REQUIRED);
    detail = error_detail();
    merge_token = dup_or_null(json_str(detail, "merge_token"));
    message = dup_or_null(json_str(detail, "message"));
    json_decref(detail);
    REQUIRE(merge_token != NULL && message != NULL);
    CHECK_MSG(strstr(message, merge_token) == NULL, "the message shows the merge token");
    free(message);

    /* An Engage-only browser sign-in hands out the Engage token and the device token: not to the log. */
    REQUIRE(create_identity("facebook", "Br Owser", email, &ident) == 0);
    engage_only = engage_only_client(NULL);
    REQUIRE(engage_only != NULL);
    location = browser_existing(engage_only, "facebook", NULL, &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(engage_only, location, &result));
    engage_token = dup_or_null(json_str(result, "token"));
    device_token = dup_or_null(json_str(result, "device_token"));
    json_decref(result);
    free(location);
    J.client_free(engage_only);

    J.set_log_callback(NULL, NULL, NULL);
    harness_note("%d log lines and %d events checked", recorder_count(&log_lines), recorder_count(&events));
    CHECK_MSG(!recorder_contains(&log_lines, registration_token), "a log line shows the social registration token");
    CHECK_MSG(!recorder_contains(&log_lines, merge_token), "a log line shows the merge token");
    CHECK_MSG(engage_token == NULL || !recorder_contains(&log_lines, engage_token), "a log line shows the Engage token");
    CHECK_MSG(device_token == NULL || !recorder_contains(&log_lines, device_token), "a log line shows the device token");
    CHECK_MSG(!recorder_contains(&events, registration_token) && !recorder_contains(&events, merge_token),
              "an event shows a token");
    J.client_free(client);
    recorder_wait_frees(&events, 1, 5000);
    recorder_destroy(&events);
    recorder_destroy(&log_lines);
    json_decref(conflict);
    free(engage_token);
    free(device_token);
    free(token);
    free(merge_token);
    free(registration_token);
    free(email);
}

/* ---- Engage-only apps -------------------------------------------------------------------------------------- */

TEST(engage_only_configuration_authenticates) {
    jump_client *client;
    identity ident;
    json_t *result = NULL, *profile, *response;
    char *email = unique_email("engageonly"), *location, *token_url, *token;
    REQUIRE_EMULATOR();
    REQUIRE(create_identity("google", "Eve Only", email, &ident) == 0);
    client = engage_only_client(NULL);
    REQUIRE(client != NULL);

    location = browser_existing(client, "google", NULL, &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    free(location);
    CHECK_MSG(str_is(result, "outcome", "authenticated"), "outcome %s", str_or(result, "outcome"));
    CHECK(str_is(result, "provider", "google"));
    CHECK_MSG(json_str(result, "token") != NULL && strlen(json_str(result, "token")) == 40, "token %s",
              str_or(result, "token"));
    CHECK_MSG(json_str(result, "device_token") != NULL && json_str(result, "device_token")[0] != '\0',
              "no device_token");
    profile = json_object_get(result, "profile");
    CHECK_MSG(str_is(profile, "identifier", ident.identifier) && str_is(profile, "displayName", "Eve Only"),
              "profile %s", dump(profile));
    CHECK(json_is_null(json_object_get(result, "token_url_response")));
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    json_decref(result);

    /* With a token URL (here: the emulator's own auth_info, as an app backend would call it) the token goes
     * there and its answer comes back. */
    token_url = malloc(strlen(emu_url()) + 128);
    sprintf(token_url, "%s/api/v2/auth_info?apiKey=%s&format=json", emu_url(), ENGAGE_API_KEY);
    CHECK_OK(J.client_set_token_url(client, token_url));
    location = browser_existing(client, "google", NULL, &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    free(location);
    response = json_object_get(result, "token_url_response");
    CHECK_MSG(json_is_object(response) && json_integer_value(json_object_get(response, "status")) == 200,
              "token_url_response %s", dump(response));
    CHECK_MSG(json_str(response, "body") != NULL && strstr(json_str(response, "body"), "\"ok\"") != NULL &&
                  strstr(json_str(response, "body"), "google.example") != NULL,
              "the token URL answered %s", str_or(response, "body"));
    CHECK(json_is_array(json_object_get(response, "headers")));
    json_decref(result);
    CHECK_OK(J.client_set_token_url(client, NULL));
    CHECK_STATUS(J.client_set_token_url(client, "ftp://example.com/token"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_set_token_url(client, "http://example.com/token"), JUMP_E_INVALID_ARGUMENT);

    /* The native path: no device token. */
    token = identifier_token(ident.identifier);
    REQUIRE_OK(native(client, "google", token, NULL, NULL, &result));
    CHECK(str_is(result, "outcome", "authenticated"));
    CHECK_MSG(json_is_null(json_object_get(result, "device_token")), "a native sign-in gave a device token");
    json_decref(result);
    /* Merging needs Capture. */
    CHECK_STATUS(native(client, "google", token, NULL, "{\"merge_token\":\"abc\"}", &result), JUMP_E_INVALID_ARGUMENT);
    free(token);
    free(token_url);
    free(email);
    J.client_free(client);
}
