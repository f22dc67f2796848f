/* test_record_sync.c - reading and editing the record view, change tracking, entity.update sync. */
#include "harness.h"
#include "support.h"

#define UPDATE_COUNTER "POST /entity.update"

typedef struct session {
    jump_client *client;
    jump_record *record;
    char *uuid;
    char *email;
} session;

static int open_session(session *s, const char *record_json) {
    memset(s, 0, sizeof *s);
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return 0;
    if (!CHECK_MSG(emu_reset() == 0, "POST /emulator/reset failed")) return 0;
    s->client = new_client(NULL, NULL);
    if (s->client == NULL) return 0;
    s->uuid = sign_in_new_user(s->client, &s->email, record_json);
    if (s->uuid == NULL) return 0;
    if (!CHECK_OK(J.client_record(s->client, &s->record))) return 0;
    return 1;
}

static void close_session(session *s) {
    J.record_free(s->record);
    J.client_free(s->client);
    free(s->uuid);
    free(s->email);
}

static json_t *changes_of(jump_record *record) {
    char *text = NULL;
    if (!CHECK_OK(J.record_changes(record, &text))) return NULL;
    return take_json(text);
}

/* The emulator's copy of the user's attribute (new reference) or NULL. */
static json_t *server_value(const char *uuid, const char *attribute) {
    json_t *user = emu_get_user(uuid, NULL), *value;
    value = json_object_get(user, attribute);
    if (value != NULL) json_incref(value);
    json_decref(user);
    return value;
}

static int server_string_is(const char *uuid, const char *attribute, const char *expected) {
    json_t *value = server_value(uuid, attribute);
    int same = expected == NULL ? json_is_null(value)
                                : (json_is_string(value) && strcmp(json_string_value(value), expected) == 0);
    json_decref(value);
    return same;
}

static int changed_exactly(json_t *changes, const char *const *paths, size_t count) {
    json_t *changed = json_object_get(changes, "changed");
    size_t i;
    if (!json_is_array(changed) || json_array_size(changed) != count) return 0;
    for (i = 0; i < count; i++)
        if (!json_array_has_string(changed, paths[i])) return 0;
    return 1;
}

TEST(record_shape) {
    session s;
    char *text = NULL;
    json_t *record, *via_jansson = NULL, *address, *name;
    const char *attributes[] = {"id",          "uuid",         "created",  "lastUpdated", "email",
                                "emailVerified", "username",   "displayName", "givenName", "middleName",
                                "familyName",  "aboutMe",      "gender",   "birthday",    "primaryAddress",
                                "name",        "photos",       "statuses", "profiles"};
    const char *address_keys[] = {"address1", "address2", "city", "zip", "stateAbbreviation", "country", "phone"};
    const char *name_keys[] = {"formatted", "honorificPrefix", "honorificSuffix"};
    size_t i;
    if (!open_session(&s, "{\"givenName\":\"Shape\"}")) {
        close_session(&s);
        return;
    }
    REQUIRE_OK(J.record_get(s.record, "/", &text));
    record = take_json(text);
    REQUIRE_MSG(json_is_object(record), "record_get(\"/\") is not an object");
    for (i = 0; i < sizeof attributes / sizeof attributes[0]; i++)
        CHECK_MSG(json_object_get(record, attributes[i]) != NULL, "the record lacks \"%s\"", attributes[i]);
    CHECK(json_str(record, "uuid") != NULL && strcmp(json_str(record, "uuid"), s.uuid) == 0);
    CHECK(json_str(record, "email") != NULL && strcmp(json_str(record, "email"), s.email) == 0);
    CHECK(json_str(record, "givenName") != NULL && strcmp(json_str(record, "givenName"), "Shape") == 0);
    CHECK(json_is_null(json_object_get(record, "aboutMe")));
    address = json_object_get(record, "primaryAddress");
    CHECK(json_is_object(address));
    for (i = 0; i < sizeof address_keys / sizeof address_keys[0]; i++)
        CHECK_MSG(json_object_get(address, address_keys[i]) != NULL, "primaryAddress lacks \"%s\"", address_keys[i]);
    name = json_object_get(record, "name");
    CHECK(json_is_object(name));
    for (i = 0; i < sizeof name_keys / sizeof name_keys[0]; i++)
        CHECK_MSG(json_object_get(name, name_keys[i]) != NULL, "name lacks \"%s\"", name_keys[i]);
    CHECK(json_is_array(json_object_get(record, "photos")));
    CHECK(json_is_array(json_object_get(record, "statuses")));
    CHECK(json_is_array(json_object_get(record, "profiles")));

    /* The jansson form equals the text form and is the caller's reference. */
    CHECK_OK(J.record_get_jansson(s.record, "/", &via_jansson));
    CHECK_MSG(json_equal(record, via_jansson), "record_get_jansson(\"/\") differs from record_get(\"/\")");
    if (via_jansson != NULL) {
        CHECK_EQ_INT(via_jansson->refcount, 1);
        json_decref(via_jansson);
    }
    json_decref(record);
    close_session(&s);
}

