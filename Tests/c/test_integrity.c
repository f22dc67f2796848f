/*
 * test_integrity.c - session integrity: one user's unsynced edits never reach another user, a
 * re-sign-in keeps what was not synced, a refresh or sync whose answer could not be saved does not break the
 * next start, and an edit that cannot be saved is refused instead of being lost at the next start.
 *
 *   row 1  a session that cannot be read, or another user's session with unsynced edits, is set aside
 *          ("quarantine" in jump_client_state, jump_client_erase_quarantine), never merged into the
 *          next user's record;
 *   row 2  the same user signing in again after a refused refresh keeps the pending edits (or reports
 *          JUMP_E_CONFLICT when the server changed the same attribute meanwhile);
 *   row 3  a refresh whose answer was never saved: the restarted client still works within the emulator's
 *          refresh grace window (capture_refresh_grace_seconds);
 *   row 4  a sync whose acknowledgement was never saved: no spurious conflict for what the server holds;
 *   row 5  storage that cannot be written (host store failing, read-only directory, full disk):
 *          jump_record_set_string is JUMP_E_STORAGE and changes nothing.
 *
 * jump_client_erase_quarantine is resolved by the loader (jump_loader.h): a library without it does not load.
 * As root (how the tests run) file modes stop nothing: a "read-only" directory also switches the calling thread's
 * filesystem uid to nobody (setfsuid, per thread), and a "full" disk is RLIMIT_FSIZE 0.
 */
#include "harness.h"
#include "support.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/fsuid.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>

#define ABOUT "/aboutMe"
#define REFRESH_PATH "/oauth/refresh_access_token"
#define REFRESH_COUNTER "POST /oauth/refresh_access_token"
#define UPDATE_COUNTER "POST /entity.update"
#define NOBODY 65534

/* ---- small helpers ------------------------------------------------------------------------------------ */

/* A storage directory of its own for each test (under the program's temporary directory). */
static void new_store_dir(char *out, size_t size) {
    static int counter;
    snprintf(out, size, "%s/integrity-%d", emu_tmpdir(), ++counter);
}

/* 1 when dir holds a regular file whose name starts with prefix; its path goes to out. */
static int file_with_prefix(const char *dir, const char *prefix, char *out, size_t size) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    int found = 0;
    if (d == NULL) return 0;
    while (!found && (entry = readdir(d)) != NULL) {
        char path[1024];
        struct stat st;
        if (strncmp(entry->d_name, prefix, strlen(prefix)) != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            snprintf(out, size, "%s", path);
            found = 1;
        }
    }
    closedir(d);
    return found;
}

/* The names in dir, comma-separated (for notes and failure messages). */
static void list_dir(const char *dir, char *out, size_t size) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    size_t used = 0;
    out[0] = '\0';
    if (d == NULL) return;
    while ((entry = readdir(d)) != NULL) {
        int n;
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        n = snprintf(out + used, size - used, "%s%s", used ? ", " : "", entry->d_name);
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
    }
    closedir(d);
}

/* The server's /aboutMe of a user (malloc'd; NULL when null or unknown). */
static char *server_about(const char *uuid) {
    json_t *user = emu_get_user(uuid, NULL);
    const char *about = json_str(user, "aboutMe");
    char *copy = about != NULL ? strdup(about) : NULL;
    json_decref(user);
    return copy;
}

/* The client's record /aboutMe (malloc'd; NULL when null or no record). */
static char *local_about(jump_client *client) {
    jump_record *record = NULL;
    char *about;
    if (J.client_record(client, &record) != JUMP_OK) return NULL;
    about = record_string(record, ABOUT);
    J.record_free(record);
    return about;
}

/* 1 when path is among the client's unsynced changes. */
static int pending(jump_client *client, const char *path) {
    jump_record *record = NULL;
    int found;
    if (J.client_record(client, &record) != JUMP_OK) return 0;
    found = record_has_pending(record, path);
    J.record_free(record);
    return found;
}

static int same(const char *a, const char *b) { return a != NULL && b != NULL && strcmp(a, b) == 0; }

/* Sets /aboutMe through a record view; returns the status. */
static jump_status set_about(jump_client *client, const char *value) {
    jump_record *record = NULL;
    jump_status status = J.client_record(client, &record);
    if (status != JUMP_OK) return status;
    status = J.record_set_string(record, ABOUT, value);
    J.record_free(record);
    return status;
}

/* state[key] (new reference) or NULL. */
static json_t *state_member(jump_client *client, const char *key) {
    json_t *state = get_state(client);
    json_t *value = json_object_get(state, key);
    if (value != NULL) json_incref(value);
    json_decref(state);
    return value;
}

static int state_uuid_is(jump_client *client, const char *uuid) {
    json_t *value = state_member(client, "uuid");
    int ok = json_is_string(value) && uuid != NULL && strcmp(json_string_value(value), uuid) == 0;
    json_decref(value);
    return ok;
}

/* Creates a user whose /aboutMe is `about`; uuid (malloc'd) and email (malloc'd) out. */
static char *create_user(const char *tag, const char *about, char **email_out) {
    char record[256];
    char *email = unique_email(tag);
    char *uuid;
    snprintf(record, sizeof record, "{\"aboutMe\":\"%s\"}", about);
    uuid = emu_create_user(email, TEST_PASSWORD, record);
    if (uuid == NULL) {
        free(email);
        return NULL;
    }
    *email_out = email;
    return uuid;
}

/* The next refresh_access_token is refused the way Capture refuses a revoked session (code 200,
 * invalid_argument on access_token): libjump keeps the record and asks for a new sign-in. */
static int refuse_next_refresh(void) {
    long code = 0;
    json_t *reply = emu_call("POST", "/emulator/faults",
                             "{\"kind\":\"capture_error\",\"code\":200,\"count\":1,\"path\":\"" REFRESH_PATH "\"}",
                             &code);
    json_decref(reply);
    return code >= 200 && code < 300 ? 0 : -1;
}

/* Refreshes against a refusing server and checks what a refused session looks like: JUMP_E_EXPIRED from
 * calls, unsynced_changes still true. */
