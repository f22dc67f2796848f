/* test_record_plurals.c - plurals and the minimal sync through the C ABI: append, remove, replace, clear,
 * iteration, typed getters, new element ids after entity.replace, partial failures, restarts, conflicts. */
#include "harness.h"
#include "support.h"

#include <unistd.h>

#define PHOTOS "{\"photos\":[{\"value\":\"a.png\"},{\"value\":\"b.png\"}]," \
               "\"profiles\":[{\"identifier\":\"x-%s\",\"friends\":[{\"displayName\":\"Bo\"}]}]}"

typedef struct session {
    jump_client *client;
    jump_record *record;
    char *uuid;
    char *email;
} session;

static int open_session_in(session *s, const char *storage_dir) {
    char record[512];
    static int serial;
    memset(s, 0, sizeof *s);
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return 0;
    if (!CHECK_MSG(emu_reset() == 0, "POST /emulator/reset failed")) return 0;
    snprintf(record, sizeof record, PHOTOS, serial++ == 0 ? "a" : "b");
    s->client = new_client(storage_dir, NULL);
    if (s->client == NULL) return 0;
    s->uuid = sign_in_new_user(s->client, &s->email, record);
    if (s->uuid == NULL) return 0;
    if (!CHECK_OK(J.client_record(s->client, &s->record))) return 0;
    emu_clear_counters();
    return 1;
}

static int open_session(session *s) { return open_session_in(s, NULL); }

static void close_session(session *s) {
    J.record_free(s->record);
    J.client_free(s->client);
    free(s->uuid);
    free(s->email);
}

/* The i-th element path of a plural (malloc'd) or NULL. */
static char *element_path(jump_record *record, const char *plural, size_t i) {
    char *text = NULL, *path = NULL;
    json_t *paths;
    if (J.record_element_paths(record, plural, &text) != JUMP_OK) return NULL;
    paths = take_json(text);
    if (json_is_string(json_array_get(paths, i))) path = strdup(json_string_value(json_array_get(paths, i)));
    json_decref(paths);
    return path;
}

static json_t *sync_result(jump_client *client) {
    char *out = NULL;
    if (!CHECK_OK(J.client_sync(client, &out))) return NULL;
    return take_json(out);
}

static long entity_calls(void) {
    return emu_counter("POST /entity.update") + emu_counter("POST /entity.replace") +
           emu_counter("POST /entity.delete");
}

