/* test_write_once.c - every write is applied once and its outcome is known. A relay in front of the emulator
 * (drop_relay.h) applies a write that arrives on a kept-alive connection, then closes that connection
 * unanswered, as an idle timeout or a recycling load balancer does. libcurl would send such a request again
 * on a new connection, unseen; libjump must not, and must settle what it cannot know: the server keeps one
 * copy, and the caller hears the truth. */
#include "harness.h"
#include "support.h"
#include "drop_relay.h"

#define NEW_PASSWORD "brand-new-secret-7"

/* Static: the relay's connection threads outlive a test's stack frame. */
static drop_relay relay;

/* A client whose Capture requests go through the relay; the flow comes from the emulator itself. */
static jump_client *relayed_client(void) {
    char extra[256];
    if (drop_relay_start(&relay, emu_url()) != 0) return NULL;
    snprintf(extra, sizeof extra, "{\"captureDomain\":\"%s\"}", relay.url);
    return new_client(NULL, extra);
}

static int photo_copies(const char *uuid, const char *value) {
    json_t *user = emu_get_user(uuid, NULL), *photos = json_object_get(user, "photos");
    int i, copies = 0;
    for (i = 0; i < (int)json_array_size(photos); i++) {
        const char *v = json_string_value(json_object_get(json_array_get(photos, i), "value"));
        if (v != NULL && strcmp(v, value) == 0) copies++;
    }
    json_decref(user);
    return copies;
}

TEST(append_whose_connection_died_is_stored_once_with_its_real_id) {
    jump_client *client;
    jump_record *record = NULL;
    char *uuid, *out = NULL, *paths = NULL;
    json_t *result, *list;
    size_t count = 0;
    REQUIRE_EMULATOR();
    client = relayed_client();
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, "{\"photos\":[{\"value\":\"a.png\"}]}");
    REQUIRE(uuid != NULL);
    REQUIRE_OK(J.client_record(client, &record));
    CHECK_OK(J.record_append(record, "/photos", "{\"value\":\"once.png\"}", NULL));
    drop_relay_arm(&relay, "/entity.update", 1);

    CHECK_OK(J.client_sync(client, &out));
    result = take_json(out);
    CHECK_EQ_INT(drop_relay_dropped(&relay), 1);
    CHECK_EQ_INT(drop_relay_count(&relay, "/entity.update"), 1);
    CHECK_MSG(photo_copies(uuid, "once.png") == 1, "the server holds %d copies of the appended photo",
              photo_copies(uuid, "once.png"));
    CHECK_MSG(json_integer_value(json_object_get(result, "requests")) == 1, "sync result %s",
              json_dumps(result, JSON_COMPACT));
    json_decref(result);
    CHECK_OK(J.record_element_count(record, "/photos", &count));
    CHECK_EQ_INT((int)count, 2);
    CHECK_OK(J.record_element_paths(record, "/photos", &paths));
    list = take_json(paths);
    {
        /* The local element took the server's id: the same path the server's record gives it. */
        json_t *user = emu_get_user(uuid, NULL);
        json_t *server = json_array_get(json_object_get(user, "photos"), 1);
        char expected[64];
        snprintf(expected, sizeof expected, "/photos#%lld", (long long)json_integer_value(json_object_get(server, "id")));
        CHECK_STR_EQ(json_string_value(json_array_get(list, 1)), expected);
        json_decref(user);
    }
    json_decref(list);
    CHECK(!record_has_pending(record, "/photos"));
    J.record_free(record);
    J.client_free(client);
    drop_relay_stop(&relay);
    free(uuid);
}