TEST(get_string_get_and_get_jansson) {
    session s;
    char *text = NULL;
    json_t *value = NULL;
    if (!open_session(&s, "{\"primaryAddress\":{\"city\":\"Lyon\"}}")) {
        close_session(&s);
        return;
    }
    CHECK_OK(J.record_get_string(s.record, "/email", &text));
    CHECK_STR_EQ(text, s.email);
    J.string_free(text);
    text = (char *)&text;
    CHECK_OK(J.record_get_string(s.record, "/aboutMe", &text));
    CHECK_MSG(text == NULL, "get_string of a JSON null did not give NULL");
    text = NULL;
    CHECK_OK(J.record_get_string(s.record, "/primaryAddress/city", &text));
    CHECK_STR_EQ(text, "Lyon");
    J.string_free(text);
    text = (char *)&text;
    CHECK_STATUS(J.record_get_string(s.record, "/primaryAddress", &text), JUMP_E_INVALID_ARGUMENT);
    CHECK(text == NULL);
    text = (char *)&text;
    CHECK_STATUS(J.record_get_string(s.record, "/photos", &text), JUMP_E_INVALID_ARGUMENT);
    CHECK(text == NULL);

    CHECK_OK(J.record_get(s.record, "/primaryAddress/city", &text));
    CHECK_STR_EQ(text, "\"Lyon\"");
    J.string_free(text);
    CHECK_OK(J.record_get(s.record, "/aboutMe", &text));
    CHECK_STR_EQ(text, "null");
    J.string_free(text);
    CHECK_OK(J.record_get_jansson(s.record, "/primaryAddress", &value));
    CHECK(json_is_object(value) && json_str(value, "city") && strcmp(json_str(value, "city"), "Lyon") == 0);
    json_decref(value);
    value = (json_t *)&value;
    CHECK_STATUS(J.record_get_jansson(s.record, "/noSuchAttribute", &value), JUMP_E_NOT_FOUND);
    CHECK(value == NULL);
    text = (char *)&text;
    CHECK_STATUS(J.record_get(s.record, "/primaryAddress/noSuchMember", &text), JUMP_E_NOT_FOUND);
    CHECK(text == NULL);
    close_session(&s);
}

TEST(edit_and_sync_exactly_the_changes) {
    session s;
    json_t *changes, *update, *result;
    char *out = NULL, *about;
    const char *expected[] = {"/aboutMe", "/givenName"};
    if (!open_session(&s, "{\"givenName\":\"Before\",\"familyName\":\"Kept\"}")) {
        close_session(&s);
        return;
    }
    CHECK_OK(J.record_set_string(s.record, "/aboutMe", "Hello \xc3\xa9\xe2\x82\xac \xf0\x9f\x98\x80"));
    CHECK_OK(J.record_set(s.record, "/givenName", "\"Ada\""));
    about = record_string(s.record, "/aboutMe");
    CHECK_STR_EQ(about, "Hello \xc3\xa9\xe2\x82\xac \xf0\x9f\x98\x80");
    free(about);
    changes = changes_of(s.record);
    CHECK_MSG(changed_exactly(changes, expected, 2), "changes: %s", json_dumps(changes, JSON_COMPACT));
    update = json_object_get(changes, "update");
    CHECK_MSG(json_is_object(update) && json_object_size(update) == 2 && json_object_get(update, "aboutMe") &&
                  json_object_get(update, "givenName"),
              "the update document is not exactly {aboutMe, givenName}");
    json_decref(changes);
    {
        json_t *state = get_state(s.client);
        json_t *unsynced = json_object_get(state, "unsynced_changes");
        CHECK_MSG(json_is_true(unsynced) || (json_is_integer(unsynced) && json_integer_value(unsynced) > 0),
                  "state.unsynced_changes does not show pending edits");
        json_decref(state);
    }
    /* Nothing reached the server yet. */
    CHECK(server_string_is(s.uuid, "givenName", "Before"));

    CHECK(emu_clear_counters() == 0);
    REQUIRE_OK(J.client_sync(s.client, &out));
    result = take_json(out);
    CHECK_MSG(changed_exactly(result, expected, 2), "sync result does not list exactly the two changes");
    CHECK_MSG(json_integer_value(json_object_get(result, "requests")) == 1, "sync result requests != 1");
    json_decref(result);
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    CHECK(server_string_is(s.uuid, "aboutMe", "Hello \xc3\xa9\xe2\x82\xac \xf0\x9f\x98\x80"));
    CHECK(server_string_is(s.uuid, "givenName", "Ada"));
    CHECK(server_string_is(s.uuid, "familyName", "Kept"));
    changes = changes_of(s.record);
    CHECK_MSG(json_array_size(json_object_get(changes, "changed")) == 0, "changes remain after a successful sync");
    json_decref(changes);

    /* A second sync has nothing to send. */
    out = NULL;
    CHECK_OK(J.client_sync(s.client, &out));
    result = take_json(out);
    CHECK_EQ_INT(json_integer_value(json_object_get(result, "requests")), 0);
    CHECK_EQ_INT(json_array_size(json_object_get(result, "changed")), 0);
    json_decref(result);
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    close_session(&s);
}