TEST(iterate_and_typed_getters) {
    session s;
    size_t count = 0;
    char *first, *value;
    int64_t id = 0;
    double number = 0;
    int flag = 0;
    char path[64];
    if (!open_session(&s)) goto done;
    CHECK_OK(J.record_element_count(s.record, "/photos", &count));
    CHECK_EQ_INT(count, 2);
    first = element_path(s.record, "/photos", 0);
    REQUIRE(first != NULL);
    snprintf(path, sizeof path, "%s/value", first);
    value = record_string(s.record, path);
    CHECK_STR_EQ(value, "a.png");
    free(value);
    snprintf(path, sizeof path, "%s/id", first);
    CHECK_OK(J.record_get_int64(s.record, path, &id));
    CHECK_MSG(id > 0 && strstr(first, "#") != NULL && atoll(strchr(first, '#') + 1) == id, "id %lld vs %s",
              (long long)id, first);
    CHECK_OK(J.record_get_double(s.record, path, &number));
    CHECK(number == (double)id);
    CHECK_STATUS(J.record_get_bool(s.record, path, &flag), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_get_int64(s.record, "/aboutMe", &id), JUMP_E_NOT_FOUND); /* null */
    CHECK_STATUS(J.record_get_int64(s.record, "/givenName", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_element_count(s.record, "/aboutMe", &count), JUMP_E_INVALID_ARGUMENT);
    free(first);
done:
    close_session(&s);
}

TEST(two_objects_and_a_plural_send_three_requests) {
    session s;
    json_t *result;
    char *first, path[64], *added = NULL;
    if (!open_session(&s)) goto done;
    first = element_path(s.record, "/photos", 0);
    REQUIRE(first != NULL);
    snprintf(path, sizeof path, "%s/value", first);
    CHECK_OK(J.record_set_string(s.record, "/aboutMe", "root"));
    CHECK_OK(J.record_set_string(s.record, "/primaryAddress/city", "Lyon"));
    CHECK_OK(J.record_set_string(s.record, path, "edited.png"));
    CHECK_OK(J.record_append(s.record, "/statuses", "{\"status\":\"hi\"}", &added));
    CHECK_STR_EQ(added, "/statuses#-1");
    result = sync_result(s.client);
    CHECK_EQ_INT(json_integer_value(json_object_get(result, "requests")), 3);
    /* The root's two objects in one update, the element's own update, and the append (an update too). */
    CHECK_EQ_INT(emu_counter("POST /entity.update"), 3);
    CHECK_EQ_INT(emu_counter("POST /entity.replace"), 0);
    json_decref(result);
    J.string_free(added);
    free(first);
done:
    close_session(&s);
}

/* Appending sends only the new element (entity.update appends it): the elements the server has keep their
 * ids, and an element another device added meanwhile stays. A replace of the whole plural would lose it. */
TEST(append_keeps_ids_and_a_concurrent_writers_element) {
    session s;
    jump_client *other = NULL;
    jump_record *theirs = NULL;
    json_t *user = NULL, *photos, *result = NULL;
    char *before_first = NULL, *before_second = NULL, *added = NULL, *id_text;
    const char *renamed;
    long long first_id = 0, second_id = 0;
    if (!open_session(&s)) goto done;
    before_first = element_path(s.record, "/photos", 0);
    before_second = element_path(s.record, "/photos", 1);
    REQUIRE(before_first != NULL && before_second != NULL);
    first_id = atoll(strchr(before_first, '#') + 1);
    second_id = atoll(strchr(before_second, '#') + 1);
    /* Another device of the same user appends a photo first. */
    other = new_client(NULL, NULL);
    REQUIRE(other != NULL);
    REQUIRE_OK(J.client_sign_in(other, s.email, TEST_PASSWORD, NULL));
    REQUIRE_OK(J.client_record(other, &theirs));
    CHECK_OK(J.record_append(theirs, "/photos", "{\"value\":\"theirs.png\"}", NULL));
    json_decref(sync_result(other));
    emu_clear_counters();

    CHECK_OK(J.record_append(s.record, "/photos", "{\"value\":\"mine.png\"}", &added));
    REQUIRE(added != NULL);
    result = sync_result(s.client);
    REQUIRE(result != NULL);
    CHECK_EQ_INT(emu_counter("POST /entity.update"), 1);
    CHECK_EQ_INT(emu_counter("POST /entity.replace"), 0);
    user = emu_get_user(s.uuid, NULL);
    photos = json_object_get(user, "photos");
    CHECK_MSG(json_array_size(photos) == 4, "the server has %zu photos (theirs lost?)", json_array_size(photos));
    CHECK_EQ_INT(json_integer_value(json_object_get(json_array_get(photos, 0), "id")), first_id);
    CHECK_EQ_INT(json_integer_value(json_object_get(json_array_get(photos, 1), "id")), second_id);
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(photos, 2), "value")), "theirs.png");
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(photos, 3), "value")), "mine.png");
    /* The local element took the server's id; the client's own elements kept theirs. */
    renamed = json_string_value(json_object_get(json_object_get(result, "renamed"), added));
    REQUIRE_MSG(renamed != NULL, "no new id for %s", added);
    CHECK_EQ_INT(atoll(strchr(renamed, '#') + 1), json_integer_value(json_object_get(json_array_get(photos, 3), "id")));
    id_text = element_path(s.record, "/photos", 0);
    CHECK_STR_EQ(id_text, before_first);
    free(id_text);
    CHECK(!record_has_pending(s.record, "/photos"));
    /* Nothing is left to send. */
    emu_clear_counters();
    json_decref(sync_result(s.client));
    CHECK_EQ_INT(entity_calls(), 0);
done:
    json_decref(user);
    json_decref(result);
    J.string_free(added);
    free(before_first);
    free(before_second);
    J.record_free(theirs);
    J.client_free(other);
    close_session(&s);
}

