/* test_traditional.c - traditional registration and sign-in against the emulator. */
#include "harness.h"
#include "support.h"

TEST(register_new_user) {
    jump_client *client;
    char *email = unique_email("register"), *out = NULL;
    json_t *attributes, *result, *user, *users, *state;
    const char *uuid;
    char *attributes_text;
    size_t i;
    int listed = 0;
    REQUIRE_EMULATOR();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    attributes = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "email", email, "displayName", "Ada L.", "givenName",
                           "Ada", "familyName", "Lovelace", "birthday", "1990-05-17", "aboutMe",
                           "Analytical \xe2\x9c\xa8 engines");
    attributes_text = json_dumps(attributes, JSON_COMPACT);
    REQUIRE_OK(J.client_register_traditional(client, attributes_text, "password123", &out));
    result = take_json(out);
    REQUIRE_MSG(json_is_object(result), "no result object");
    CHECK_MSG(json_is_true(json_object_get(result, "is_new")), "is_new is not true");
    uuid = json_str(result, "uuid");
    REQUIRE_MSG(uuid != NULL && uuid[0] != '\0', "no uuid in the registration result");
    CHECK_MSG(json_object_get(result, "authorization_code") != NULL &&
                  json_is_null(json_object_get(result, "authorization_code")),
              "authorization_code should be null with captureResponseType token");

    /* Signed in as the new user. */
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    state = get_state(client);
    CHECK(json_is_true(json_object_get(state, "signed_in")));
    CHECK(json_str(state, "uuid") != NULL && strcmp(json_str(state, "uuid"), uuid) == 0);
    CHECK(json_str(state, "email") != NULL && strcmp(json_str(state, "email"), email) == 0);
    CHECK_MSG(json_is_integer(json_object_get(state, "access_token_expires_at")) ||
                  json_is_real(json_object_get(state, "access_token_expires_at")),
              "access_token_expires_at is not a number after sign-in");
    CHECK(json_is_null(json_object_get(state, "restore_error")));
    json_decref(state);

    /* The emulator has the user with the attributes. */
    user = emu_get_user(uuid, NULL);
    REQUIRE_MSG(user != NULL, "GET /emulator/users/%s found nothing", uuid);
    CHECK(json_str(user, "email") && strcmp(json_str(user, "email"), email) == 0);
    CHECK(json_str(user, "givenName") && strcmp(json_str(user, "givenName"), "Ada") == 0);
    CHECK(json_str(user, "familyName") && strcmp(json_str(user, "familyName"), "Lovelace") == 0);
    CHECK(json_str(user, "displayName") && strcmp(json_str(user, "displayName"), "Ada L.") == 0);
    CHECK_MSG(json_str(user, "birthday") && strncmp(json_str(user, "birthday"), "1990-05-17", 10) == 0,
              "birthday: %s", json_str(user, "birthday") ? json_str(user, "birthday") : "(none)");
    CHECK(json_str(user, "aboutMe") && strcmp(json_str(user, "aboutMe"), "Analytical \xe2\x9c\xa8 engines") == 0);
    users = emu_list_users();
    for (i = 0; i < json_array_size(users); i++)
        listed |= json_str(json_array_get(users, i), "uuid") != NULL &&
                  strcmp(json_str(json_array_get(users, i), "uuid"), uuid) == 0;
    CHECK_MSG(listed, "GET /emulator/users does not list the new user");
    json_decref(users);
    json_decref(user);
    json_decref(result);
    json_decref(attributes);
    free(attributes_text);
    free(email);
    J.client_free(client);
}