TEST(update_whose_connection_died_is_sent_again_and_holds) {
    jump_client *client;
    jump_record *record = NULL;
    char *uuid, *out = NULL;
    json_t *user;
    REQUIRE_EMULATOR();
    client = relayed_client();
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    REQUIRE_OK(J.client_record(client, &record));
    CHECK_OK(J.record_set_string(record, "/aboutMe", "written once"));
    drop_relay_arm(&relay, "/entity.update", 1);
    CHECK_OK(J.client_sync(client, &out));
    J.string_free(out);
    CHECK_EQ_INT(drop_relay_dropped(&relay), 1);
    user = emu_get_user(uuid, NULL);
    CHECK_STR_EQ(json_str(user, "aboutMe"), "written once");
    json_decref(user);
    CHECK(!record_has_pending(record, "/aboutMe"));
    J.record_free(record);
    J.client_free(client);
    drop_relay_stop(&relay);
    free(uuid);
}

TEST(registration_whose_connection_died_reports_the_new_account) {
    jump_client *client;
    char *email = unique_email("lostreg"), attributes[300], *out = NULL;
    json_t *result, *users;
    int i, accounts = 0;
    REQUIRE_EMULATOR();
    client = relayed_client();
    REQUIRE(client != NULL);
    /* A first request opens the connection the registration then goes on. */
    CHECK_STATUS(J.client_sign_in(client, email, "not-registered-yet", &out), JUMP_E_BAD_CREDENTIALS);
    J.string_free(out);
    out = NULL;
    drop_relay_arm(&relay, "/oauth/register_native_traditional", 1);
    snprintf(attributes, sizeof attributes, "{\"email\":\"%s\",\"givenName\":\"Once\"}", email);
    CHECK_OK(J.client_register_traditional(client, attributes, TEST_PASSWORD, &out));
    result = take_json(out);
    CHECK_EQ_INT(drop_relay_dropped(&relay), 1);
    CHECK_EQ_INT(drop_relay_count(&relay, "/oauth/register_native_traditional"), 1);
    CHECK(json_is_true(json_object_get(result, "is_new")));
    CHECK(json_str(result, "uuid") != NULL);
    json_decref(result);
    users = emu_list_users();
    for (i = 0; i < (int)json_array_size(users); i++) {
        const char *e = json_str(json_array_get(users, i), "email");
        if (e != NULL && strcmp(e, email) == 0) accounts++;
    }
    json_decref(users);
    CHECK_EQ_INT(accounts, 1);
    CHECK(J.client_is_signed_in(client) == 1);
    J.client_free(client);
    drop_relay_stop(&relay);
    free(email);
}

TEST(password_change_whose_connection_died_succeeds) {
    jump_client *client;
    char *uuid, *email = NULL;
    REQUIRE_EMULATOR();
    client = relayed_client();
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, &email, NULL);
    REQUIRE(uuid != NULL);
    drop_relay_arm(&relay, "/oauth/update_profile_native", 1);
    CHECK_OK(J.client_change_password(client, TEST_PASSWORD, NEW_PASSWORD));
    CHECK_EQ_INT(drop_relay_dropped(&relay), 1);
    CHECK_EQ_INT(drop_relay_count(&relay, "/oauth/update_profile_native"), 1);
    CHECK_EQ_INT(sign_in_status(email, NEW_PASSWORD), JUMP_OK);
    CHECK(J.client_is_signed_in(client) == 1);
    J.client_free(client);
    drop_relay_stop(&relay);
    free(uuid);
    free(email);
}

TEST(host_post_whose_connection_died_is_an_unknown_outcome) {
    jump_client *client;
    char *uuid, *out = NULL;
    json_t *detail;
    const char *body = "attribute_name=aboutMe";
    REQUIRE_EMULATOR();
    client = relayed_client();
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    drop_relay_arm(&relay, "/entity", 1);
    CHECK_STATUS(J.client_request(client, "POST", "/entity",
                                  "{\"Content-Type\":\"application/x-www-form-urlencoded\"}", body, strlen(body), &out),
                 JUMP_E_NETWORK);
    J.string_free(out);
    detail = error_detail();
    CHECK_STR_EQ(json_str(detail, "reason"), "outcome_unknown");
    json_decref(detail);
    CHECK_EQ_INT(drop_relay_dropped(&relay), 1);
    CHECK_EQ_INT(drop_relay_count(&relay, "/entity"), 1);
    J.client_free(client);
    drop_relay_stop(&relay);
    free(uuid);
}