#define expire_session(c) expire_session_at(__FILE__, __LINE__, c)
static int expire_session_at(const char *file, int line, jump_client *client) {
    jump_status status;
    json_t *unsynced;
    if (refuse_next_refresh() != 0) {
        harness_fail(file, line, "the emulator refused the capture_error fault");
        return 0;
    }
    status = J.client_refresh_access_token(client);
    if (!harness_check_status(file, line, "jump_client_refresh_access_token (refused)", status, JUMP_E_EXPIRED))
        return 0;
    status = J.client_fetch_record(client);
    if (!harness_check_status(file, line, "jump_client_fetch_record (after a refused refresh)", status,
                              JUMP_E_EXPIRED))
        return 0;
    unsynced = state_member(client, "unsynced_changes");
    if (!json_is_true(unsynced)) {
        harness_fail(file, line, "state.unsynced_changes is not true after a refused refresh");
        json_decref(unsynced);
        return 0;
    }
    json_decref(unsynced);
    return 1;
}

/* Changes /aboutMe on the server as the same user from another device (a memory-only client): the admin
 * API has no record update. */
static int server_sets_about(const char *email, const char *value) {
    jump_client *other = new_client(":memory:", NULL);
    int ok;
    if (other == NULL) return 0;
    ok = J.client_sign_in(other, email, TEST_PASSWORD, NULL) == JUMP_OK && set_about(other, value) == JUMP_OK &&
         J.client_sync(other, NULL) == JUMP_OK;
    J.client_sign_out(other);
    J.client_free(other);
    return ok;
}

/* ---- quarantine ------------------------------------------------------------------------------------- */

/* state.quarantine (new reference); a failure and NULL unless it is an array. */
#define quarantine_of(c) quarantine_of_at(__FILE__, __LINE__, c)
static json_t *quarantine_of_at(const char *file, int line, jump_client *client) {
    json_t *q = state_member(client, "quarantine");
    if (!json_is_array(q)) {
        json_t *state = get_state(client);
        char *text = json_dumps(state, JSON_COMPACT);
        harness_fail(file, line, "jump_client_state has no \"quarantine\" array: %s", text ? text : "(NULL)");
        free(text);
        json_decref(state);
        json_decref(q);
        return NULL;
    }
    return q;
}

/* Checks that the quarantine holds exactly one entry with this reason (and uuid / unsynced_changes when
 * given); returns it (new reference) or NULL. */
#define one_quarantined(c, reason, uuid, unsynced) one_quarantined_at(__FILE__, __LINE__, c, reason, uuid, unsynced)
static json_t *one_quarantined_at(const char *file, int line, jump_client *client, const char *reason,
                                  const char *uuid, int unsynced) {
    json_t *q = quarantine_of_at(file, line, client);
    json_t *entry;
    char *text;
    if (q == NULL) return NULL;
    text = json_dumps(q, JSON_COMPACT);
    if (json_array_size(q) != 1) {
        harness_fail(file, line, "quarantine has %d entries, expected 1: %s", (int)json_array_size(q), text);
        free(text);
        json_decref(q);
        return NULL;
    }
    entry = json_array_get(q, 0);
    json_incref(entry);
    json_decref(q);
    if (json_str(entry, "entry") == NULL || json_str(entry, "entry")[0] == '\0')
        harness_fail(file, line, "the quarantine entry has no \"entry\" name: %s", text);
    if (!same(json_str(entry, "reason"), reason))
        harness_fail(file, line, "the quarantine entry's reason is not \"%s\": %s", reason, text);
    if (uuid != NULL && !same(json_str(entry, "uuid"), uuid))
        harness_fail(file, line, "the quarantine entry's uuid is not %s: %s", uuid, text);
    if (unsynced >= 0 && !(unsynced ? json_is_true(json_object_get(entry, "unsynced_changes"))
                                    : json_is_false(json_object_get(entry, "unsynced_changes"))))
        harness_fail(file, line, "the quarantine entry's unsynced_changes is not %s: %s",
                     unsynced ? "true" : "false", text);
    free(text);
    return entry;
}

/* ---- host storage that fails on demand ---------------------------------------------------------------- */

#define HOST_MAX 48

typedef struct host_store {
    pthread_mutex_t mutex;
    char *keys[HOST_MAX];
    char *data[HOST_MAX];
    size_t lengths[HOST_MAX];
    int count;
    int fail_saves;  /* while set, every save returns JUMP_E_STORAGE and stores nothing */
    int failed_saves;
    int freed;
} host_store;

static host_store *host_new(void) {
    host_store *s = calloc(1, sizeof *s);
    if (s == NULL) abort();
    pthread_mutex_init(&s->mutex, NULL);
    return s;
}

static int host_index(host_store *s, const char *key) {
    int i;
    for (i = 0; i < s->count; i++)
        if (strcmp(s->keys[i], key) == 0) return i;
    return -1;
}

static jump_status host_load(void *context, const char *key, jump_storage_sink sink, void *sink_context) {
    host_store *s = context;
    char *copy = NULL;
    size_t length = 0;
    int i;
    pthread_mutex_lock(&s->mutex);
    i = key != NULL ? host_index(s, key) : -1;
    if (i >= 0) {
        length = s->lengths[i];
        copy = malloc(length + 1);
        if (copy == NULL) abort();
        memcpy(copy, s->data[i], length);
    }
    pthread_mutex_unlock(&s->mutex);
    if (copy == NULL) return JUMP_E_NOT_FOUND;
    sink(sink_context, copy, length);
    free(copy);
    return JUMP_OK;
}

static jump_status host_save(void *context, const char *key, const char *data, size_t length) {
    host_store *s = context;
    jump_status status = JUMP_OK;
    int i;
    pthread_mutex_lock(&s->mutex);
    if (s->fail_saves) {
        s->failed_saves++;
        status = JUMP_E_STORAGE;
    } else if (key == NULL || (data == NULL && length > 0)) {
        status = JUMP_E_INVALID_ARGUMENT;
    } else {
        i = host_index(s, key);
        if (i < 0 && s->count < HOST_MAX) {
            i = s->count++;
            s->keys[i] = strdup(key);
            s->data[i] = NULL;
        }
        if (i < 0) {
            status = JUMP_E_STORAGE;
        } else {
            free(s->data[i]);
            s->data[i] = malloc(length + 1);
            if (s->data[i] == NULL) abort();
            if (length > 0) memcpy(s->data[i], data, length);
            s->data[i][length] = '\0';
            s->lengths[i] = length;
        }
    }
    pthread_mutex_unlock(&s->mutex);
    return status;
}