TEST(replace_assigns_ids_later_edits_use) {
    session s;
    json_t *result, *user, *photos;
    const char *renamed;
    char *added = NULL, path[64], *value;
    json_t *element = json_pack("{s:s}", "value", "new.png");
    if (!open_session(&s)) goto done;
    CHECK_OK(J.record_append_jansson(s.record, "/photos", element, &added));
    CHECK_EQ_INT(element->refcount, 1); /* borrowed */
    REQUIRE(added != NULL);
    result = sync_result(s.client);
    renamed = json_string_value(json_object_get(json_object_get(result, "renamed"), added));
    REQUIRE_MSG(renamed != NULL && atoll(strchr(renamed, '#') + 1) > 0, "no new id for %s", added);
    snprintf(path, sizeof path, "%s/value", renamed);
    value = record_string(s.record, path);
    CHECK_STR_EQ(value, "new.png");
    free(value);
    CHECK_OK(J.record_set_string(s.record, path, "renamed.png"));
    emu_clear_counters();
    json_decref(sync_result(s.client));
    CHECK_EQ_INT(emu_counter("POST /entity.update"), 1);
    CHECK_EQ_INT(entity_calls(), 1);
    user = emu_get_user(s.uuid, NULL);
    photos = json_object_get(user, "photos");
    CHECK_EQ_INT(json_array_size(photos), 3);
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(photos, 2), "value")), "renamed.png");
    json_decref(user);
    json_decref(result);
    J.string_free(added);
done:
    json_decref(element);
    close_session(&s);
}

TEST(remove_clear_replace_and_nested) {
    session s;
    char *first = NULL, *profile = NULL, nested[96];
    json_t *user, *elements = json_pack("[{s:s},{s:s}]", "status", "one", "status", "two");
    if (!open_session(&s)) goto done;
    first = element_path(s.record, "/photos", 0);
    profile = element_path(s.record, "/profiles", 0);
    REQUIRE(first != NULL && profile != NULL);
    CHECK_OK(J.record_remove(s.record, first));
    CHECK_STATUS(J.record_remove(s.record, first), JUMP_E_NOT_FOUND);
    snprintf(nested, sizeof nested, "%s/friends", profile);
    CHECK_OK(J.record_append(s.record, nested, "{\"displayName\":\"Cy\"}", NULL));
    CHECK_OK(J.record_replace_plural_jansson(s.record, "/statuses", elements));
    CHECK_OK(J.record_clear(s.record, "/aboutMe"));
    json_decref(sync_result(s.client));
    CHECK_EQ_INT(emu_counter("POST /entity.delete"), 1);
    /* The nested friend and the (empty) statuses only gain elements: two appends, no replace. */
    CHECK_EQ_INT(emu_counter("POST /entity.update"), 2);
    CHECK_EQ_INT(emu_counter("POST /entity.replace"), 0);
    user = emu_get_user(s.uuid, NULL);
    CHECK_EQ_INT(json_array_size(json_object_get(user, "photos")), 1);
    CHECK_EQ_INT(json_array_size(json_object_get(user, "statuses")), 2);
    CHECK_EQ_INT(json_array_size(json_object_get(json_array_get(json_object_get(user, "profiles"), 0), "friends")), 2);
    json_decref(user);
    /* Replacing a plural none of whose elements stay is one entity.replace. */
    emu_clear_counters();
    json_decref(elements);
    elements = json_pack("[{s:s}]", "status", "three");
    CHECK_OK(J.record_replace_plural_jansson(s.record, "/statuses", elements));
    json_decref(sync_result(s.client));
    CHECK_EQ_INT(emu_counter("POST /entity.replace"), 1);
    CHECK_EQ_INT(entity_calls(), 1);
    /* Clearing a plural removes every element: one entity.delete of the plural. */
    emu_clear_counters();
    CHECK_OK(J.record_clear(s.record, "/statuses"));
    json_decref(sync_result(s.client));
    CHECK_EQ_INT(emu_counter("POST /entity.delete"), 1);
    user = emu_get_user(s.uuid, NULL);
    CHECK_EQ_INT(json_array_size(json_object_get(user, "statuses")), 0);
    json_decref(user);
done:
    free(first);
    free(profile);
    json_decref(elements);
    close_session(&s);
}

