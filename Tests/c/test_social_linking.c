/*
 * test_social_linking.c - linking and unlinking social identities through the C ABI against the emulator:
 * native and browser links, the last identity of an account without a password, and a link begun for one
 * user that must not land on another.
 * The other social tests are in test_social_*.c; their shared helpers in social_support.{c,h}.
 */

#include "harness.h"
#include "social_support.h"

#include <curl/curl.h>
#include <pthread.h>
#include <strings.h>

/* ---- linking ------------------------------------------------------------------------------------------- */

TEST(link_unlink_and_the_last_identity_of_a_passwordless_account) {
    jump_client *client;
    json_t *result = NULL, *profiles;
    char *email = unique_email("link"), *fb = profile_token("Lin K", email), *google_email = unique_email("link.g");
    char *google = profile_token("Lin G", google_email), *uuid, *fb_id, *google_id;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    REQUIRE_OK(native(client, "facebook", fb, NULL, NULL, &result));
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    profiles = linked(client);
    fb_id = dup_or_null(json_str(json_array_get(profiles, 0), "identifier"));
    json_decref(profiles);
    REQUIRE(uuid != NULL && fb_id != NULL);

    /* The only identity of an account without a password stays. */
    CHECK_STATUS(J.client_unlink_account(client, fb_id), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "last_identity"), "detail: %s", J.error_last());
    CHECK(server_user_has_identity(uuid, fb_id));

    /* Link a second identity. */
    REQUIRE_OK(native(client, "google", google, NULL, "{\"link\":true}", &result));
    CHECK_MSG(str_is(result, "outcome", "linked") && str_is(result, "uuid", uuid), "outcome %s uuid %s",
              str_or(result, "outcome"), str_or(result, "uuid"));
    google_id = dup_or_null(json_str(result, "identifier"));
    json_decref(result);
    REQUIRE(google_id != NULL);
    CHECK(has_prefix(google_id, "https://google.example/"));
    profiles = linked(client);
    CHECK_MSG(json_array_size(profiles) == 2 && array_has_member(profiles, "identifier", google_id),
              "linked %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    CHECK(record_has_identity(client, google_id));
    CHECK(server_user_has_identity(uuid, google_id));
    /* Linking it again changes nothing. */
    {
        char *again = identifier_token(google_id);
        CHECK_OK(native(client, "google", again, NULL, "{\"link\":true}", &result));
        json_decref(result);
        free(again);
        profiles = linked(client);
        CHECK_EQ_INT(json_array_size(profiles), 2);
        json_decref(profiles);
    }

    /* Now facebook may go; then google is the last one. */
    CHECK_OK(J.client_unlink_account(client, fb_id));
    profiles = linked(client);
    CHECK_MSG(json_array_size(profiles) == 1 && str_is(json_array_get(profiles, 0), "identifier", google_id),
              "after unlinking: %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    CHECK(!record_has_identity(client, fb_id));
    CHECK(!server_user_has_identity(uuid, fb_id));
    CHECK_STATUS(J.client_unlink_account(client, google_id), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_detail_is("reason", "last_identity"));
    CHECK(server_user_has_identity(uuid, google_id));
    /* An identifier that is not linked. */
    CHECK_STATUS(J.client_unlink_account(client, "https://nobody.example/1"), JUMP_E_NOT_FOUND);
    /* The unlinked identity no longer signs in to the account: its email is the account's, whose remaining
     * sign-in method is google, so it is a merge conflict now. */
    {
        jump_client *other = social_client(THIN);
        char *again = identifier_token(fb_id);
        REQUIRE(other != NULL);
        CHECK_STATUS(native(other, "facebook", again, NULL, NULL, &result), JUMP_E_MERGE_REQUIRED);
        CHECK_MSG(last_detail_is("existing_provider", "google"), "detail: %s", J.error_last());
        CHECK_EQ_INT(J.client_is_signed_in(other), 0);
        free(again);
        J.client_free(other);
    }
    free(uuid);
    free(fb_id);
    free(google_id);
    free(fb);
    free(google);
    free(email);
    free(google_email);
    J.client_free(client);
}

TEST(link_through_the_browser_to_a_password_account) {
    jump_client *client, *owner;
    identity ident, taken;
    json_t *result = NULL, *profiles;
    char *uuid, *location, *email = unique_email("pwlink"), *other_email = unique_email("pwlink.other"), *out = NULL;
    char *owner_uuid;
    REQUIRE_EMULATOR();
    REQUIRE(create_identity("twitter", "Pat Word", email, &ident) == 0);
    REQUIRE(create_identity("google", "Oth Er", other_email, &taken) == 0);
    client = social_client(NULL);
    REQUIRE(client != NULL);

    /* Linking needs a signed-in user. */
    CHECK_STATUS(J.client_social_begin(client, "twitter", "{\"link\":true}", &out), JUMP_E_NOT_SIGNED_IN);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    location = browser_existing(client, "twitter", "{\"link\":true}", &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "linked") && str_is(result, "uuid", uuid), "outcome %s uuid %s",
              str_or(result, "outcome"), str_or(result, "uuid"));
    CHECK_MSG(str_is(result, "identifier", ident.identifier), "identifier %s", str_or(result, "identifier"));
    json_decref(result);
    free(location);
    profiles = linked(client);
    CHECK_MSG(json_array_size(profiles) == 1 && str_is(json_array_get(profiles, 0), "provider", "twitter"),
              "linked %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    CHECK(server_user_has_identity(uuid, ident.identifier));

    /* An identity on another account cannot be linked here. */
    owner = social_client(THIN);
    REQUIRE(owner != NULL);
    location = browser_existing(owner, "google", NULL, &taken);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(owner, location, &result));
    owner_uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    free(location);
    location = browser_existing(client, "google", "{\"link\":true}", &taken);
    REQUIRE(location != NULL);
    CHECK(complete(client, location, &result) != JUMP_OK);
    CHECK_MSG(!server_user_has_identity(uuid, taken.identifier), "an identity of another account was linked");
    if (owner_uuid != NULL) CHECK(server_user_has_identity(owner_uuid, taken.identifier));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    free(location);
    free(owner_uuid);
    J.client_free(owner);

    /* A password account may drop its only identity. */
    CHECK_OK(J.client_unlink_account(client, ident.identifier));
    profiles = linked(client);
    CHECK_EQ_INT(json_array_size(profiles), 0);
    json_decref(profiles);
    CHECK(!server_user_has_identity(uuid, ident.identifier));
    free(uuid);
    free(email);
    free(other_email);
    J.client_free(client);
}