static jump_status host_erase(void *context, const char *key) {
    host_store *s = context;
    int i;
    pthread_mutex_lock(&s->mutex);
    if (key != NULL && (i = host_index(s, key)) >= 0) {
        free(s->keys[i]);
        free(s->data[i]);
        s->count--;
        s->keys[i] = s->keys[s->count];
        s->data[i] = s->data[s->count];
        s->lengths[i] = s->lengths[s->count];
    }
    pthread_mutex_unlock(&s->mutex);
    return JUMP_OK;
}

static void host_context_free(void *context) {
    host_store *s = context;
    pthread_mutex_lock(&s->mutex);
    s->freed = 1;
    pthread_mutex_unlock(&s->mutex);
}

static void host_fail_saves(host_store *s, int fail) {
    pthread_mutex_lock(&s->mutex);
    s->fail_saves = fail;
    pthread_mutex_unlock(&s->mutex);
}

static int host_failed_saves(host_store *s) {
    int n;
    pthread_mutex_lock(&s->mutex);
    n = s->failed_saves;
    pthread_mutex_unlock(&s->mutex);
    return n;
}

/* Frees the store once libjump has released it (context_free runs on a libjump thread); leaks it when that
 * does not happen within 5 s rather than risk a use after free. */
static void host_release(host_store *s) {
    double deadline = now_ms() + 5000;
    int freed = 0, i;
    while (now_ms() < deadline) {
        pthread_mutex_lock(&s->mutex);
        freed = s->freed;
        pthread_mutex_unlock(&s->mutex);
        if (freed) break;
        sleep_ms(10);
    }
    if (!freed) return;
    for (i = 0; i < s->count; i++) {
        free(s->keys[i]);
        free(s->data[i]);
    }
    pthread_mutex_destroy(&s->mutex);
    free(s);
}

/* A config for the emulator whose clients keep everything in the host store. */
static jump_config *host_config(host_store *s) {
    char *text = client_config_json(emu_tmpdir(), NULL);
    jump_config *config = NULL;
    jump_status status = J.config_from_json(text, &config);
    free(text);
    if (!CHECK_OK(status)) return NULL;
    if (!CHECK_OK(J.config_set_storage(config, host_load, host_save, host_erase, s, host_context_free))) {
        J.config_free(config);
        return NULL;
    }
    return config;
}

static jump_client *client_from(jump_config *config) {
    jump_client *client = NULL;
    if (config == NULL || !CHECK_OK(J.client_new(config, &client))) return NULL;
    return client;
}

/* ---- storage that cannot be written --------------------------------------------------------------------- */

/* Sets the mode of dir and of the regular files directly in it. */
static void chmod_tree(const char *dir, mode_t dir_mode, mode_t file_mode) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    if (d != NULL) {
        while ((entry = readdir(d)) != NULL) {
            char path[1024];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
            if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) chmod(path, file_mode);
        }
        closedir(d);
    }
    chmod(dir, dir_mode);
}

/* Makes dir read-only for the calling thread: dir 0555, its files 0444 and, when running as root (whom modes
 * do not stop), this thread's filesystem uid nobody (setfsuid is per thread and drops the DAC override).
 * libjump's synchronous calls do their file I/O on the calling thread. Returns 1 when a probe write fails. */
static int read_only_begin(const char *dir) {
    char probe[1100];
    FILE *f;
    chmod_tree(dir, 0555, 0444);
    if (geteuid() == 0) {
        setfsuid(NOBODY);
        if (setfsuid(NOBODY) != NOBODY) return 0;
    }
    snprintf(probe, sizeof probe, "%s/probe-write", dir);
    f = fopen(probe, "w");
    if (f != NULL) {
        fclose(f);
        remove(probe);
        return 0;
    }
    return 1;
}

static void read_only_end(const char *dir) {
    if (geteuid() == 0) setfsuid(0);
    chmod_tree(dir, 0700, 0600);
}

/* A full disk for the whole process: RLIMIT_FSIZE 0 (no file may grow), SIGXFSZ ignored so the write
 * fails with EFBIG. Nothing else in the process writes files meanwhile. */
static struct rlimit saved_fsize;
static void (*saved_xfsz)(int);

static int full_disk_begin(void) {
    struct rlimit none;
    if (getrlimit(RLIMIT_FSIZE, &saved_fsize) != 0) return 0;
    saved_xfsz = signal(SIGXFSZ, SIG_IGN);
    none.rlim_cur = 0;
    none.rlim_max = saved_fsize.rlim_max;
    return setrlimit(RLIMIT_FSIZE, &none) == 0;
}

static void full_disk_end(void) {
    setrlimit(RLIMIT_FSIZE, &saved_fsize);
    signal(SIGXFSZ, saved_xfsz);
}

/* ---- copies of a storage directory ------------------------------------------------------------------- */

typedef struct dir_copy {
    char *names[32];
    char *contents[32];
    size_t sizes[32];
    int count;
} dir_copy;

static void copy_dir(dir_copy *c, const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    memset(c, 0, sizeof *c);
    if (d == NULL) return;
    while ((entry = readdir(d)) != NULL && c->count < 32) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        c->names[c->count] = strdup(entry->d_name);
        c->contents[c->count] = read_file(path, &c->sizes[c->count]);
        c->count++;
    }
    closedir(d);
}

/* Puts dir back as it was when copied: the copied files rewritten, files made since removed (what a
 * process killed before writing them would have left). */
