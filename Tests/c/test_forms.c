/* test_forms.c - profile and password forms: update profile, change password, forgot password (with the
 * whole reset loop an app's backend plays) and resend verification, against the emulator. */
#include "harness.h"
#include "support.h"

#include <curl/curl.h>
#include <strings.h>

#define NEW_PASSWORD "brand-new-secret-7"

/* The "argument" of the last error, compared with name. */
static int last_argument_is(const char *name) {
    json_t *detail = error_detail();
    int same = json_str(detail, "argument") != NULL && strcmp(json_str(detail, "argument"), name) == 0;
    json_decref(detail);
    return same;
}

static int last_error_contains(const char *needle) {
    const char *text = J.error_last();
    return text != NULL && strstr(text, needle) != NULL;
}

static const char *str_or(json_t *object, const char *key) {
    const char *s = json_str(object, key);
    return s != NULL ? s : "(none)";
}

/* ---- what an app's backend sends: form-encoded POSTs and plain GETs ----------------------------------- */

/* GET url (absolute) or POST the NULL-terminated name/value pairs form-encoded to the emulator's path.
 * Returns the parsed JSON reply (new reference, NULL when not JSON); *http_status gets the status. */
static json_t *http_call(const char *url_or_path, const char *const *pairs, long *http_status) {
    CURL *curl = curl_easy_init();
    char *body = NULL;
    size_t body_size = 0, i;
    json_t *json;
    if (pairs != NULL && curl != NULL) {
        body = calloc(1, 1);
        for (i = 0; body != NULL && pairs[i] != NULL && pairs[i + 1] != NULL; i += 2) {
            char *name = curl_easy_escape(curl, pairs[i], 0), *value = curl_easy_escape(curl, pairs[i + 1], 0);
            size_t add = strlen(name) + strlen(value) + 2;
            char *grown = realloc(body, body_size + add + 1);
            if (grown != NULL) {
                body = grown;
                body_size += (size_t)sprintf(body + body_size, "%s%s=%s", body_size ? "&" : "", name, value);
            }
            curl_free(name);
            curl_free(value);
        }
    }
    curl_easy_cleanup(curl);
    json = emu_http(pairs != NULL ? "POST" : "GET", url_or_path, "application/x-www-form-urlencoded", body,
                    http_status);
    free(body);
    return json;
}

/* The newest captured email of `kind` (NULL: any) sent to `to` (new reference) or NULL. */
static json_t *latest_email(const char *to, const char *kind) {
    json_t *reply = emu_call("GET", "/emulator/emails", NULL, NULL), *found = NULL;
    json_t *emails = json_object_get(reply, "emails");
    size_t i;
    for (i = 0; i < json_array_size(emails); i++) {
        json_t *email = json_array_get(emails, i);
        if (json_str(email, "to") == NULL || strcasecmp(json_str(email, "to"), to) != 0) continue;
        if (kind != NULL && (json_str(email, "kind") == NULL || strcmp(json_str(email, "kind"), kind) != 0)) continue;
        found = email;
    }
    if (found != NULL) json_incref(found);
    json_decref(reply);
    return found;
}

static int count_emails(const char *to) {
    json_t *reply = emu_call("GET", "/emulator/emails", NULL, NULL);
    json_t *emails = json_object_get(reply, "emails");
    size_t i;
    int n = 0;
    for (i = 0; i < json_array_size(emails); i++)
        if (json_str(json_array_get(emails, i), "to") != NULL &&
            strcasecmp(json_str(json_array_get(emails, i), "to"), to) == 0)
            n++;
    json_decref(reply);
    return n;
}

/* The default flow's version, as the app's backend would read it. */
static char *flow_version(void) {
    json_t *flow = emu_call("GET", "/widget_data/flows/default-app/standard/HEAD/en-US.json", NULL, NULL);
    char *version = json_str(flow, "version") ? strdup(json_str(flow, "version")) : NULL;
    json_decref(flow);
    return version;
}

/* ---- update profile -------------------------------------------------------------------------------------- */