TEST(failure_in_the_middle_keeps_the_rest_dirty) {
    session s;
    char *out = NULL, *first = NULL;
    json_t *detail, *again;
    if (!open_session(&s)) goto done;
    first = element_path(s.record, "/photos", 0);
    REQUIRE(first != NULL);
    CHECK_OK(J.record_set_string(s.record, "/aboutMe", "first"));
    CHECK_OK(J.record_remove(s.record, first));
    CHECK(emu_fault("http_500", 1, "/entity.delete", 0) == 0);
    CHECK_STATUS(J.client_sync(s.client, &out), JUMP_E_SERVER);
    CHECK(out == NULL);
    detail = json_parse(J.error_last());
    CHECK_MSG(json_array_has_string(json_object_get(detail, "synced"), "/aboutMe"), "synced: %s", J.error_last());
    CHECK_MSG(json_array_has_string(json_object_get(detail, "pending"), first), "pending: %s", J.error_last());
    json_decref(detail);
    CHECK(!record_has_pending(s.record, "/aboutMe"));
    CHECK(record_has_pending(s.record, first));
    emu_clear_counters();
    again = sync_result(s.client);
    CHECK_EQ_INT(emu_counter("POST /entity.update"), 0);
    CHECK_EQ_INT(emu_counter("POST /entity.delete"), 1);
    json_decref(again);
done:
    free(first);
    close_session(&s);
}

TEST(offline_edits_restored_sync_exactly_once) {
    session s;
    jump_client *restored;
    jump_record *record = NULL;
    char *before = NULL, *after = NULL, *dir = NULL;
    json_t *user;
    size_t len;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    len = strlen(emu_tmpdir()) + 32;
    dir = malloc(len);
    snprintf(dir, len, "%s/plurals-%d", emu_tmpdir(), (int)getpid());
    if (!open_session_in(&s, dir)) goto done;
    CHECK_OK(J.record_set_string(s.record, "/aboutMe", "offline"));
    CHECK_OK(J.record_append(s.record, "/photos", "{\"value\":\"c.png\"}", NULL));
    CHECK_OK(J.record_changes(s.record, &before));
    J.record_free(s.record);
    s.record = NULL;
    J.client_free(s.client);
    s.client = NULL;

    restored = new_client(dir, NULL);
    REQUIRE(restored != NULL);
    REQUIRE_OK(J.client_record(restored, &record));
    CHECK_OK(J.record_changes(record, &after));
    CHECK_STR_EQ(after, before);
    json_decref(sync_result(restored));
    CHECK_EQ_INT(emu_counter("POST /entity.update"), 2); /* /aboutMe, and the photo appended */
    CHECK_EQ_INT(emu_counter("POST /entity.replace"), 0);
    emu_clear_counters();
    json_decref(sync_result(restored));
    CHECK_EQ_INT(entity_calls(), 0);
    user = emu_get_user(s.uuid, NULL);
    CHECK_EQ_INT(json_array_size(json_object_get(user, "photos")), 3);
    json_decref(user);
    J.record_free(record);
    J.client_free(restored);
done:
    J.string_free(before);
    J.string_free(after);
    free(dir);
    close_session(&s);
}

TEST(conflicting_fetch_keeps_the_local_value) {
    session s;
    jump_client *other;
    jump_record *theirs = NULL;
    json_t *detail, *conflicts;
    char *value;
    if (!open_session(&s)) goto done;
    other = new_client(NULL, NULL);
    REQUIRE(other != NULL);
    REQUIRE_OK(J.client_sign_in(other, s.email, TEST_PASSWORD, NULL));
    REQUIRE_OK(J.client_record(other, &theirs));
    CHECK_OK(J.record_set_string(theirs, "/aboutMe", "theirs"));
    CHECK_OK(J.client_sync(other, NULL));
    CHECK_OK(J.record_set_string(s.record, "/aboutMe", "mine"));
    CHECK_STATUS(J.client_fetch_record(s.client), JUMP_E_CONFLICT);
    detail = json_parse(J.error_last());
    conflicts = json_object_get(detail, "conflicts");
    CHECK_EQ_INT(json_array_size(conflicts), 1);
    CHECK_STR_EQ(json_str(json_array_get(conflicts, 0), "path"), "/aboutMe");
    CHECK_STR_EQ(json_str(json_array_get(conflicts, 0), "server"), "theirs");
    json_decref(detail);
    value = record_string(s.record, "/aboutMe");
    CHECK_STR_EQ(value, "mine");
    free(value);
    CHECK_OK(J.record_revert(s.record, "/aboutMe"));
    value = record_string(s.record, "/aboutMe");
    CHECK_STR_EQ(value, "theirs");
    free(value);
    CHECK(!record_has_pending(s.record, "/aboutMe"));
    J.record_free(theirs);
    J.client_free(other);
done:
    close_session(&s);
}