static void restore_dir(dir_copy *c, const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    int i;
    if (d != NULL) {
        while ((entry = readdir(d)) != NULL) {
            char path[1024];
            struct stat st;
            int kept = 0;
            snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
            if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            for (i = 0; i < c->count; i++) kept |= strcmp(c->names[i], entry->d_name) == 0;
            if (!kept) remove(path);
        }
        closedir(d);
    }
    for (i = 0; i < c->count; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, c->names[i]);
        if (c->contents[i] != NULL) write_file(path, c->contents[i], c->sizes[i]);
        chmod(path, 0600);
    }
}

static void free_dir_copy(dir_copy *c) {
    int i;
    for (i = 0; i < c->count; i++) {
        free(c->names[i]);
        free(c->contents[i]);
    }
    c->count = 0;
}

/* ==== row 1: isolation ============================================================================== */

/* User A edits /aboutMe offline, then A's session file becomes unreadable (garbage) and the app restarts;
 * user B signs in. Fills in the directory, both users, the edit; returns B's client (or NULL). */
typedef struct two_users {
    char dir[600];
    char *a_uuid, *a_email, *b_uuid, *b_email;
} two_users;

static void two_users_free(two_users *t) {
    free(t->a_uuid);
    free(t->a_email);
    free(t->b_uuid);
    free(t->b_email);
}

#define A_EDIT "A's unsynced private note"

static jump_client *b_signs_in_after_a_unreadable(two_users *t) {
    jump_client *client;
    char session[1100], journal[1100], names[2048];
    const char garbage[] = "not a session {{{";
    json_t *restore_error;
    memset(t, 0, sizeof *t);
    new_store_dir(t->dir, sizeof t->dir);
    t->a_uuid = create_user("alice", "A before", &t->a_email);
    t->b_uuid = create_user("bob", "B before", &t->b_email);
    if (!CHECK(t->a_uuid != NULL && t->b_uuid != NULL)) return NULL;

    client = new_client(t->dir, NULL);
    if (client == NULL) return NULL;
    if (!CHECK_OK(J.client_sign_in(client, t->a_email, TEST_PASSWORD, NULL)) || !CHECK_OK(set_about(client, A_EDIT))) {
        J.client_free(client);
        return NULL;
    }
    J.client_free(client);

    /* What a signed-in client with an edit leaves: the session file and the journal of its edits. */
    list_dir(t->dir, names, sizeof names);
    if (!CHECK_MSG(file_with_prefix(t->dir, "session-", session, sizeof session), "no session file in %s: %s",
                   t->dir, names))
        return NULL;
    CHECK_MSG(file_with_prefix(t->dir, "journal-", journal, sizeof journal),
              "no journal file next to the session after an edit (files: %s)", names);
    if (!CHECK(write_file(session, garbage, sizeof garbage - 1) == 0)) return NULL;

    client = new_client(t->dir, NULL);
    if (client == NULL) return NULL;
    restore_error = state_member(client, "restore_error");
    CHECK_MSG(json_is_object(restore_error), "the garbage session file gave no restore_error");
    json_decref(restore_error);
    if (!CHECK_OK(J.client_sign_in(client, t->b_email, TEST_PASSWORD, NULL))) {
        J.client_free(client);
        return NULL;
    }
    return client;
}

TEST(unreadable_session_edits_never_reach_the_next_user) {
    two_users t;
    jump_client *client;
    char *about;
    REQUIRE_EMULATOR();
    client = b_signs_in_after_a_unreadable(&t);
    if (client == NULL) {
        two_users_free(&t);
        REQUIRE(client != NULL);
    }
    about = local_about(client);
    CHECK_MSG(!same(about, A_EDIT), "B's record shows A's edit right after B signed in");
    free(about);
    J.client_free(client);

    /* The restart is where A's journal used to be replayed onto B's new session. */
    client = new_client(t.dir, NULL);
    if (client != NULL) {
        CHECK_EQ_INT(J.client_is_signed_in(client), 1);
        CHECK_MSG(state_uuid_is(client, t.b_uuid), "the restored session is not B's");
        about = local_about(client);
        CHECK_MSG(!same(about, A_EDIT), "after a restart B's record shows A's edit: /aboutMe = \"%s\"",
                  about ? about : "(null)");
        CHECK_MSG(same(about, "B before"), "B's /aboutMe is \"%s\", expected B's own \"B before\"",
                  about ? about : "(null)");
        free(about);
        CHECK_MSG(!pending(client, ABOUT), "after a restart B has a pending /aboutMe edit (A's)");
        CHECK_OK(J.client_sync(client, NULL));
        about = server_about(t.b_uuid);
        CHECK_MSG(!same(about, A_EDIT), "jump_client_sync wrote A's edit into B's account on the server");
        free(about);
        about = server_about(t.a_uuid);
        CHECK_MSG(same(about, "A before"), "A's account changed on the server: /aboutMe = \"%s\"",
                  about ? about : "(null)");
        free(about);
        J.client_free(client);
    }
    two_users_free(&t);
}

TEST(unreadable_session_is_quarantined_and_can_be_erased) {
    two_users t;
    jump_client *client;
    json_t *entry, *q;
    REQUIRE_EMULATOR();
    client = b_signs_in_after_a_unreadable(&t);
    if (client == NULL) {
        two_users_free(&t);
        REQUIRE(client != NULL);
    }
    /* Set aside, not deleted and not taken for B's: one entry saying why. */
    entry = one_quarantined(client, "unreadable", NULL, -1);
    json_decref(entry);
    CHECK_MSG(tree_contains(t.dir, "not a session {{{"), "the unreadable session was deleted instead of set aside");

    CHECK_OK(J.client_erase_quarantine(client));
    q = quarantine_of(client);
    CHECK_MSG(q != NULL && json_array_size(q) == 0, "the quarantine is not empty after erase_quarantine");
    json_decref(q);
    CHECK_MSG(!tree_contains(t.dir, "not a session {{{"), "erase_quarantine left the unreadable session on storage");
    /* Erasing what was set aside leaves B signed in. */
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK_MSG(state_uuid_is(client, t.b_uuid), "erase_quarantine changed the signed-in user");
    J.client_free(client);

    /* Erased for good: a restart does not bring it back. */
    client = new_client(t.dir, NULL);
    if (client != NULL) {
        q = quarantine_of(client);
        CHECK_MSG(q != NULL && json_array_size(q) == 0, "the erased quarantine came back after a restart");
        json_decref(q);
        CHECK_MSG(state_uuid_is(client, t.b_uuid), "B is not signed in after a restart");
        J.client_free(client);
    }
    two_users_free(&t);
}