TEST(failed_sync_keeps_changes) {
    session s;
    json_t *changes;
    const char *expected[] = {"/aboutMe"};
    if (!open_session(&s, "{\"aboutMe\":\"old\"}")) {
        close_session(&s);
        return;
    }
    CHECK_OK(J.record_set_string(s.record, "/aboutMe", "new text"));
    CHECK(emu_fault("http_500", 5, "/entity.update", 0) == 0);
    CHECK_STATUS(J.client_sync(s.client, NULL), JUMP_E_SERVER);
    changes = changes_of(s.record);
    CHECK_MSG(changed_exactly(changes, expected, 1), "a failed sync lost the pending change");
    json_decref(changes);
    CHECK(server_string_is(s.uuid, "aboutMe", "old"));
    {
        char *about = record_string(s.record, "/aboutMe");
        CHECK_STR_EQ(about, "new text");
        free(about);
    }
    CHECK(emu_clear_faults() == 0);
    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_sync(s.client, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    CHECK(server_string_is(s.uuid, "aboutMe", "new text"));
    changes = changes_of(s.record);
    CHECK_EQ_INT(json_array_size(json_object_get(changes, "changed")), 0);
    json_decref(changes);
    close_session(&s);
}

TEST(nested_member_syncs_without_clobbering_siblings) {
    session s;
    json_t *changes, *address, *changed;
    if (!open_session(&s, "{\"primaryAddress\":{\"address1\":\"1 Main St\",\"zip\":\"75001\"}}")) {
        close_session(&s);
        return;
    }
    CHECK_OK(J.record_set_string(s.record, "/primaryAddress/city", "Paris"));
    changes = changes_of(s.record);
    changed = json_object_get(changes, "changed");
    CHECK_MSG(json_array_size(changed) == 1 && (json_array_has_string(changed, "/primaryAddress/city") ||
                                                json_array_has_string(changed, "/primaryAddress")),
              "changes after setting /primaryAddress/city: %s", json_dumps(changes, JSON_COMPACT));
    json_decref(changes);
    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_sync(s.client, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    address = server_value(s.uuid, "primaryAddress");
    CHECK_MSG(json_str(address, "city") && strcmp(json_str(address, "city"), "Paris") == 0, "city not synced");
    CHECK_MSG(json_str(address, "address1") && strcmp(json_str(address, "address1"), "1 Main St") == 0,
              "address1 lost by the nested sync");
    CHECK_MSG(json_str(address, "zip") && strcmp(json_str(address, "zip"), "75001") == 0, "zip lost by the nested sync");
    json_decref(address);
    close_session(&s);
}

TEST(discard_changes) {
    session s;
    json_t *changes;
    char *about;
    if (!open_session(&s, "{\"aboutMe\":\"server text\"}")) {
        close_session(&s);
        return;
    }
    CHECK_OK(J.record_set_string(s.record, "/aboutMe", "local text"));
    CHECK_OK(J.record_set_string(s.record, "/primaryAddress/city", "Nowhere"));
    CHECK_OK(J.record_discard_changes(s.record));
    about = record_string(s.record, "/aboutMe");
    CHECK_STR_EQ(about, "server text");
    free(about);
    about = record_string(s.record, "/primaryAddress/city");
    CHECK_MSG(about == NULL, "the discarded city is still there: %s", about);
    free(about);
    changes = changes_of(s.record);
    CHECK_EQ_INT(json_array_size(json_object_get(changes, "changed")), 0);
    json_decref(changes);
    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_sync(s.client, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 0);
    close_session(&s);
}

TEST(set_jansson_borrows) {
    session s;
    json_t *value = json_string("Jansson-Family");
    char *family;
    if (!open_session(&s, NULL)) {
        close_session(&s);
        json_decref(value);
        return;
    }
    CHECK_OK(J.record_set_jansson(s.record, "/familyName", value));
    CHECK_EQ_INT(value->refcount, 1);
    family = record_string(s.record, "/familyName");
    CHECK_STR_EQ(family, "Jansson-Family");
    free(family);
    CHECK_OK(J.client_sync(s.client, NULL));
    CHECK(server_string_is(s.uuid, "familyName", "Jansson-Family"));
    json_decref(value);
    close_session(&s);
}

TEST(reserved_unknown_and_plural_refused) {
    session s;
    const char *refused[] = {"/id", "/uuid", "/created", "/lastUpdated", "/photos", "/statuses", "/profiles",
                             "/unknownAttribute"};
    size_t i;
    json_t *changes;
    if (!open_session(&s, NULL)) {
        close_session(&s);
        return;
    }
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        json_t *detail;
        const char *message;
        if (!CHECK_STATUS(J.record_set(s.record, refused[i], "\"x\""), JUMP_E_INVALID_ARGUMENT)) continue;
        detail = json_parse(J.error_last());
        message = json_str(detail, "message");
        CHECK_MSG(message != NULL && strstr(message, refused[i] + 1) != NULL, "the message does not name %s: %s",
                  refused[i], message ? message : "(none)");
        json_decref(detail);
    }
    CHECK_STATUS(J.record_set(s.record, "/photos", "[]"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_set_string(s.record, "/uuid", NULL), JUMP_E_INVALID_ARGUMENT);
    changes = changes_of(s.record);
    CHECK_EQ_INT(json_array_size(json_object_get(changes, "changed")), 0);
    json_decref(changes);
    close_session(&s);
}

TEST(fetch_keeps_local_edits_on_top) {
    session s;
    jump_client *other;
    jump_record *other_record = NULL;
    char *value;
    json_t *changes;
    const char *expected[] = {"/aboutMe"};
    if (!open_session(&s, "{\"givenName\":\"First\"}")) {
        close_session(&s);
        return;
    }
    CHECK_OK(J.record_set_string(s.record, "/aboutMe", "local edit"));
    /* Another installation changes givenName on the server. */
    other = new_client(NULL, NULL);
    REQUIRE(other != NULL);
    CHECK_OK(J.client_sign_in(other, s.email, TEST_PASSWORD, NULL));
    CHECK_OK(J.client_record(other, &other_record));
    CHECK_OK(J.record_set_string(other_record, "/givenName", "Remote"));
    CHECK_OK(J.client_sync(other, NULL));
    J.record_free(other_record);
    J.client_free(other);

    CHECK_OK(J.client_fetch_record(s.client));
    value = record_string(s.record, "/givenName");
    CHECK_STR_EQ(value, "Remote");
    free(value);
    value = record_string(s.record, "/aboutMe");
    CHECK_STR_EQ(value, "local edit");
    free(value);
    changes = changes_of(s.record);
    CHECK_MSG(changed_exactly(changes, expected, 1), "fetch_record changed the pending edits");
    json_decref(changes);
    close_session(&s);
}

TEST(record_view_ends_with_the_session) {
    session s;
    char *out = (char *)&out;
    char *email2, *uuid2;
    jump_record *second = NULL;
    if (!open_session(&s, NULL)) {
        close_session(&s);
        return;
    }
    CHECK_OK(J.client_sign_out(s.client));
    CHECK_STATUS(J.record_get(s.record, "/email", &out), JUMP_E_NOT_SIGNED_IN);
    CHECK(out == NULL);
    CHECK_STATUS(J.record_set_string(s.record, "/aboutMe", "x"), JUMP_E_NOT_SIGNED_IN);
    /* A view from one session does not see the next user's record. */
    uuid2 = sign_in_new_user(s.client, &email2, NULL);
    REQUIRE(uuid2 != NULL);
    out = (char *)&out;
    CHECK_STATUS(J.record_get(s.record, "/email", &out), JUMP_E_NOT_SIGNED_IN);
    CHECK(out == NULL);
    CHECK_OK(J.client_record(s.client, &second));
    out = record_string(second, "/email");
    CHECK_STR_EQ(out, email2);
    free(out);
    J.record_free(second);
    free(email2);
    free(uuid2);
    close_session(&s);
}