TEST(register_with_jansson_attributes) {
    jump_client *client;
    char *email = unique_email("jansson"), *out = NULL;
    json_t *attributes, *result, *user;
    size_t refcount;
    REQUIRE_EMULATOR();
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    attributes = json_pack("{s:s, s:s, s:s}", "email", email, "givenName", "Grace", "familyName", "Hopper");
    refcount = attributes->refcount;
    REQUIRE_OK(J.client_register_traditional_jansson(client, attributes, "password123", &out));
    CHECK_MSG(attributes->refcount == refcount, "the attributes' refcount changed");
    result = take_json(out);
    CHECK(json_is_true(json_object_get(result, "is_new")));
    user = emu_get_user(json_str(result, "uuid") ? json_str(result, "uuid") : "none", NULL);
    CHECK_MSG(user != NULL && json_str(user, "givenName") && strcmp(json_str(user, "givenName"), "Grace") == 0,
              "the emulator does not show the registered attributes");
    json_decref(user);
    json_decref(result);
    json_decref(attributes);
    free(email);
    J.client_free(client);
}

/* Registers invalid data with the given locale; returns invalid_fields.emailAddress (new ref). */
static json_t *validation_messages(const char *locale, json_t **password_messages) {
    jump_client *client;
    char extra[100], *out = NULL;
    json_t *email_messages = NULL;
    snprintf(extra, sizeof extra, "{\"captureLocale\":\"%s\"}", locale);
    *password_messages = NULL;
    client = new_client(NULL, extra);
    if (client == NULL) return NULL;
    if (CHECK_STATUS(J.client_register_traditional(client, "{\"email\":\"not-an-email\",\"givenName\":\"X\"}",
                                                   "short", &out),
                     JUMP_E_VALIDATION)) {
        email_messages = invalid_field("emailAddress");
        *password_messages = invalid_field("newPassword");
        if (email_messages == NULL || *password_messages == NULL) harness_note("detail: %s", J.error_last());
    }
    CHECK_MSG(out == NULL, "out_result not NULL after a failure");
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
    return email_messages;
}

TEST(validation_errors_are_localized) {
    json_t *en_email, *en_password, *fr_email, *fr_password;
    REQUIRE_EMULATOR();
    en_email = validation_messages("en-US", &en_password);
    fr_email = validation_messages("fr-FR", &fr_password);
    CHECK_MSG(non_empty_string_array(en_email), "en-US: invalid_fields.emailAddress is not a list of messages");
    CHECK_MSG(non_empty_string_array(en_password), "en-US: invalid_fields.newPassword is not a list of messages");
    CHECK_MSG(non_empty_string_array(fr_email), "fr-FR: invalid_fields.emailAddress is not a list of messages");
    CHECK_MSG(non_empty_string_array(fr_password), "fr-FR: invalid_fields.newPassword is not a list of messages");
    if (en_email != NULL && fr_email != NULL)
        CHECK_MSG(!json_equal(en_email, fr_email), "en-US and fr-FR messages are the same: %s",
                  json_string_value(json_array_get(en_email, 0)));
    if (en_password != NULL && fr_password != NULL) CHECK(!json_equal(en_password, fr_password));
    json_decref(en_email);
    json_decref(en_password);
    json_decref(fr_email);
    json_decref(fr_password);
    /* Nobody was created. */
    {
        json_t *users = emu_list_users();
        CHECK_MSG(users != NULL && json_array_size(users) == 0, "a failed registration created a user");
        json_decref(users);
    }
}

TEST(duplicate_email_is_a_validation_error) {
    jump_client *client;
    char *email = unique_email("dup"), attributes[300], *out = NULL;
    char *uuid;
    json_t *messages;
    REQUIRE_EMULATOR();
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    snprintf(attributes, sizeof attributes, "{\"email\":\"%s\",\"givenName\":\"Again\"}", email);
    CHECK_STATUS(J.client_register_traditional(client, attributes, "password123", &out), JUMP_E_VALIDATION);
    messages = invalid_field("emailAddress");
    CHECK_MSG(non_empty_string_array(messages), "duplicate email: no invalid_fields.emailAddress in %s",
              J.error_last());
    CHECK(out == NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    json_decref(messages);
    free(uuid);
    free(email);
    J.client_free(client);
}

TEST(sign_in_by_email) {
    jump_client *client;
    char *email = unique_email("signin"), *uuid, *out = NULL;
    json_t *result, *state;
    long sessions = -1;
    json_t *user;
    REQUIRE_EMULATOR();
    uuid = emu_create_user(email, TEST_PASSWORD, "{\"givenName\":\"Sign\"}");
    REQUIRE(uuid != NULL);
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, email, TEST_PASSWORD, &out));
    result = take_json(out);
    CHECK_MSG(json_is_false(json_object_get(result, "is_new")), "is_new is not false for a sign-in");
    CHECK(json_str(result, "uuid") != NULL && strcmp(json_str(result, "uuid"), uuid) == 0);
    CHECK(json_is_null(json_object_get(result, "authorization_code")));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    state = get_state(client);
    CHECK(json_str(state, "uuid") != NULL && strcmp(json_str(state, "uuid"), uuid) == 0);
    CHECK(json_is_false(json_object_get(state, "reauthentication_required")));
    json_decref(state);
    user = emu_get_user(uuid, &sessions);
    CHECK_MSG(sessions >= 1, "the emulator counts %ld active sessions", sessions);
    json_decref(user);
    /* out_result may be NULL. */
    CHECK_OK(J.client_sign_in(client, email, TEST_PASSWORD, NULL));
    json_decref(result);
    free(uuid);
    free(email);
    J.client_free(client);
}