TEST(replaced_session_edits_are_kept_for_their_own_user) {
    char dir[600];
    char *a_email = NULL, *b_email = NULL, *about, *a_uuid, *b_uuid;
    jump_client *client;
    json_t *entry;
    REQUIRE_EMULATOR();
    a_uuid = create_user("alice", "A before", &a_email);
    b_uuid = create_user("bob", "B before", &b_email);
    REQUIRE(a_uuid != NULL && b_uuid != NULL);
    new_store_dir(dir, sizeof dir);
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, a_email, TEST_PASSWORD, NULL));
    REQUIRE_OK(set_about(client, A_EDIT));
    REQUIRE(expire_session(client));

    /* B signs in on the same client without A signing out: B never sees A's edit... */
    REQUIRE_OK(J.client_sign_in(client, b_email, TEST_PASSWORD, NULL));
    about = local_about(client);
    CHECK_MSG(same(about, "B before"), "B's /aboutMe is \"%s\", expected \"B before\"", about ? about : "(null)");
    free(about);
    CHECK_MSG(!pending(client, ABOUT), "B has a pending /aboutMe edit right after signing in");
    /* ...and A's session is set aside, saying whose it is and that it holds unsynced edits. */
    entry = one_quarantined(client, "replaced", a_uuid, 1);
    json_decref(entry);

    /* B leaves, A comes back: A's edit is there again and a sync sends it to A's account. */
    CHECK_OK(J.client_sign_out(client));
    REQUIRE_OK(J.client_sign_in(client, a_email, TEST_PASSWORD, NULL));
    about = local_about(client);
    CHECK_MSG(same(about, A_EDIT), "A's kept edit did not come back: A's /aboutMe is \"%s\"",
              about ? about : "(null)");
    free(about);
    CHECK_MSG(pending(client, ABOUT), "A's kept edit is not pending after A signed in again");
    CHECK_OK(J.client_sync(client, NULL));
    about = server_about(a_uuid);
    CHECK_MSG(same(about, A_EDIT), "A's account on the server has /aboutMe \"%s\", expected A's edit",
              about ? about : "(null)");
    free(about);
    about = server_about(b_uuid);
    CHECK_MSG(same(about, "B before"), "B's account on the server changed: /aboutMe \"%s\"", about ? about : "(null)");
    free(about);
    J.client_free(client);
    free(a_uuid);
    free(a_email);
    free(b_uuid);
    free(b_email);
}

/* ==== row 2: the same user signing in again ========================================================== */

TEST(same_user_signing_in_again_keeps_and_syncs_pending_edits) {
    char dir[600];
    char *email = NULL, *about;
    char *uuid;
    jump_client *client;
    REQUIRE_EMULATOR();
    uuid = create_user("carol", "before", &email);
    REQUIRE(uuid != NULL);
    new_store_dir(dir, sizeof dir);
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, email, TEST_PASSWORD, NULL));
    REQUIRE_OK(set_about(client, "edited while the session died"));
    REQUIRE(expire_session(client));

    /* What the app does on JUMP_E_EXPIRED: sign the same user in again. */
    CHECK_OK(J.client_sign_in(client, email, TEST_PASSWORD, NULL));
    about = local_about(client);
    CHECK_MSG(same(about, "edited while the session died"),
              "the edit kept through the refused refresh is gone after signing in again: /aboutMe = \"%s\"",
              about ? about : "(null)");
    free(about);
    CHECK_MSG(pending(client, ABOUT), "/aboutMe is not in jump_record_changes after signing in again");
    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_sync(client, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    about = server_about(uuid);
    CHECK_MSG(same(about, "edited while the session died"), "the server's /aboutMe is \"%s\" after the sync",
              about ? about : "(null)");
    free(about);
    J.client_free(client);
    free(uuid);
    free(email);
}

TEST(same_user_signing_in_again_reports_a_conflict_and_keeps_the_local_value) {
    char dir[600];
    char *email = NULL, *about;
    char *uuid;
    jump_client *client;
    jump_status status;
    json_t *detail = NULL, *conflicts, *conflict = NULL;
    size_t i;
    REQUIRE_EMULATOR();
    uuid = create_user("dave", "base", &email);
    REQUIRE(uuid != NULL);
    new_store_dir(dir, sizeof dir);
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, email, TEST_PASSWORD, NULL));
    REQUIRE_OK(set_about(client, "local"));
    REQUIRE(expire_session(client));
    /* Meanwhile the same attribute changes on the server (the user on another device). */
    REQUIRE_MSG(server_sets_about(email, "server"), "could not change /aboutMe on the server");

    status = J.client_sign_in(client, email, TEST_PASSWORD, NULL);
    if (status != JUMP_OK) detail = error_detail(); /* read before any other libjump call */
    CHECK_STATUS(status, JUMP_E_CONFLICT);
    CHECK_MSG(J.client_is_signed_in(client) == 1, "the client is not signed in after the conflicting sign-in");
    conflicts = json_object_get(detail, "conflicts");
    for (i = 0; i < json_array_size(conflicts); i++)
        if (same(json_str(json_array_get(conflicts, i), "path"), ABOUT)) conflict = json_array_get(conflicts, i);
    if (status != JUMP_OK)
        CHECK_MSG(conflict != NULL, "the error detail's \"conflicts\" does not list /aboutMe");
    if (conflict != NULL) {
        /* The shape of jump_client_fetch_record's conflicts: {"path","local","server","base"}. */
        CHECK(same(json_str(conflict, "local"), "local"));
        CHECK(same(json_str(conflict, "server"), "server"));
        CHECK(same(json_str(conflict, "base"), "base"));
    }
    json_decref(detail);
    about = local_about(client);
    CHECK_MSG(same(about, "local"), "the local value was not kept: /aboutMe = \"%s\"", about ? about : "(null)");
    free(about);
    CHECK_MSG(pending(client, ABOUT), "the kept local value is not pending");
    /* As after a fetch conflict, a sync sends the local value. */
    CHECK_OK(J.client_sync(client, NULL));
    about = server_about(uuid);
    CHECK_MSG(same(about, "local"), "the server's /aboutMe is \"%s\" after the sync", about ? about : "(null)");
    free(about);
    J.client_free(client);
    free(uuid);
    free(email);
}

