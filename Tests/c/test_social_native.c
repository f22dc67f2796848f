/*
 * test_social_native.c - social sign-in with a provider SDK's own token (/signin/oauth_token) through the C
 * ABI against the emulator, and the merge flow (a 380 answered by signing in with the existing provider or
 * with the account's password).
 * The other social tests are in test_social_*.c; their shared helpers in social_support.{c,h}.
 */

#include "harness.h"
#include "social_support.h"

#include <curl/curl.h>
#include <pthread.h>
#include <strings.h>

/* ---- native provider tokens ------------------------------------------------------------------------------ */

TEST(native_provider_token_registers_then_signs_in) {
    jump_client *client, *second;
    json_t *result = NULL, *detail;
    char *email = unique_email("native"), *token = profile_token("Nat Ive", email), *identifier = NULL, *uuid = NULL;
    char *again;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    REQUIRE_OK(native(client, "facebook", token, NULL, NULL, &result));
    CHECK_MSG(str_is(result, "outcome", "registered") && json_is_true(json_object_get(result, "is_new")),
              "outcome %s", str_or(result, "outcome"));
    CHECK(str_is(result, "provider", "facebook"));
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    REQUIRE(uuid != NULL);
    {
        json_t *profiles = linked(client);
        identifier = dup_or_null(json_str(json_array_get(profiles, 0), "identifier"));
        CHECK_MSG(json_array_size(profiles) == 1 && has_prefix(identifier, "https://facebook.example/"),
                  "linked profiles %s", profiles ? dump(profiles) : "(none)");
        json_decref(profiles);
    }
    REQUIRE(identifier != NULL);
    CHECK(server_user_has_identity(uuid, identifier));

    /* The same identity again, from another installation: signed in to the same account. */
    second = social_client(THIN);
    REQUIRE(second != NULL);
    again = identifier_token(identifier);
    REQUIRE_OK(native(second, "facebook", again, NULL, NULL, &result));
    CHECK_MSG(str_is(result, "outcome", "signed_in") && str_is(result, "uuid", uuid) &&
                  json_is_false(json_object_get(result, "is_new")),
              "second sign-in: outcome %s uuid %s", str_or(result, "outcome"), str_or(result, "uuid"));
    json_decref(result);
    free(again);
    J.client_free(second);

    /* Without thin registration the native path needs the two-step registration too. */
    second = social_client(NULL);
    REQUIRE(second != NULL);
    free(email);
    email = unique_email("native2");
    free(token);
    token = profile_token("Nia Two", email);
    CHECK_STATUS(native(second, "google", token, NULL, NULL, &result), JUMP_E_REGISTRATION_REQUIRED);
    detail = error_detail();
    CHECK_MSG(json_str(detail, "social_registration_token") != NULL, "no social_registration_token");
    CHECK_MSG(str_is(json_object_get(detail, "prereg_record"), "email", email), "prereg_record %s",
              dump(json_object_get(detail, "prereg_record")));
    json_decref(detail);
    J.client_free(second);
    free(identifier);
    free(uuid);
    free(token);
    free(email);
    J.client_free(client);
}

TEST(thin_registration_needs_an_email_from_the_provider) {
    jump_client *client;
    json_t *result = NULL, *detail;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    CHECK_STATUS(native(client, "google", "{\"display_name\":\"No Mail\",\"identifier\":\"https://google.example/nomail\"}",
                        NULL, NULL, &result),
                 JUMP_E_REGISTRATION_REQUIRED);
    detail = error_detail();
    CHECK_MSG(json_str(detail, "social_registration_token") != NULL, "no social_registration_token");
    CHECK_MSG(str_is(json_object_get(detail, "prereg_record"), "displayName", "No Mail"), "prereg_record %s",
              dump(json_object_get(detail, "prereg_record")));
    json_decref(detail);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
}