TEST(sign_in_by_username) {
    jump_client *client;
    char *email = unique_email("username"), *uuid, *out = NULL, record[200], username[64];
    json_t *result;
    REQUIRE_EMULATOR();
    snprintf(username, sizeof username, "user%ld", (long)getpid());
    snprintf(record, sizeof record, "{\"username\":\"%s\",\"displayName\":\"U\"}", username);
    uuid = emu_create_user(email, TEST_PASSWORD, record);
    REQUIRE(uuid != NULL);
    client = new_client(NULL, "{\"captureTraditionalSignInFormName\":\"signInUsernameForm\"}");
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, username, TEST_PASSWORD, &out));
    result = take_json(out);
    CHECK(json_str(result, "uuid") != NULL && strcmp(json_str(result, "uuid"), uuid) == 0);
    json_decref(result);
    /* A wrong password for the user name is refused. */
    CHECK_OK(J.client_sign_out(client));
    CHECK_STATUS(J.client_sign_in(client, username, "wrong-password", NULL), JUMP_E_BAD_CREDENTIALS);
    free(uuid);
    free(email);
    J.client_free(client);
}

TEST(bad_password_and_unknown_user) {
    jump_client *client;
    char *email = unique_email("badpw"), *uuid, *out = NULL;
    const char *wrong = "Wr0ng-Secret-Value";
    json_t *detail;
    REQUIRE_EMULATOR();
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    out = (char *)&out;
    CHECK_STATUS(J.client_sign_in(client, email, wrong, &out), JUMP_E_BAD_CREDENTIALS);
    CHECK(out == NULL);
    detail = error_detail();
    CHECK_MSG(strstr(J.error_last(), wrong) == NULL, "the error detail contains the password");
    CHECK(json_str(detail, "message") != NULL);
    json_decref(detail);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK_STATUS(J.client_sign_in(client, "nobody-here@example.com", TEST_PASSWORD, NULL), JUMP_E_BAD_CREDENTIALS);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    free(uuid);
    free(email);
    J.client_free(client);
}

TEST(code_and_token_gives_authorization_code) {
    jump_client *client;
    char *email = unique_email("code"), *uuid, *out = NULL;
    json_t *result;
    const char *code;
    REQUIRE_EMULATOR();
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    client = new_client(NULL, "{\"captureResponseType\":\"code_and_token\"}");
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, email, TEST_PASSWORD, &out));
    result = take_json(out);
    code = json_str(result, "authorization_code");
    CHECK_MSG(code != NULL && code[0] != '\0', "no authorization_code with code_and_token");
    json_decref(result);
    free(uuid);
    free(email);
    J.client_free(client);
}