/* ==== row 3: a refresh whose answer was never saved ================================================= */

typedef struct refresh_job {
    jump_client *client;
    jump_status status;
} refresh_job;

static void *refresh_in_thread(void *arg) {
    refresh_job *job = arg;
    job->status = J.client_refresh_access_token(job->client);
    return NULL;
}

/* Sets the emulator's Capture refresh grace window (an exact replay of a refresh within it gets the same
 * answer) and checks that the emulator knows the setting. */
#define refresh_grace_is(seconds) refresh_grace_is_at(__FILE__, __LINE__, seconds)
static int refresh_grace_is_at(const char *file, int line, int seconds) {
    char body[80];
    long code = 0;
    json_t *reply;
    int ok;
    snprintf(body, sizeof body, "{\"capture_refresh_grace_seconds\":%d}", seconds);
    json_decref(emu_call("POST", "/emulator/settings", body, &code));
    reply = emu_call("GET", "/emulator/settings", NULL, &code);
    ok = json_integer_value(json_object_get(reply, "capture_refresh_grace_seconds")) == seconds;
    json_decref(reply);
    if (!ok)
        harness_fail_plain(file, line, "the emulator has no capture_refresh_grace_seconds setting (GET /emulator/settings): "
                           "rebuild build/bin/jump-emulator");
    return ok;
}

/* Refreshes with the emulator's answer delayed; storage breaks (break_storage(1)) once the server has the
 * request, so the client cannot save what the server answers: what kill -9 between the two leaves. */
static void refresh_while_storage_breaks(jump_client *client, void (*break_storage)(void *ctx, int on), void *ctx) {
    pthread_t thread;
    refresh_job job;
    double deadline;
    job.client = client;
    job.status = JUMP_E_INTERNAL;
    CHECK(emu_clear_counters() == 0);
    CHECK(emu_fault("delay", 1, REFRESH_PATH, 1500) == 0);
    if (!CHECK(pthread_create(&thread, NULL, refresh_in_thread, &job) == 0)) return;
    deadline = now_ms() + 10000;
    while (emu_counter(REFRESH_COUNTER) < 1 && now_ms() < deadline) sleep_ms(5);
    CHECK_MSG(emu_counter(REFRESH_COUNTER) == 1, "the refresh never reached the emulator");
    break_storage(ctx, 1);
    pthread_join(thread, NULL);
    break_storage(ctx, 0);
    harness_note("the refresh with storage failing returned %d (%s)", (int)job.status,
                 harness_status_name(job.status));
    CHECK(emu_clear_faults() == 0);
}

static void host_break(void *ctx, int on) { host_fail_saves(ctx, on); }

static void disk_break(void *ctx, int on) {
    int *ok = ctx;
    if (on)
        *ok = full_disk_begin();
    else
        full_disk_end();
}

TEST(refresh_answer_lost_by_host_storage_still_works_after_restart) {
    host_store *s = host_new();
    jump_config *config;
    jump_client *client;
    char *uuid;
    REQUIRE_EMULATOR();
    refresh_grace_is(30); /* records a failure when the emulator lacks the setting */
    config = host_config(s);
    REQUIRE(config != NULL);
    client = client_from(config);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);

    refresh_while_storage_breaks(client, host_break, s);
    CHECK_MSG(host_failed_saves(s) > 0, "nothing tried to save while the refresh was answered");
    J.client_free(client);

    /* The restart (storage working again) happens well within the 30 s grace window. */
    client = client_from(config);
    if (client != NULL) {
        CHECK_EQ_INT(J.client_is_signed_in(client), 1);
        CHECK_MSG(state_uuid_is(client, uuid), "the restored session is not the user's");
        CHECK_OK(J.client_fetch_record(client));
        CHECK_OK(J.client_fetch_record(client));
        J.client_free(client);
    }
    J.config_free(config);
    host_release(s);
    free(uuid);
}

TEST(refresh_answer_lost_on_a_full_disk_still_works_after_restart) {
    char dir[600];
    jump_client *client;
    char *uuid;
    int full = 0;
    REQUIRE_EMULATOR();
    refresh_grace_is(30); /* records a failure when the emulator lacks the setting */
    new_store_dir(dir, sizeof dir);
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);

    refresh_while_storage_breaks(client, disk_break, &full);
    CHECK_MSG(full, "could not make the disk look full (RLIMIT_FSIZE)");
    J.client_free(client);

    client = new_client(dir, NULL);
    if (client != NULL) {
        CHECK_EQ_INT(J.client_is_signed_in(client), 1);
        CHECK_MSG(state_uuid_is(client, uuid), "the restored session is not the user's");
        CHECK_OK(J.client_fetch_record(client));
        J.client_free(client);
    }
    free(uuid);
}

/* ==== row 4: a sync whose acknowledgement was never saved ============================================== */

TEST(sync_acknowledgement_lost_is_not_a_conflict) {
    char dir[600];
    dir_copy before_sync;
    jump_client *client;
    char *email = NULL, *about;
    char *uuid;
    jump_status status;
    REQUIRE_EMULATOR();
    uuid = create_user("erin", "before", &email);
    REQUIRE(uuid != NULL);
    new_store_dir(dir, sizeof dir);
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, email, TEST_PASSWORD, NULL));
    REQUIRE_OK(set_about(client, "sent once"));
    /* The storage as it was just before the sync: what a process killed after the server answered, before
     * the acknowledgement reached the disk, leaves behind. */
    copy_dir(&before_sync, dir);
    CHECK_OK(J.client_sync(client, NULL));
    J.client_free(client);
    restore_dir(&before_sync, dir);
    free_dir_copy(&before_sync);
    about = server_about(uuid);
    REQUIRE_MSG(same(about, "sent once"), "the sync did not reach the server");
    free(about);

    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    CHECK_MSG(pending(client, ABOUT), "setup: the restored copy has no pending /aboutMe");
    status = J.client_fetch_record(client);
    CHECK_MSG(status == JUMP_OK, "fetch_record returned %d (%s) although the server holds exactly the local value",
              (int)status, harness_status_name(status));
    about = local_about(client);
    CHECK(same(about, "sent once"));
    free(about);
    CHECK_MSG(!pending(client, ABOUT), "/aboutMe is still pending although the server already holds it");
    J.client_free(client);
    free(uuid);
    free(email);
}