TEST(update_profile_sends_the_form_and_refetches) {
    jump_client *client;
    jump_record *record = NULL;
    char *uuid, *value;
    json_t *user;
    REQUIRE_EMULATOR();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, "{\"displayName\":\"Old Name\",\"givenName\":\"Old\"}");
    REQUIRE(uuid != NULL);
    REQUIRE_OK(J.client_record(client, &record));
    /* An unsynced edit of a form field travels with the form. */
    CHECK_OK(J.record_set_string(record, "/aboutMe", "edited before"));
    CHECK(record_has_pending(record, "/aboutMe"));

    CHECK_OK(J.client_update_profile(
        client, "{\"displayName\":\"New Name\",\"givenName\":\"Newgiven\",\"birthday\":\"1985-04-03\"}"));

    user = emu_get_user(uuid, NULL);
    REQUIRE_MSG(user != NULL, "GET /emulator/users/%s found nothing", uuid);
    CHECK_MSG(strcmp(str_or(user, "displayName"), "New Name") == 0, "server displayName %s", str_or(user, "displayName"));
    CHECK_MSG(strcmp(str_or(user, "givenName"), "Newgiven") == 0, "server givenName %s", str_or(user, "givenName"));
    CHECK_MSG(strncmp(str_or(user, "birthday"), "1985-04-03", 10) == 0, "server birthday %s", str_or(user, "birthday"));
    CHECK_MSG(strcmp(str_or(user, "aboutMe"), "edited before") == 0, "server aboutMe %s", str_or(user, "aboutMe"));
    json_decref(user);

    /* Refetched: the record shows the server's values and nothing the form carried is left unsynced. */
    value = record_string(record, "/displayName");
    CHECK_MSG(value != NULL && strcmp(value, "New Name") == 0, "local displayName %s", value ? value : "(null)");
    free(value);
    value = record_string(record, "/birthday");
    CHECK_MSG(value != NULL && strncmp(value, "1985-04-03", 10) == 0, "local birthday %s", value ? value : "(null)");
    free(value);
    CHECK(!record_has_pending(record, "/aboutMe"));
    CHECK(!record_has_pending(record, "/displayName"));
    CHECK(!record_has_pending(record, "/givenName"));

    /* NULL attributes: the form is sent from the record as it is. */
    CHECK_OK(J.client_update_profile(client, NULL));
    /* A JSON null clears the field. */
    CHECK_OK(J.client_update_profile(client, "{\"aboutMe\":null}"));
    user = emu_get_user(uuid, NULL);
    CHECK_MSG(json_is_null(json_object_get(user, "aboutMe")), "server aboutMe not cleared");
    CHECK_MSG(strcmp(str_or(user, "displayName"), "New Name") == 0, "server displayName %s", str_or(user, "displayName"));
    json_decref(user);
    CHECK(!record_has_pending(record, "/aboutMe"));
    J.record_free(record);
    J.client_free(client);
    free(uuid);
}