TEST(sign_in_uses_cached_flow_when_download_fails) {
    const char *dir;
    const char *flow_path = "/widget_data/flows/default-app/standard/HEAD/en-US.json";
    jump_client *first, *second, *fresh;
    char *email = unique_email("flowcache"), *uuid, *out = NULL;
    json_t *result;
    REQUIRE_EMULATOR();
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    dir = emu_tmpdir();
    first = new_client(dir, NULL);
    REQUIRE(first != NULL);
    emu_clear_counters();
    CHECK_OK(J.client_load_flow(first));
    CHECK_MSG(emu_counter("GET /widget_data/flows/default-app/standard/HEAD/en-US.json") == 1,
              "expected one flow download, counters say %ld",
              emu_counter("GET /widget_data/flows/default-app/standard/HEAD/en-US.json"));
    J.client_free(first);

    REQUIRE(emu_fault("http_500", 50, flow_path, 0) == 0);
    /* Without a cached copy the download failure shows... */
    fresh = new_client(NULL, NULL);
    REQUIRE(fresh != NULL);
    CHECK_MSG(J.client_load_flow(fresh) != JUMP_OK, "load_flow succeeded although every download fails");
    J.client_free(fresh);
    /* ...with one, the client falls back to it and signs in. */
    second = new_client(dir, NULL);
    REQUIRE(second != NULL);
    CHECK_OK(J.client_load_flow(second));
    CHECK_OK(J.client_sign_in(second, email, TEST_PASSWORD, &out));
    result = take_json(out);
    CHECK(json_str(result, "uuid") != NULL && strcmp(json_str(result, "uuid"), uuid) == 0);
    json_decref(result);
    emu_clear_faults();
    free(uuid);
    free(email);
    J.client_free(second);
}

TEST(secrets_never_logged) {
    jump_client *client;
    recorder logs, events;
    char *email = unique_email("secrets"), *uuid, *token = NULL;
    const char *wrong = "Not-The-Password-99";
    REQUIRE_EMULATOR();
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&logs);
    recorder_init(&events);
    CHECK_OK(J.set_log_callback(recorder_callback, &logs, recorder_free));
    client = new_client(NULL, NULL);
    REQUIRE(client != NULL);
    CHECK_OK(J.client_set_event_callback(client, recorder_callback, &events, recorder_free));
    CHECK_STATUS(J.client_sign_in(client, email, wrong, NULL), JUMP_E_BAD_CREDENTIALS);
    CHECK_MSG(strstr(J.error_last(), wrong) == NULL, "the error detail contains the password");
    CHECK_OK(J.client_sign_in(client, email, TEST_PASSWORD, NULL));
    CHECK_OK(J.client_fetch_record(client));
    CHECK_OK(J.client_refresh_access_token(client));
    CHECK_OK(J.client_access_token(client, &token));
    CHECK(token != NULL && token[0] != '\0');
    CHECK_OK(J.client_sign_out(client));
    J.client_free(client);
    CHECK_OK(J.set_log_callback(NULL, NULL, NULL));
    CHECK(recorder_wait_frees(&logs, 1, 2000));
    CHECK(recorder_wait_frees(&events, 1, 2000));
    harness_note("%d log lines, %d events", recorder_count(&logs), recorder_count(&events));
    CHECK_MSG(!recorder_contains(&logs, TEST_PASSWORD) && !recorder_contains(&logs, wrong), "a log line has a password");
    CHECK_MSG(!recorder_contains(&events, TEST_PASSWORD) && !recorder_contains(&events, wrong), "an event has a password");
    if (token != NULL && strlen(token) >= 8) {
        CHECK_MSG(!recorder_contains(&logs, token), "a log line has the access token");
        CHECK_MSG(!recorder_contains(&events, token), "an event has the access token");
    }
    {
        int i;
        for (i = 0; i < recorder_count(&logs); i++) {
            json_t *line = recorder_payload(&logs, i);
            CHECK_MSG(json_str(line, "kind") && strcmp(json_str(line, "kind"), "log") == 0 &&
                          json_integer_value(json_object_get(line, "version")) == 1 && json_str(line, "level") &&
                          json_str(line, "message"),
                      "malformed log payload #%d", i);
            json_decref(line);
            if (harness_failed()) break;
        }
    }
    J.string_free(token);
    recorder_destroy(&logs);
    recorder_destroy(&events);
    free(uuid);
    free(email);
}