/* The same for a plural: the appended element reached the server (which gave it an id) but the
 * acknowledgement did not reach the disk. The restored copy still holds the element under its local id;
 * the fetch must see the server holds it already, not report /photos as changed on both sides. */
TEST(appended_element_whose_acknowledgement_was_lost_is_not_a_conflict) {
    char dir[600];
    dir_copy before_sync;
    jump_client *client;
    jump_record *record = NULL;
    char *email = NULL, *uuid, *path = NULL;
    size_t count = 0;
    jump_status status;
    REQUIRE_EMULATOR();
    uuid = create_user("photo", "before", &email);
    REQUIRE(uuid != NULL);
    new_store_dir(dir, sizeof dir);
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, email, TEST_PASSWORD, NULL));
    REQUIRE_OK(J.client_record(client, &record));
    REQUIRE_OK(J.record_append(record, "/photos", "{\"type\":\"x\",\"value\":\"a.png\"}", &path));
    J.string_free(path);
    J.record_free(record);
    copy_dir(&before_sync, dir);
    CHECK_OK(J.client_sync(client, NULL));
    J.client_free(client);
    restore_dir(&before_sync, dir);
    free_dir_copy(&before_sync);

    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    CHECK_MSG(pending(client, "/photos"), "setup: the restored copy has no pending /photos");
    status = J.client_fetch_record(client);
    CHECK_MSG(status == JUMP_OK, "fetch_record returned %d (%s) although the server holds exactly the local element",
              (int)status, harness_status_name(status));
    CHECK_MSG(!pending(client, "/photos"), "/photos is still pending: a sync would add the photo a second time");
    REQUIRE_OK(J.client_record(client, &record));
    CHECK_OK(J.record_element_count(record, "/photos", &count));
    CHECK_EQ_INT((int)count, 1);
    J.record_free(record);
    J.client_free(client);
    free(uuid);
    free(email);
}

/* Sync with storage failing, restart with it working, fetch: whatever the sync did, nothing conflicts and
 * the state agrees with the server (pending exactly when the server does not hold the value yet). */
static void sync_then_restart_then_fetch(jump_client *(*restart)(void *ctx), void *ctx, jump_client *client,
                                         const char *uuid, void (*break_storage)(void *ctx, int on)) {
    jump_status status;
    char *about;
    int server_has;
    break_storage(ctx, 1);
    status = J.client_sync(client, NULL);
    break_storage(ctx, 0);
    harness_note("jump_client_sync with storage failing returned %d (%s)", (int)status, harness_status_name(status));
    J.client_free(client);
    about = server_about(uuid);
    server_has = same(about, "synced while storage failed");
    free(about);

    client = restart(ctx);
    if (client == NULL) return;
    status = J.client_fetch_record(client);
    CHECK_MSG(status == JUMP_OK, "fetch_record after the restart returned %d (%s)%s", (int)status,
              harness_status_name(status), server_has ? " although the server holds exactly the local value" : "");
    about = local_about(client);
    CHECK_MSG(same(about, "synced while storage failed"), "the edit is gone after the restart: /aboutMe = \"%s\"",
              about ? about : "(null)");
    free(about);
    if (server_has)
        CHECK_MSG(!pending(client, ABOUT), "/aboutMe is still pending although the server already holds it");
    else
        CHECK_MSG(pending(client, ABOUT), "/aboutMe is not pending although the server does not hold it");
    J.client_free(client);
}

typedef struct host_ctx {
    host_store *store;
    jump_config *config;
} host_ctx;

static void host_ctx_break(void *ctx, int on) { host_fail_saves(((host_ctx *)ctx)->store, on); }
static jump_client *host_ctx_restart(void *ctx) { return client_from(((host_ctx *)ctx)->config); }

TEST(sync_acknowledgement_lost_by_host_storage_is_not_a_conflict) {
    host_ctx ctx;
    jump_client *client;
    char *uuid;
    REQUIRE_EMULATOR();
    ctx.store = host_new();
    ctx.config = host_config(ctx.store);
    REQUIRE(ctx.config != NULL);
    client = client_from(ctx.config);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, "{\"aboutMe\":\"before\"}");
    REQUIRE(uuid != NULL);
    REQUIRE_OK(set_about(client, "synced while storage failed"));
    sync_then_restart_then_fetch(host_ctx_restart, &ctx, client, uuid, host_ctx_break);
    J.config_free(ctx.config);
    host_release(ctx.store);
    free(uuid);
}

typedef struct dir_ctx {
    char dir[600];
    int read_only;
} dir_ctx;

static void dir_ctx_break(void *ctx, int on) {
    dir_ctx *d = ctx;
    if (on)
        d->read_only = read_only_begin(d->dir);
    else
        read_only_end(d->dir);
}

static jump_client *dir_ctx_restart(void *ctx) { return new_client(((dir_ctx *)ctx)->dir, NULL); }

TEST(sync_acknowledgement_lost_in_a_read_only_directory_is_not_a_conflict) {
    dir_ctx ctx;
    jump_client *client;
    char *uuid;
    REQUIRE_EMULATOR();
    new_store_dir(ctx.dir, sizeof ctx.dir);
    ctx.read_only = 0;
    client = new_client(ctx.dir, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, "{\"aboutMe\":\"before\"}");
    REQUIRE(uuid != NULL);
    REQUIRE_OK(set_about(client, "synced while storage failed"));
    sync_then_restart_then_fetch(dir_ctx_restart, &ctx, client, uuid, dir_ctx_break);
    CHECK_MSG(ctx.read_only, "could not make the storage directory read-only");
    free(uuid);
}

