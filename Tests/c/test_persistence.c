/* test_persistence.c - the saved session: restore, unsynced edits, file modes, sign-out, read errors. */
#include "harness.h"
#include "support.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>

#define UPDATE_COUNTER "POST /entity.update"

/* ---- directory snapshots ---------------------------------------------------------------------------- */

typedef struct snapshot {
    char *paths[64];
    char *contents[64];
    size_t sizes[64];
    int count;
} snapshot;

static void snapshot_dir(snapshot *s, const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    if (d == NULL) return;
    while ((entry = readdir(d)) != NULL && s->count < 64) {
        char path[1024];
        struct stat st;
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            snapshot_dir(s, path);
        } else if (S_ISREG(st.st_mode)) {
            s->paths[s->count] = strdup(path);
            s->contents[s->count] = read_file(path, &s->sizes[s->count]);
            s->count++;
        }
    }
    closedir(d);
}

static void snapshot_free(snapshot *s) {
    int i;
    for (i = 0; i < s->count; i++) {
        free(s->paths[i]);
        free(s->contents[i]);
    }
    s->count = 0;
}

/* Files of `after` that are new or changed relative to `before`. Returns how many (paths in out, borrowed). */
static int changed_files(snapshot *before, snapshot *after, const char **out, int max) {
    int i, j, n = 0;
    for (i = 0; i < after->count && n < max; i++) {
        int same = 0;
        for (j = 0; j < before->count; j++)
            if (strcmp(before->paths[j], after->paths[i]) == 0) {
                same = before->sizes[j] == after->sizes[i] && before->contents[j] != NULL &&
                       after->contents[i] != NULL &&
                       memcmp(before->contents[j], after->contents[i], after->sizes[i]) == 0;
                break;
            }
        if (!same) out[n++] = after->paths[i];
    }
    return n;
}

typedef struct saved {
    char dir[600];       /* storageDirectory                  */
    char file[1024];     /* the session file                  */
    char *uuid, *email;
} saved;

/* Signs a user in with a client on a new storage directory (a not-yet-existing subdirectory, so libjump
 * creates it) and finds the session file: the file that signing in created or changed. The client is
 * returned (or freed when keep is 0). */
static jump_client *save_session(saved *s, int keep, const char *record_json) {
    jump_client *client;
    snapshot before, after;
    const char *files[8];
    int n;
    memset(s, 0, sizeof *s);
    memset(&before, 0, sizeof before);
    memset(&after, 0, sizeof after);
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return NULL;
    snprintf(s->dir, sizeof s->dir, "%s/store", emu_tmpdir());
    client = new_client(s->dir, NULL);
    if (client == NULL) return NULL;
    CHECK_OK(J.client_load_flow(client));
    snapshot_dir(&before, s->dir);
    s->uuid = sign_in_new_user(client, &s->email, record_json);
    if (s->uuid == NULL) {
        J.client_free(client);
        return NULL;
    }
    snapshot_dir(&after, s->dir);
    n = changed_files(&before, &after, files, 8);
    if (CHECK_MSG(n >= 1, "signing in wrote no file under %s", s->dir)) {
        CHECK_MSG(n == 1, "signing in wrote %d files (one file per installation expected)", n);
        snprintf(s->file, sizeof s->file, "%s", files[0]);
    }
    snapshot_free(&before);
    snapshot_free(&after);
    if (!keep) {
        J.client_free(client);
        return NULL;
    }
    return client;
}

static void saved_free(saved *s) {
    free(s->uuid);
    free(s->email);
}

/* ---- tests ------------------------------------------------------------------------------------------ */