TEST(bad_arguments_are_refused) {
    session s;
    char *out = (char *)&out;
    size_t count;
    if (!open_session(&s)) goto done;
    CHECK_STATUS(J.record_append(s.record, NULL, "{}", &out), JUMP_E_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(J.record_append(s.record, "/photos", "not json", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_append(s.record, "/photos", "{\"id\":3}", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_append(s.record, "/aboutMe", "{}", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_append_jansson(s.record, "/photos", NULL, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_replace_plural(s.record, "/photos", "{}"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_replace_plural(s.record, "/photos", "[1]"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_remove(s.record, "/photos"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_remove(s.record, "/photos#999999"), JUMP_E_NOT_FOUND);
    CHECK_STATUS(J.record_remove(s.record, "/photos#abc"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_element_count(s.record, "/photos", NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_element_count(NULL, "/photos", &count), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.record_element_paths(s.record, "\xff", &out), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_revert(s.record, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.record_clear(s.record, "/uuid"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_load_schema(NULL), JUMP_E_INVALID_HANDLE);
    CHECK(!record_has_pending(s.record, "/photos"));
done:
    close_session(&s);
}

/* How the append's answer was lost before the next sync (answer_lost_then). */
enum after_lost { SYNC_AGAIN, RESTART, FETCH_FIRST };

/* An append the server applied but whose answer never arrived is reconciled before it would be sent again:
 * the server ends with one copy, the local record with the server's id and nothing left to send. */
static void lost_append_is_applied_once(enum after_lost then) {
    session s;
    json_t *user = NULL, *photos;
    char *added = NULL, *out = NULL, *path;
    char dir[512];
    size_t count = 0;
    int i, copies = 0;
    snprintf(dir, sizeof dir, "%s/lost-append-%d", emu_tmpdir(), (int)then);
    if (!open_session_in(&s, dir)) goto done;
    CHECK_OK(J.record_append(s.record, "/photos", "{\"value\":\"once.png\"}", &added));
    REQUIRE(emu_fault("lost_answer", 1, "/entity.update", 0) == 0);
    CHECK_STATUS(J.client_sync(s.client, &out), JUMP_E_SERVER);
    J.string_free(out);
    out = NULL;
    if (then == RESTART) {
        J.record_free(s.record);
        J.client_free(s.client);
        s.record = NULL;
        s.client = new_client(dir, NULL);
        REQUIRE(s.client != NULL);
        REQUIRE_OK(J.client_record(s.client, &s.record));
    } else if (then == FETCH_FIRST) {
        CHECK_OK(J.client_fetch_record(s.client));
    }
    emu_clear_counters();
    CHECK_OK(J.client_sync(s.client, &out));
    CHECK_EQ_INT(emu_counter("POST /entity.update"), 0);
    user = emu_get_user(s.uuid, NULL);
    photos = json_object_get(user, "photos");
    for (i = 0; i < (int)json_array_size(photos); i++) {
        const char *value = json_string_value(json_object_get(json_array_get(photos, i), "value"));
        if (value != NULL && strcmp(value, "once.png") == 0) copies++;
    }
    CHECK_MSG(copies == 1, "the server has %d copies of the appended photo", copies);
    CHECK_OK(J.record_element_count(s.record, "/photos", &count));
    CHECK_EQ_INT((int)count, 3);
    path = element_path(s.record, "/photos", 2);
    CHECK_MSG(path != NULL && strchr(path, '-') == NULL, "the appended photo has no server id locally (%s)", path ? path : "none");
    free(path);
    CHECK(!record_has_pending(s.record, "/photos"));
    emu_clear_counters();
    J.string_free(out);
    out = NULL;
    CHECK_OK(J.client_sync(s.client, &out));
    CHECK_EQ_INT(entity_calls(), 0);
done:
    J.string_free(out);
    J.string_free(added);
    json_decref(user);
    close_session(&s);
}

TEST(append_whose_answer_was_lost_is_not_sent_again) { lost_append_is_applied_once(SYNC_AGAIN); }

TEST(append_whose_answer_was_lost_is_not_sent_again_after_a_restart) { lost_append_is_applied_once(RESTART); }

TEST(append_whose_answer_was_lost_is_not_duplicated_by_a_fetch) { lost_append_is_applied_once(FETCH_FIRST); }