/* Sends an invalid profile with captureLocale = locale; returns invalid_fields (new reference). */
static json_t *profile_validation(const char *locale) {
    jump_client *client;
    jump_record *record = NULL;
    char extra[100], *uuid, attributes[300], *value;
    json_t *detail, *fields = NULL;
    snprintf(extra, sizeof extra, "{\"captureLocale\":\"%s\"}", locale);
    client = new_client(NULL, extra);
    if (client == NULL) return NULL;
    uuid = sign_in_new_user(client, NULL, "{\"displayName\":\"Kept\"}");
    if (uuid == NULL) {
        J.client_free(client);
        return NULL;
    }
    snprintf(attributes, sizeof attributes,
             "{\"displayName\":\"%s\",\"birthday\":\"2999-01-01\"}",
             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    CHECK_STATUS(J.client_update_profile(client, attributes), JUMP_E_VALIDATION);
    detail = error_detail();
    CHECK_MSG(json_integer_value(json_object_get(json_object_get(detail, "server"), "code")) == 390,
              "server.code is not 390");
    fields = json_object_get(detail, "invalid_fields");
    if (fields != NULL) json_incref(fields);
    json_decref(detail);
    /* Refused values are not left behind as edits a later sync would send. */
    if (J.client_record(client, &record) == JUMP_OK) {
        CHECK(!record_has_pending(record, "/displayName"));
        CHECK(!record_has_pending(record, "/birthday"));
        value = record_string(record, "/displayName");
        CHECK_MSG(value != NULL && strcmp(value, "Kept") == 0, "local displayName %s", value ? value : "(null)");
        free(value);
        J.record_free(record);
    }
    J.client_free(client);
    free(uuid);
    return fields;
}

TEST(update_profile_validation_en_and_fr) {
    json_t *en, *fr;
    REQUIRE_EMULATOR();
    en = profile_validation("en-US");
    fr = profile_validation("fr-FR");
    REQUIRE_MSG(json_is_object(en) && json_is_object(fr), "no invalid_fields");
    CHECK_MSG(non_empty_string_array(json_object_get(en, "displayName")), "en-US: no displayName messages");
    CHECK_MSG(non_empty_string_array(json_object_get(en, "birthdate")), "en-US: no birthdate messages");
    CHECK_MSG(non_empty_string_array(json_object_get(fr, "displayName")), "fr-FR: no displayName messages");
    CHECK_MSG(non_empty_string_array(json_object_get(fr, "birthdate")), "fr-FR: no birthdate messages");
    CHECK_MSG(!json_equal(json_object_get(en, "displayName"), json_object_get(fr, "displayName")),
              "the displayName messages are the same in en-US and fr-FR");
    CHECK_MSG(!json_equal(json_object_get(en, "birthdate"), json_object_get(fr, "birthdate")),
              "the birthdate messages are the same in en-US and fr-FR");
    json_decref(en);
    json_decref(fr);
}

TEST(update_profile_refuses_bad_arguments) {
    jump_client *client;
    char *uuid;
    REQUIRE_EMULATOR();
    CHECK_STATUS(J.client_update_profile(NULL, "{}"), JUMP_E_INVALID_HANDLE);
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    CHECK_STATUS(J.client_update_profile(client, "{}"), JUMP_E_NOT_SIGNED_IN);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    CHECK_STATUS(J.client_update_profile(client, "{\"displayName\":\"\xff\"}"), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_argument_is("attributes_json"));
    CHECK_STATUS(J.client_update_profile(client, "{\"displayName\":"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_update_profile(client, "[1,2]"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_update_profile(client, "{\"noSuchAttribute\":1}"), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_error_contains("noSuchAttribute"), "the error does not name the attribute: %s", J.error_last());
    CHECK_STATUS(J.client_update_profile(client, "{\"uuid\":\"x\"}"), JUMP_E_INVALID_ARGUMENT);
    CHECK_EQ_INT(emu_counter("POST /oauth/update_profile_native"), 0);
    J.client_free(client);
    free(uuid);
}

/* ---- change password ------------------------------------------------------------------------------------- */

TEST(change_password_right_and_wrong_current) {
    jump_client *client;
    char *uuid, *email = NULL;
    json_t *messages;
    REQUIRE_EMULATOR();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, &email, NULL);
    REQUIRE(uuid != NULL);

    CHECK_STATUS(J.client_change_password(client, "not-the-password", NEW_PASSWORD), JUMP_E_VALIDATION);
    messages = invalid_field("currentPassword");
    CHECK_MSG(non_empty_string_array(messages), "no invalid_fields.currentPassword: %s", J.error_last());
    json_decref(messages);
    CHECK_MSG(!last_error_contains("not-the-password") && !last_error_contains(NEW_PASSWORD),
              "the error detail shows a password");
    CHECK_EQ_INT(sign_in_status(email, TEST_PASSWORD), JUMP_OK);

    CHECK_OK(J.client_change_password(client, TEST_PASSWORD, NEW_PASSWORD));
    CHECK_EQ_INT(sign_in_status(email, NEW_PASSWORD), JUMP_OK);
    CHECK_EQ_INT(sign_in_status(email, TEST_PASSWORD), JUMP_E_BAD_CREDENTIALS);
    J.client_free(client);
    free(uuid);
    free(email);
}

TEST(change_password_refuses_bad_arguments) {
    jump_client *client;
    char *uuid;
    REQUIRE_EMULATOR();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    CHECK_STATUS(J.client_change_password(client, TEST_PASSWORD, NEW_PASSWORD), JUMP_E_NOT_SIGNED_IN);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    CHECK_STATUS(J.client_change_password(client, NULL, NEW_PASSWORD), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_argument_is("current_password"));
    CHECK_STATUS(J.client_change_password(client, TEST_PASSWORD, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_argument_is("new_password"));
    CHECK_STATUS(J.client_change_password(client, "", NEW_PASSWORD), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_argument_is("current_password"));
    CHECK_STATUS(J.client_change_password(client, TEST_PASSWORD, ""), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_argument_is("new_password"));
    CHECK_STATUS(J.client_change_password(client, "\xc3\x28", NEW_PASSWORD), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_argument_is("current_password"));
    CHECK_STATUS(J.client_change_password(NULL, TEST_PASSWORD, NEW_PASSWORD), JUMP_E_INVALID_HANDLE);
    CHECK_EQ_INT(emu_counter("POST /oauth/update_profile_native"), 0);
    J.client_free(client);
    free(uuid);
}

/* ---- forgot password ------------------------------------------------------------------------------------- */

TEST(forgot_password_unknown_email_is_a_form_error) {
    jump_client *client;
    char *email = unique_email("nobody");
    json_t *messages, *detail;
    REQUIRE_EMULATOR();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    CHECK_STATUS(J.client_forgot_password(client, email), JUMP_E_VALIDATION);
    messages = invalid_field("forgotPasswordForm");
    CHECK_MSG(non_empty_string_array(messages), "no form-level message: %s", J.error_last());
    json_decref(messages);
    detail = error_detail();
    CHECK_MSG(json_integer_value(json_object_get(json_object_get(detail, "server"), "code")) == 212,
              "server.code is not 212: %s", J.error_last());
    json_decref(detail);
    CHECK_EQ_INT(count_emails(email), 0);

    CHECK_STATUS(J.client_forgot_password(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_argument_is("email"));
    CHECK_STATUS(J.client_forgot_password(client, ""), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_forgot_password(client, "\xff@example.com"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_forgot_password(NULL, email), JUMP_E_INVALID_HANDLE);
    J.client_free(client);
    free(email);
}

TEST(forgot_password_full_reset_loop) {
    jump_client *client;
    char *email = unique_email("reset"), *uuid, *version;
    json_t *mail, *token_reply, *update_reply;
    const char *code, *access_token;
    long http = 0;
    REQUIRE_EMULATOR();
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    client = new_client(NULL, NULL);  /* nobody signed in */
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_forgot_password(client, email));
    J.client_free(client);

    mail = latest_email(email, NULL);
    REQUIRE_MSG(mail != NULL, "no email captured for %s", email);
    CHECK_MSG(json_str(mail, "kind") != NULL && strcmp(json_str(mail, "kind"), "verification") != 0,
              "the captured email is of kind %s", str_or(mail, "kind"));
    CHECK_MSG(strcmp(str_or(mail, "locale"), "en-US") == 0, "email locale %s", str_or(mail, "locale"));
    code = json_str(mail, "code");
    REQUIRE_MSG(code != NULL && code[0] != '\0', "the email has no code");
    CHECK_MSG(json_str(mail, "link") != NULL && strstr(json_str(mail, "link"), code) != NULL,
              "the link does not carry the code");

    /* The app's backend: code -> access token -> changePasswordFormNoAuth. */
    {
        const char *pairs[] = {"grant_type", "authorization_code", "code", code,
                               "client_id", "jump-default-client", "client_secret", "jump-default-secret",
                               "redirect_uri", emu_url(), NULL};
        token_reply = http_call("/oauth/token", pairs, &http);
    }
    access_token = json_str(token_reply, "access_token");
    REQUIRE_MSG(access_token != NULL, "/oauth/token gave no access_token (HTTP %ld)", http);
    version = flow_version();
    REQUIRE(version != NULL);
    {
        const char *pairs[] = {"form", "changePasswordFormNoAuth", "newPassword", NEW_PASSWORD,
                               "newPasswordConfirm", NEW_PASSWORD, "access_token", access_token,
                               "client_id", "jump-default-client", "flow", "standard", "flow_version", version,
                               "locale", "en-US", NULL};
        update_reply = http_call("/oauth/update_profile_native", pairs, &http);
    }
    CHECK_MSG(strcmp(str_or(update_reply, "stat"), "ok") == 0, "changePasswordFormNoAuth failed (HTTP %ld): %s", http,
              str_or(update_reply, "error_description"));

    CHECK_EQ_INT(sign_in_status(email, NEW_PASSWORD), JUMP_OK);
    CHECK_EQ_INT(sign_in_status(email, TEST_PASSWORD), JUMP_E_BAD_CREDENTIALS);
    json_decref(update_reply);
    json_decref(token_reply);
    json_decref(mail);
    free(version);
    free(uuid);
    free(email);
}

/* ---- resend verification --------------------------------------------------------------------------------- */

TEST(resend_verification_email_link_verifies) {
    jump_client *client;
    char *email = unique_email("verify"), *uuid;
    json_t *mail, *user, *reply;
    const char *link;
    long http = 0;
    REQUIRE_EMULATOR();
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    client = new_client(NULL, "{\"captureLocale\":\"fr-FR\"}");
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_resend_verification_email(client, email));
    J.client_free(client);

    mail = latest_email(email, "verification");
    REQUIRE_MSG(mail != NULL, "no verification email captured for %s", email);
    CHECK_MSG(strcmp(str_or(mail, "locale"), "fr-FR") == 0, "email locale %s", str_or(mail, "locale"));
    link = json_str(mail, "link");
    REQUIRE_MSG(link != NULL && link[0] != '\0', "the email has no link");
    user = emu_get_user(uuid, NULL);
    CHECK_MSG(json_is_null(json_object_get(user, "emailVerified")), "emailVerified set before the link was followed");
    json_decref(user);

    reply = http_call(link, NULL, &http);
    CHECK_MSG(http >= 200 && http < 400, "GET the link: HTTP %ld", http);
    json_decref(reply);
    user = emu_get_user(uuid, NULL);
    CHECK_MSG(json_is_string(json_object_get(user, "emailVerified")), "emailVerified is not set after the link");
    json_decref(user);

    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    CHECK_STATUS(J.client_resend_verification_email(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_argument_is("email"));
    CHECK_STATUS(J.client_resend_verification_email(client, ""), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_resend_verification_email(NULL, email), JUMP_E_INVALID_HANDLE);
    J.client_free(client);
    json_decref(mail);
    free(uuid);
    free(email);
}

/* ---- asynchronous variants ------------------------------------------------------------------------------- */

/* Waits for one request and checks its completion: operation name, status, result {} on success. */
static void check_completion(recorder *r, jump_request *request, const char *operation, long status) {
    json_t *payload;
    CHECK_OK(J.request_wait(request, 20000));
    J.request_free(request);
    payload = recorder_payload(r, recorder_count(r) - 1);
    CHECK_MSG(strcmp(str_or(payload, "operation"), operation) == 0, "operation %s, expected %s",
              str_or(payload, "operation"), operation);
    CHECK_MSG(json_integer_value(json_object_get(payload, "status")) == status, "%s completed with status %lld",
              operation, (long long)json_integer_value(json_object_get(payload, "status")));
    if (status == 0)
        CHECK_MSG(json_is_object(json_object_get(payload, "result")) &&
                      json_object_size(json_object_get(payload, "result")) == 0,
                  "%s: the result is not {}", operation);
    else
        CHECK_MSG(json_is_object(json_object_get(payload, "error")), "%s: no error detail", operation);
    json_decref(payload);
}

TEST(async_variants_complete) {
    jump_client *client;
    jump_request *request = NULL;
    recorder r;
    char *uuid, *email = NULL;
    json_t *user;
    REQUIRE_EMULATOR();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, &email, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&r);

    REQUIRE_OK(J.client_update_profile_async(client, "{\"displayName\":\"Async Name\"}", recorder_callback, &r,
                                             NULL, &request));
    check_completion(&r, request, "update_profile", 0);
    user = emu_get_user(uuid, NULL);
    CHECK_MSG(strcmp(str_or(user, "displayName"), "Async Name") == 0, "server displayName %s",
              str_or(user, "displayName"));
    json_decref(user);

    REQUIRE_OK(J.client_change_password_async(client, "wrong-password-1", NEW_PASSWORD, recorder_callback, &r, NULL,
                                              &request));
    check_completion(&r, request, "change_password", JUMP_E_VALIDATION);
    CHECK_MSG(!recorder_contains(&r, "wrong-password-1"), "a completion shows the password");
    REQUIRE_OK(J.client_change_password_async(client, TEST_PASSWORD, NEW_PASSWORD, recorder_callback, &r, NULL,
                                              &request));
    check_completion(&r, request, "change_password", 0);

    REQUIRE_OK(J.client_forgot_password_async(client, email, recorder_callback, &r, NULL, &request));
    check_completion(&r, request, "forgot_password", 0);
    REQUIRE_OK(J.client_resend_verification_email_async(client, email, recorder_callback, &r, NULL, &request));
    check_completion(&r, request, "resend_verification_email", 0);
    CHECK_EQ_INT(count_emails(email), 2);

    /* Refused before starting: the status, and still exactly one completion. */
    request = (jump_request *)&request;
    CHECK_STATUS(J.client_update_profile_async(client, "not json", recorder_callback, &r, NULL, &request),
                 JUMP_E_INVALID_ARGUMENT);
    CHECK(request == NULL);
    CHECK_STATUS(J.client_forgot_password_async(client, NULL, recorder_callback, &r, NULL, &request),
                 JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(recorder_wait_calls(&r, 7, 5000), "refused starts did not call back");

    J.client_free(client);
    recorder_destroy(&r);
    free(uuid);
    free(email);
}