TEST(session_restored_with_unsynced_edits) {
    saved s;
    jump_client *first, *second;
    jump_record *record = NULL;
    json_t *state, *user;
    char *about;
    emu_reset();
    first = save_session(&s, 1, NULL);
    REQUIRE(first != NULL);
    REQUIRE_OK(J.client_record(first, &record));
    CHECK_OK(J.record_set_string(record, "/aboutMe", "written offline"));
    J.record_free(record);
    record = NULL;
    J.client_free(first);

    second = new_client(s.dir, NULL);
    REQUIRE(second != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(second), 1);
    state = get_state(second);
    CHECK_MSG(json_str(state, "uuid") && strcmp(json_str(state, "uuid"), s.uuid) == 0, "restored uuid differs");
    CHECK(json_is_null(json_object_get(state, "restore_error")));
    json_decref(state);
    REQUIRE_OK(J.client_record(second, &record));
    about = record_string(record, "/aboutMe");
    CHECK_STR_EQ(about, "written offline");
    free(about);
    CHECK_MSG(record_has_pending(record, "/aboutMe"), "the unsynced edit is not pending after a restart");

    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_sync(second, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    user = emu_get_user(s.uuid, NULL);
    CHECK(json_str(user, "aboutMe") && strcmp(json_str(user, "aboutMe"), "written offline") == 0);
    json_decref(user);
    CHECK_OK(J.client_sync(second, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    J.record_free(record);
    J.client_free(second);

    /* A third start has nothing pending any more (the acknowledgement was saved). */
    second = new_client(s.dir, NULL);
    REQUIRE(second != NULL);
    CHECK_OK(J.client_sync(second, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    J.client_free(second);
    saved_free(&s);
}

TEST(session_file_modes_and_no_password) {
    saved s;
    struct stat st;
    char parent[1024];
    char *slash;
    mode_t old = umask(022);
    emu_reset();
    save_session(&s, 0, NULL);
    umask(old);
    REQUIRE(s.file[0] != '\0');
    REQUIRE(stat(s.file, &st) == 0);
    CHECK_MSG((st.st_mode & 0777) == 0600, "the session file %s has mode %03o, expected 0600", s.file,
              (unsigned)(st.st_mode & 0777));
    snprintf(parent, sizeof parent, "%s", s.file);
    slash = strrchr(parent, '/');
    if (slash != NULL) *slash = '\0';
    REQUIRE(stat(parent, &st) == 0);
    CHECK_MSG((st.st_mode & 0777) == 0700, "the session directory %s has mode %03o, expected 0700", parent,
              (unsigned)(st.st_mode & 0777));
    REQUIRE(stat(s.dir, &st) == 0);
    CHECK_MSG((st.st_mode & 0777) == 0700, "storageDirectory %s has mode %03o, expected 0700", s.dir,
              (unsigned)(st.st_mode & 0777));
    CHECK_MSG(!tree_contains(s.dir, TEST_PASSWORD), "the password is stored under %s", s.dir);
    saved_free(&s);
}

TEST(no_temporary_files_left_behind) {
    saved s;
    snapshot files;
    int i;
    emu_reset();
    save_session(&s, 0, NULL);
    REQUIRE(s.file[0] != '\0');
    memset(&files, 0, sizeof files);
    snapshot_dir(&files, s.dir);
    for (i = 0; i < files.count; i++)
        CHECK_MSG(strstr(files.paths[i], ".tmp") == NULL && strstr(files.paths[i], "~") == NULL,
                  "a temporary file was left behind: %s", files.paths[i]);
    snapshot_free(&files);
    saved_free(&s);
}

TEST(sign_out_erases_the_session) {
    saved s;
    jump_client *client;
    struct stat st;
    emu_reset();
    client = save_session(&s, 1, NULL);
    REQUIRE(client != NULL);
    CHECK_OK(J.client_sign_out(client));
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
    CHECK_MSG(s.file[0] == '\0' || stat(s.file, &st) != 0 || !tree_contains(s.dir, s.uuid),
              "the session is still stored after sign-out");
    client = new_client(s.dir, NULL);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    {
        json_t *state = get_state(client);
        CHECK(json_is_false(json_object_get(state, "signed_in")));
        CHECK(json_is_null(json_object_get(state, "restore_error")));
        json_decref(state);
    }
    J.client_free(client);
    saved_free(&s);
}

TEST(corrupt_session_file_is_a_storage_error) {
    saved s;
    jump_client *client;
    char *original, *now;
    size_t original_size = 0, now_size = 0;
    const char garbage[] = "this is not a session {{{";
    json_t *state;
    emu_reset();
    save_session(&s, 0, NULL);
    REQUIRE(s.file[0] != '\0');
    original = read_file(s.file, &original_size);
    REQUIRE(original != NULL);
    REQUIRE(write_file(s.file, garbage, sizeof garbage - 1) == 0);

    client = new_client(s.dir, NULL);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    state = get_state(client);
    CHECK_MSG(json_is_object(json_object_get(state, "restore_error")),
              "state.restore_error is not a detail object after a corrupt session file");
    json_decref(state);
    CHECK_STATUS(J.client_restore(client), JUMP_E_STORAGE);
    now = read_file(s.file, &now_size);
    CHECK_MSG(now != NULL && now_size == sizeof garbage - 1 && memcmp(now, garbage, now_size) == 0,
              "the unreadable session file was deleted or overwritten");
    free(now);

    /* Repaired: restore succeeds and the user is back. */
    REQUIRE(write_file(s.file, original, original_size) == 0);
    CHECK_OK(J.client_restore(client));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    state = get_state(client);
    CHECK(json_str(state, "uuid") && strcmp(json_str(state, "uuid"), s.uuid) == 0);
    CHECK(json_is_null(json_object_get(state, "restore_error")));
    json_decref(state);
    J.client_free(client);
    free(original);
    saved_free(&s);
}

TEST(unreadable_session_is_not_signed_out) {
    saved s;
    jump_client *client;
    char inside[1100];
    struct stat st;
    json_t *state;
    emu_reset();
    save_session(&s, 0, NULL);
    REQUIRE(s.file[0] != '\0');
    /* Tests run as root, so chmod 000 does not stop reads: make the session path a directory instead. */
    REQUIRE(remove(s.file) == 0);
    REQUIRE(mkdir(s.file, 0700) == 0);
    snprintf(inside, sizeof inside, "%s/keep", s.file);
    REQUIRE(write_file(inside, "x", 1) == 0);

    client = new_client(s.dir, NULL);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    state = get_state(client);
    CHECK_MSG(json_is_object(json_object_get(state, "restore_error")),
              "an unreadable session was treated as signed out (no restore_error)");
    json_decref(state);
    CHECK_STATUS(J.client_restore(client), JUMP_E_STORAGE);
    CHECK_MSG(stat(inside, &st) == 0, "libjump deleted what was at the session path");
    J.client_free(client);
    saved_free(&s);
}

TEST(memory_storage_keeps_nothing) {
    jump_client *client;
    char *uuid;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    client = new_client(":memory:", NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    CHECK(uuid != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    J.client_free(client);
    client = new_client(":memory:", NULL);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
    free(uuid);
}