/* A's unsynced edits must be set aside before B's sign-in replaces A. When the store cannot keep them, B's
 * sign-in is refused (JUMP_E_STORAGE) and A stays signed in with the edits: acknowledged edits are never
 * traded for a sign-in. */
TEST(sign_in_over_unsynced_edits_that_cannot_be_set_aside_is_refused) {
    host_ctx ctx;
    jump_client *client;
    char *a_email = NULL, *b_email = NULL, *a_uuid, *b_uuid, *about;
    jump_status status;
    REQUIRE_EMULATOR();
    a_uuid = create_user("keepa", "before", &a_email);
    b_uuid = create_user("keepb", "b before", &b_email);
    REQUIRE(a_uuid != NULL && b_uuid != NULL);
    ctx.store = host_new();
    ctx.config = host_config(ctx.store);
    REQUIRE(ctx.config != NULL);
    client = client_from(ctx.config);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_sign_in(client, a_email, TEST_PASSWORD, NULL));
    REQUIRE_OK(set_about(client, "A's acknowledged edit"));
    host_fail_saves(ctx.store, 1);
    status = J.client_sign_in(client, b_email, TEST_PASSWORD, NULL);
    host_fail_saves(ctx.store, 0);
    CHECK_MSG(status == JUMP_E_STORAGE, "B's sign-in over A's unsaveable edits returned %d (%s), expected JUMP_E_STORAGE",
              (int)status, harness_status_name(status));
    about = local_about(client);
    CHECK_MSG(same(about, "A's acknowledged edit"), "A's edit is gone from the signed-in record: \"%s\"",
              about ? about : "(null)");
    free(about);
    CHECK(pending(client, ABOUT));
    J.client_free(client);
    /* After a restart A is still there with the edit. */
    client = client_from(ctx.config);
    REQUIRE(client != NULL);
    about = local_about(client);
    CHECK_MSG(same(about, "A's acknowledged edit"), "after a restart A's edit reads \"%s\"", about ? about : "(null)");
    free(about);
    J.client_free(client);
    J.config_free(ctx.config);
    host_release(ctx.store);
    free(a_uuid);
    free(b_uuid);
    free(a_email);
    free(b_email);
}

/* ==== row 5: an edit that cannot be saved is refused =================================================== */

/* With storage failing (break_storage(ctx, 1)), set /aboutMe: JUMP_E_STORAGE and nothing changes. */
static void edit_is_refused(jump_client *client, void (*break_storage)(void *ctx, int on), void *ctx) {
    jump_record *record = NULL;
    jump_status status;
    char *about;
    if (!CHECK_OK(J.client_record(client, &record))) return;
    break_storage(ctx, 1);
    status = J.record_set_string(record, ABOUT, "cannot be saved");
    {
        char *error = strdup(J.error_last());
        int listed;
        about = record_string(record, ABOUT);
        listed = record_has_pending(record, ABOUT);
        break_storage(ctx, 0);
        CHECK_MSG(status == JUMP_E_STORAGE, "jump_record_set_string with storage failing returned %d (%s), expected "
                  "JUMP_E_STORAGE", (int)status, harness_status_name(status));
        if (status != JUMP_E_STORAGE && status != JUMP_OK) harness_note("its error: %s", error ? error : "(NULL)");
        CHECK_MSG(same(about, "before"), "the refused edit was applied: /aboutMe reads \"%s\"",
                  about ? about : "(null)");
        CHECK_MSG(!listed, "the refused edit is listed by jump_record_changes");
        free(error);
    }
    free(about);
    J.record_free(record);
}

/* After the restart (storage working): the old value, nothing pending: no edit silently lost or half kept. */
static void restart_shows_no_edit(jump_client *client) {
    char *about;
    if (client == NULL) return;
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    about = local_about(client);
    CHECK_MSG(same(about, "before"), "after the restart /aboutMe reads \"%s\"", about ? about : "(null)");
    free(about);
    CHECK(!pending(client, ABOUT));
    J.client_free(client);
}

TEST(edit_refused_when_host_storage_cannot_save) {
    host_ctx ctx;
    jump_client *client;
    char *uuid;
    REQUIRE_EMULATOR();
    ctx.store = host_new();
    ctx.config = host_config(ctx.store);
    REQUIRE(ctx.config != NULL);
    client = client_from(ctx.config);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, "{\"aboutMe\":\"before\"}");
    REQUIRE(uuid != NULL);
    edit_is_refused(client, host_ctx_break, &ctx);
    CHECK_MSG(host_failed_saves(ctx.store) > 0, "the edit did not try to save");
    J.client_free(client);
    restart_shows_no_edit(client_from(ctx.config));
    J.config_free(ctx.config);
    host_release(ctx.store);
    free(uuid);
}

TEST(edit_refused_when_storage_directory_is_read_only) {
    dir_ctx ctx;
    jump_client *client;
    char *uuid;
    REQUIRE_EMULATOR();
    new_store_dir(ctx.dir, sizeof ctx.dir);
    ctx.read_only = 0;
    client = new_client(ctx.dir, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, "{\"aboutMe\":\"before\"}");
    REQUIRE(uuid != NULL);
    edit_is_refused(client, dir_ctx_break, &ctx);
    CHECK_MSG(ctx.read_only, "could not make the storage directory read-only");
    J.client_free(client);
    restart_shows_no_edit(new_client(ctx.dir, NULL));
    free(uuid);
}

TEST(edit_refused_when_the_disk_is_full) {
    char dir[600];
    jump_client *client;
    char *uuid;
    int full = 0;
    REQUIRE_EMULATOR();
    new_store_dir(dir, sizeof dir);
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, "{\"aboutMe\":\"before\"}");
    REQUIRE(uuid != NULL);
    edit_is_refused(client, disk_break, &full);
    CHECK_MSG(full, "could not make the disk look full (RLIMIT_FSIZE)");
    J.client_free(client);
    restart_shows_no_edit(new_client(dir, NULL));
    free(uuid);
}