TEST(link_begun_for_one_user_does_not_land_on_another) {
    jump_client *client;
    identity ident;
    json_t *begun, *result = NULL;
    char *first, *second, *location, *email = unique_email("shared");
    jump_status status;
    REQUIRE_EMULATOR();
    REQUIRE(create_identity("twitter", "Sha Red", email, &ident) == 0);
    free(email);
    client = social_client(NULL);
    REQUIRE(client != NULL);

    /* Signed out between begin and complete: the link is gone with the session. */
    first = sign_in_new_user(client, NULL, NULL);
    REQUIRE(first != NULL);
    begun = begin(client, "twitter", "{\"link\":true}");
    REQUIRE(begun != NULL);
    location = idp_press(json_str(begun, "url"), "value", ident.id, NULL, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_OK(J.client_sign_out(client));
    CHECK(complete(client, location, &result) != JUMP_OK);
    CHECK(!server_user_has_identity(first, ident.identifier));
    free(location);
    free(first);

    /* Another user signed in between begin and complete (an account switch on a shared device): the identity
     * the first user chose must not be linked to the second one. */
    first = sign_in_new_user(client, NULL, NULL);
    REQUIRE(first != NULL);
    begun = begin(client, "twitter", "{\"link\":true}");
    REQUIRE(begun != NULL);
    location = idp_press(json_str(begun, "url"), "value", ident.id, NULL, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    second = sign_in_new_user(client, NULL, NULL);
    REQUIRE(second != NULL);
    status = complete(client, location, &result);
    CHECK_MSG(status != JUMP_OK, "the link begun for %s completed as %s: %s", first, second,
              result ? dump(result) : "");
    if (status == JUMP_OK) json_decref(result);
    CHECK_MSG(!server_user_has_identity(second, ident.identifier), "the identity was linked to the other user");
    free(location);
    free(first);
    free(second);
    J.client_free(client);
}