TEST(native_provider_token_refusals) {
    jump_client *client;
    json_t *result = NULL;
    char *email = unique_email("tweet"), *token = profile_token("Tw Eet", email);
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    /* OAuth1 needs its secret. */
    CHECK_STATUS(native(client, "twitter", token, NULL, NULL, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "token_secret"), "detail: %s", J.error_last());
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    REQUIRE_OK(native(client, "twitter", token, "oauth1-secret", NULL, &result));
    CHECK(str_is(result, "provider", "twitter") && str_is(result, "outcome", "registered"));
    json_decref(result);
    CHECK_OK(J.client_sign_out(client));
    /* A token the provider does not know. */
    CHECK_STATUS(native(client, "google", "this is not a profile", NULL, NULL, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "token"), "detail: %s", J.error_last());
    /* A provider the app does not have. */
    CHECK_STATUS(native(client, "myspace", token, NULL, NULL, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "provider"), "detail: %s", J.error_last());
    /* A native sign-in takes no browser options. */
    CHECK_STATUS(native(client, "google", token, NULL, "{\"input\":\"x\"}", &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    free(token);
    free(email);
    J.client_free(client);
}

/* ---- merge --------------------------------------------------------------------------------------------- */

TEST(merge_through_the_existing_social_provider) {
    jump_client *client;
    json_t *conflict, *result = NULL, *detail, *profiles;
    char *email = unique_email("merge.social"), *merge_token, *options, *uuid, *existing_id, *conflicting_id;
    REQUIRE_EMULATOR();
    conflict = merge_conflict(email, "google", "facebook");
    REQUIRE_MSG(conflict != NULL, "POST /emulator/merge_conflict failed");
    uuid = dup_or_null(json_str(json_object_get(conflict, "user"), "uuid"));
    existing_id = dup_or_null(json_str(json_object_get(conflict, "existing_identity"), "identifier"));
    conflicting_id = dup_or_null(json_str(json_object_get(conflict, "conflicting_identity"), "identifier"));
    REQUIRE(uuid != NULL && existing_id != NULL && conflicting_id != NULL);
    client = social_client(THIN);
    REQUIRE(client != NULL);

    CHECK_STATUS(native(client, "facebook", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                        NULL, &result),
                 JUMP_E_MERGE_REQUIRED);
    detail = error_detail();
    merge_token = dup_or_null(json_str(detail, "merge_token"));
    CHECK_MSG(merge_token != NULL && merge_token[0] != '\0', "no merge_token");
    CHECK_MSG(str_is(detail, "existing_provider", "google"), "existing_provider %s", str_or(detail, "existing_provider"));
    CHECK_MSG(str_is(detail, "conflicting_provider", "facebook"), "conflicting_provider %s",
              str_or(detail, "conflicting_provider"));
    json_decref(detail);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    REQUIRE(merge_token != NULL);

    /* Signing in with the existing provider, carrying the merge token, merges. */
    options = malloc(strlen(merge_token) + 32);
    sprintf(options, "{\"merge_token\":\"%s\"}", merge_token);
    REQUIRE_OK(native(client, "google", json_str(json_object_get(conflict, "existing_identity"), "token"), NULL, options,
                      &result));
    CHECK_MSG(str_is(result, "outcome", "signed_in") && str_is(result, "uuid", uuid), "outcome %s uuid %s",
              str_or(result, "outcome"), str_or(result, "uuid"));
    CHECK_MSG(json_is_true(json_object_get(result, "merged")), "merged is not true");
    json_decref(result);
    profiles = linked(client);
    CHECK_MSG(array_has_member(profiles, "identifier", existing_id) &&
                  array_has_member(profiles, "identifier", conflicting_id) && json_array_size(profiles) == 2,
              "linked profiles after the merge: %s", profiles ? dump(profiles) : "(none)");
    CHECK(array_has_member(profiles, "provider", "facebook") && array_has_member(profiles, "provider", "google"));
    json_decref(profiles);
    CHECK(server_user_has_identity(uuid, conflicting_id));

    /* The merged identity now signs in to the same account. */
    CHECK_OK(J.client_sign_out(client));
    REQUIRE_OK(native(client, "facebook", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                      NULL, &result));
    CHECK_MSG(str_is(result, "uuid", uuid), "the merged identity signs in to %s", str_or(result, "uuid"));
    json_decref(result);
    /* A merge token is used once. */
    CHECK_OK(J.client_sign_out(client));
    CHECK(native(client, "google", json_str(json_object_get(conflict, "existing_identity"), "token"), NULL, options,
                 &result) != JUMP_OK);
    free(options);
    free(merge_token);
    free(uuid);
    free(existing_id);
    free(conflicting_id);
    free(email);
    json_decref(conflict);
    J.client_free(client);
}

TEST(merge_through_a_traditional_sign_in) {
    jump_client *client;
    json_t *conflict, *result = NULL, *detail, *profiles;
    char *email = unique_email("merge.capture"), *merge_token, *uuid, *conflicting_id, *out = NULL;
    const char *password;
    jump_record *record = NULL;
    REQUIRE_EMULATOR();
    conflict = merge_conflict(email, "capture", "linkedin");
    REQUIRE_MSG(conflict != NULL, "POST /emulator/merge_conflict failed");
    password = json_str(conflict, "password");
    uuid = dup_or_null(json_str(json_object_get(conflict, "user"), "uuid"));
    conflicting_id = dup_or_null(json_str(json_object_get(conflict, "conflicting_identity"), "identifier"));
    REQUIRE(password != NULL && uuid != NULL && conflicting_id != NULL);
    client = social_client(THIN);
    REQUIRE(client != NULL);

    CHECK_STATUS(native(client, "linkedin", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                        NULL, &result),
                 JUMP_E_MERGE_REQUIRED);
    detail = error_detail();
    merge_token = dup_or_null(json_str(detail, "merge_token"));
    CHECK_MSG(str_is(detail, "existing_provider", "capture"), "existing_provider %s", str_or(detail, "existing_provider"));
    CHECK_MSG(str_is(detail, "conflicting_provider", "linkedin"), "conflicting_provider %s",
              str_or(detail, "conflicting_provider"));
    json_decref(detail);
    REQUIRE(merge_token != NULL);

    /* A wrong password merges nothing. */
    CHECK_STATUS(J.client_sign_in_merge(client, email, "wrong-password-1", merge_token, &out), JUMP_E_BAD_CREDENTIALS);
    CHECK(!server_user_has_identity(uuid, conflicting_id));

    REQUIRE_OK(J.client_sign_in_merge(client, email, password, merge_token, &out));
    result = take_json(out);
    CHECK_MSG(str_is(result, "uuid", uuid), "uuid %s", str_or(result, "uuid"));
    CHECK_MSG(json_is_true(json_object_get(result, "merged")), "merged is not true");
    json_decref(result);
    profiles = linked(client);
    CHECK_MSG(array_has_member(profiles, "identifier", conflicting_id),
              "linked profiles after the merge: %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    CHECK(server_user_has_identity(uuid, conflicting_id));
    /* A password account: the record says it has one (and never its hash). */
    REQUIRE_OK(J.client_record(client, &record));
    {
        char *pw = NULL;
        CHECK_OK(J.record_get(record, "/password", &pw));
        CHECK_MSG(pw != NULL && strcmp(pw, "null") != 0 && strstr(pw, "$2") == NULL, "record password %s",
                  pw ? pw : "(none)");
        if (pw != NULL) J.string_free(pw);
    }
    J.record_free(record);

    /* Now the social identity signs in to the password account. */
    CHECK_OK(J.client_sign_out(client));
    REQUIRE_OK(native(client, "linkedin", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                      NULL, &result));
    CHECK_MSG(str_is(result, "outcome", "signed_in") && str_is(result, "uuid", uuid), "outcome %s uuid %s",
              str_or(result, "outcome"), str_or(result, "uuid"));
    json_decref(result);
    free(merge_token);
    free(uuid);
    free(conflicting_id);
    free(email);
    json_decref(conflict);
    J.client_free(client);
}
