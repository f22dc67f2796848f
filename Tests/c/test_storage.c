/* test_storage.c - host storage (jump_config_set_storage): an in-memory key/value store in place of
 * storageDirectory's files: save, restore, sign-out, read/write/erase failures, argument checks and the
 * context's lifetime (context_free exactly once, when no config or client uses it any more). */
#define _GNU_SOURCE /* pthread_getattr_np: is a callback on its thread's own stack? */
#include "harness.h"
#include "support.h"

#include <pthread.h>

#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>

#define UPDATE_COUNTER "POST /entity.update"
#define STORE_MAX 32
#define FREE_WAIT_MS 5000

/* ---- an in-memory host store ------------------------------------------------------------------------ */

typedef struct store_entry {
    char *key;
    char *data;
    size_t length;
} store_entry;

typedef struct mem_store {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    store_entry entries[STORE_MAX];
    int count;
    /* counters */
    int loads, saves, erases, frees;
    int bad_keys;            /* keys that were NULL, empty, long or not printable ASCII */
    int off_thread_stack;    /* calls whose frame was not on the calling thread's own stack */
    pthread_t free_thread;   /* thread of the (last) context_free call */
    /* switches */
    jump_status load_status; /* JUMP_OK: behave; otherwise returned by every load (without calling the sink) */
    int load_skip_sink;      /* load returns JUMP_OK without calling the sink */
    jump_status save_status; /* JUMP_OK: behave; otherwise returned by every save (nothing stored) */
    jump_status erase_status;/* JUMP_OK: behave; otherwise returned by every erase (nothing erased) */
} mem_store;

static mem_store *store_new(void) {
    mem_store *s = calloc(1, sizeof *s);
    if (s == NULL) abort();
    pthread_mutex_init(&s->mutex, NULL);
    pthread_cond_init(&s->cond, NULL);
    return s;
}

static int key_is_short_ascii(const char *key) {
    size_t i, n;
    if (key == NULL) return 0;
    n = strlen(key);
    if (n == 0 || n > 200) return 0;
    for (i = 0; i < n; i++)
        if (key[i] < 0x21 || key[i] > 0x7e || key[i] == '/' || key[i] == '\\') return 0;
    return 1;
}

/* Whether this frame lies on the calling thread's own stack (as pthread knows it), not on a stack libjump
 * switched to: a host runtime finds its threads, and scans their stacks, by those bounds. */
static int on_thread_stack(void) {
    pthread_attr_t attributes;
    void *low = NULL;
    size_t size = 0;
    char here = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 1; /* cannot tell */
    pthread_attr_getstack(&attributes, &low, &size);
    pthread_attr_destroy(&attributes);
    return (char *)&here >= (char *)low && (char *)&here < (char *)low + size;
}

/* Index of key, or -1. Caller holds the mutex. */
static int store_index(mem_store *s, const char *key) {
    int i;
    for (i = 0; i < s->count; i++)
        if (strcmp(s->entries[i].key, key) == 0) return i;
    return -1;
}

static jump_status store_load(void *context, const char *key, jump_storage_sink sink, void *sink_context) {
    mem_store *s = context;
    jump_status status = JUMP_OK;
    char *copy = NULL;
    size_t length = 0;
    int i;
    pthread_mutex_lock(&s->mutex);
    s->loads++;
    if (!on_thread_stack()) s->off_thread_stack++;
    if (!key_is_short_ascii(key)) s->bad_keys++;
    if (s->load_status != JUMP_OK) {
        status = s->load_status;
    } else if (key == NULL || (i = store_index(s, key)) < 0) {
        status = JUMP_E_NOT_FOUND;
    } else if (!s->load_skip_sink) {
        length = s->entries[i].length;
        copy = malloc(length + 1);
        if (copy == NULL) abort();
        memcpy(copy, s->entries[i].data, length);
    }
    pthread_mutex_unlock(&s->mutex);
    /* The sink runs outside the store's lock (it belongs to libjump). */
    if (copy != NULL) {
        sink(sink_context, copy, length);
        /* libjump copied the bytes: scribble over ours to catch a late read. */
        memset(copy, 'X', length);
        free(copy);
    }
    return status;
}

static jump_status store_save(void *context, const char *key, const char *data, size_t length) {
    mem_store *s = context;
    jump_status status;
    int i;
    pthread_mutex_lock(&s->mutex);
    s->saves++;
    if (!on_thread_stack()) s->off_thread_stack++;
    if (!key_is_short_ascii(key)) s->bad_keys++;
    status = s->save_status;
    if (status == JUMP_OK && key != NULL && (data != NULL || length == 0)) {
        char *copy = malloc(length + 1);
        if (copy == NULL) abort();
        if (length > 0) memcpy(copy, data, length);
        copy[length] = '\0';
        i = store_index(s, key);
        if (i < 0 && s->count < STORE_MAX) {
            i = s->count++;
            s->entries[i].key = strdup(key);
            s->entries[i].data = NULL;
        }
        if (i >= 0) {
            free(s->entries[i].data);
            s->entries[i].data = copy;
            s->entries[i].length = length;
        } else {
            free(copy);
            status = JUMP_E_STORAGE;
        }
    } else if (status == JUMP_OK) {
        status = JUMP_E_INVALID_ARGUMENT;
    }
    pthread_mutex_unlock(&s->mutex);
    return status;
}

static jump_status store_erase(void *context, const char *key) {
    mem_store *s = context;
    jump_status status;
    int i;
    pthread_mutex_lock(&s->mutex);
    s->erases++;
    if (!on_thread_stack()) s->off_thread_stack++;
    if (!key_is_short_ascii(key)) s->bad_keys++;
    status = s->erase_status;
    if (status == JUMP_OK && key != NULL && (i = store_index(s, key)) >= 0) {
        free(s->entries[i].key);
        free(s->entries[i].data);
        s->entries[i] = s->entries[--s->count];
    }
    pthread_mutex_unlock(&s->mutex);
    return status;
}

static void store_context_free(void *context) {
    mem_store *s = context;
    pthread_mutex_lock(&s->mutex);
    s->frees++;
    s->free_thread = pthread_self();
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->mutex);
}

#define STORE_GET(s, field) store_get_int(s, &(s)->field)
static int store_get_int(mem_store *s, int *field) {
    int v;
    pthread_mutex_lock(&s->mutex);
    v = *field;
    pthread_mutex_unlock(&s->mutex);
    return v;
}

static void store_set_status(mem_store *s, jump_status *field, jump_status value) {
    pthread_mutex_lock(&s->mutex);
    *field = value;
    pthread_mutex_unlock(&s->mutex);
}

/* Number of entries whose key starts with prefix; the first one's key/data copied out (malloc'd) if asked. */
static int store_find(mem_store *s, const char *prefix, char **key_out, char **data_out) {
    int i, n = 0;
    if (key_out != NULL) *key_out = NULL;
    if (data_out != NULL) *data_out = NULL;
    pthread_mutex_lock(&s->mutex);
    for (i = 0; i < s->count; i++) {
        if (strncmp(s->entries[i].key, prefix, strlen(prefix)) != 0) continue;
        if (n == 0) {
            if (key_out != NULL) *key_out = strdup(s->entries[i].key);
            if (data_out != NULL) *data_out = strdup(s->entries[i].data);
        }
        n++;
    }
    pthread_mutex_unlock(&s->mutex);
    return n;
}

/* Waits until context_free ran at least n times; returns the count. */
static int store_wait_frees(mem_store *s, int n, int timeout_ms) {
    double deadline = now_ms() + timeout_ms;
    int frees;
    pthread_mutex_lock(&s->mutex);
    while (s->frees < n && now_ms() < deadline) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->cond, &s->mutex, &ts);
    }
    frees = s->frees;
    pthread_mutex_unlock(&s->mutex);
    return frees;
}

/* Checks that context_free runs exactly once (waiting for it), then destroys the store. A store whose
 * context_free never ran, or ran twice, is leaked: libjump may still hold it. */
#define store_release(s) store_release_at(__FILE__, __LINE__, s)
static void store_release_at(const char *file, int line, mem_store *s) {
    int frees, i;
    if (s == NULL) return;
    frees = store_wait_frees(s, 1, FREE_WAIT_MS);
    if (frees == 1) {
        sleep_ms(100);
        frees = STORE_GET(s, frees);
    }
    if (frees != 1) {
        harness_fail(file, line, "context_free ran %d times (exactly once expected, waited %d ms)", frees,
                     FREE_WAIT_MS);
        return;
    }
    if (s->bad_keys > 0)
        harness_fail(file, line, "libjump used %d keys that are not short printable ASCII", s->bad_keys);
    for (i = 0; i < s->count; i++) {
        free(s->entries[i].key);
        free(s->entries[i].data);
    }
    pthread_mutex_destroy(&s->mutex);
    pthread_cond_destroy(&s->cond);
    free(s);
}

/* ---- configs and files ------------------------------------------------------------------------------ */

/* A config for the emulator with storageDirectory = dir and the store's callbacks. */
#define storage_config(dir, s) storage_config_at(__FILE__, __LINE__, dir, s)
static jump_config *storage_config_at(const char *file, int line, const char *dir, mem_store *s) {
    char *text = client_config_json(dir, NULL);
    jump_config *config = NULL;
    jump_status status = J.config_from_json(text, &config);
    free(text);
    if (status != JUMP_OK || config == NULL) {
        harness_fail(file, line, "jump_config_from_json returned %d", (int)status);
        return NULL;
    }
    status = J.config_set_storage(config, store_load, store_save, store_erase, s, store_context_free);
    if (status != JUMP_OK) {
        harness_fail(file, line, "jump_config_set_storage returned %d", (int)status);
        J.config_free(config);
        return NULL;
    }
    return config;
}

#define client_from(config) client_from_at(__FILE__, __LINE__, config)
static jump_client *client_from_at(const char *file, int line, jump_config *config) {
    jump_client *client = NULL;
    jump_status status;
    if (config == NULL) return NULL;
    status = J.client_new(config, &client);
    if (status != JUMP_OK || client == NULL) {
        harness_fail(file, line, "jump_client_new returned %d", (int)status);
        return NULL;
    }
    return client;
}

/* Number of regular files under dir (recursively) whose name starts with prefix ("" = any file). */
static int count_files(const char *dir, const char *prefix) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    int n = 0;
    if (d == NULL) return 0;
    while ((entry = readdir(d)) != NULL) {
        char path[1024];
        struct stat st;
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode))
            n += count_files(path, prefix);
        else if (strncmp(entry->d_name, prefix, strlen(prefix)) == 0)
            n++;
    }
    closedir(d);
    return n;
}

static int state_has_object(jump_client *client, const char *key) {
    json_t *state = get_state(client);
    int ok = json_is_object(json_object_get(state, key));
    json_decref(state);
    return ok;
}

static int state_has_null(jump_client *client, const char *key) {
    json_t *state = get_state(client);
    int ok = state != NULL && json_object_get(state, key) != NULL && json_is_null(json_object_get(state, key));
    json_decref(state);
    return ok;
}

static int state_uuid_is(jump_client *client, const char *uuid) {
    json_t *state = get_state(client);
    int ok = uuid != NULL && json_str(state, "uuid") != NULL && strcmp(json_str(state, "uuid"), uuid) == 0;
    json_decref(state);
    return ok;
}

/* Signs a new user in through a client made from config; returns the uuid (malloc'd). */
static char *sign_in_through(jump_config *config, jump_client **keep) {
    jump_client *client = client_from(config);
    char *uuid;
    if (keep != NULL) *keep = NULL;
    if (client == NULL) return NULL;
    uuid = sign_in_new_user(client, NULL, NULL);
    if (keep != NULL && uuid != NULL)
        *keep = client;
    else
        J.client_free(client);
    return uuid;
}

/* ---- tests ------------------------------------------------------------------------------------------ */

TEST(sign_in_saves_the_session_in_host_storage_not_files) {
    mem_store *s = store_new();
    const char *dir = emu_tmpdir();
    jump_config *config;
    jump_client *client;
    char *uuid, *key = NULL, *data = NULL, *flow_key = NULL;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    config = storage_config(dir, s);
    REQUIRE(config != NULL);
    client = client_from(config);
    REQUIRE(client != NULL);
    CHECK_MSG(STORE_GET(s, loads) >= 1, "jump_client_new did not load the session from host storage");
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK(state_has_null(client, "restore_error"));

    CHECK_OK(J.client_load_flow(client));
    CHECK_MSG(store_find(s, "flow-", &flow_key, NULL) == 1, "the flow was not cached in host storage");
    if (flow_key != NULL) CHECK_MSG(strstr(flow_key, ".json") != NULL, "flow key %s", flow_key);

    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    CHECK_MSG(STORE_GET(s, saves) >= 1, "signing in saved nothing to host storage");
    CHECK_MSG(store_find(s, "session-", &key, &data) == 1, "no (or more than one) session entry in host storage");
    if (key != NULL)
        CHECK_MSG(strncmp(key, "session-jump-default-client-", 28) == 0 &&
                      strcmp(key + strlen(key) - 5, ".json") == 0,
                  "unexpected session key %s", key);
    CHECK_MSG(data != NULL && strstr(data, uuid) != NULL, "the saved session does not name the user");
    CHECK_MSG(data == NULL || strstr(data, TEST_PASSWORD) == NULL, "the password was saved");
    CHECK(state_has_null(client, "storage_error"));

    CHECK_MSG(count_files(dir, "session-") == 0, "a session file was written to storageDirectory %s", dir);
    CHECK_MSG(count_files(dir, "") == 0, "%d files were written to storageDirectory %s (host storage set)",
              count_files(dir, ""), dir);
    J.client_free(client);
    J.config_free(config);
    CHECK_MSG(count_files(dir, "session-") == 0, "a session file appeared in storageDirectory after free");
    store_release(s);
    free(uuid);
    free(key);
    free(data);
    free(flow_key);
}

TEST(new_client_restores_from_host_storage_with_unsynced_edit) {
    mem_store *s = store_new();
    const char *dir = emu_tmpdir();
    jump_config *config;
    jump_client *first = NULL, *second;
    jump_record *record = NULL;
    json_t *user;
    char *uuid, *about;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    config = storage_config(dir, s);
    REQUIRE(config != NULL);
    uuid = sign_in_through(config, &first);
    REQUIRE(uuid != NULL);
    REQUIRE_OK(J.client_record(first, &record));
    CHECK_OK(J.record_set_string(record, "/aboutMe", "kept by the host"));
    J.record_free(record);
    record = NULL;
    J.client_free(first);

    second = client_from(config);
    REQUIRE(second != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(second), 1);
    CHECK_MSG(state_uuid_is(second, uuid), "the restored session has another uuid");
    CHECK(state_has_null(second, "restore_error"));
    REQUIRE_OK(J.client_record(second, &record));
    about = record_string(record, "/aboutMe");
    CHECK_STR_EQ(about, "kept by the host");
    free(about);
    CHECK_MSG(record_has_pending(record, "/aboutMe"), "the unsynced edit is not pending after a restart");
    J.record_free(record);

    CHECK(emu_clear_counters() == 0);
    CHECK_OK(J.client_sync(second, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    user = emu_get_user(uuid, NULL);
    CHECK(json_str(user, "aboutMe") && strcmp(json_str(user, "aboutMe"), "kept by the host") == 0);
    json_decref(user);
    J.client_free(second);

    /* The acknowledgement was saved too: a third client has nothing pending. */
    second = client_from(config);
    REQUIRE(second != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(second), 1);
    CHECK_OK(J.client_sync(second, NULL));
    CHECK_EQ_INT(emu_counter(UPDATE_COUNTER), 1);
    J.client_free(second);
    J.config_free(config);
    CHECK_MSG(count_files(dir, "session-") == 0, "a session file was written to storageDirectory %s", dir);
    store_release(s);
    free(uuid);
}

TEST(sign_out_erases_the_host_entry) {
    mem_store *s = store_new();
    jump_config *config;
    jump_client *client = NULL;
    char *uuid;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    config = storage_config(emu_tmpdir(), s);
    REQUIRE(config != NULL);
    uuid = sign_in_through(config, &client);
    REQUIRE(uuid != NULL);
    REQUIRE(store_find(s, "session-", NULL, NULL) == 1);
    CHECK_OK(J.client_sign_out(client));
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK_MSG(STORE_GET(s, erases) >= 1, "sign-out did not call erase");
    CHECK_MSG(store_find(s, "session-", NULL, NULL) == 0, "the session entry is still stored after sign-out");
    CHECK(state_has_null(client, "storage_error"));
    /* Signing out again: erase of a missing key (JUMP_OK from this store) is fine. */
    CHECK_OK(J.client_sign_out(client));
    J.client_free(client);

    client = client_from(config);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK(state_has_null(client, "restore_error"));
    J.client_free(client);
    J.config_free(config);
    store_release(s);
    free(uuid);
}

TEST(erase_statuses_on_sign_out) {
    mem_store *s = store_new();
    jump_config *config;
    jump_client *client = NULL;
    char *uuid;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    config = storage_config(emu_tmpdir(), s);
    REQUIRE(config != NULL);

    /* JUMP_E_NOT_FOUND from erase is a successful erase. */
    uuid = sign_in_through(config, &client);
    REQUIRE(uuid != NULL);
    store_set_status(s, &s->erase_status, JUMP_E_NOT_FOUND);
    CHECK_OK(J.client_sign_out(client));
    CHECK(state_has_null(client, "storage_error"));
    J.client_free(client);
    free(uuid);

    /* Any other status: sign-out reports JUMP_E_STORAGE. */
    store_set_status(s, &s->erase_status, JUMP_OK);
    uuid = sign_in_through(config, &client);
    REQUIRE(uuid != NULL);
    store_set_status(s, &s->erase_status, JUMP_E_STORAGE);
    CHECK_STATUS(J.client_sign_out(client), JUMP_E_STORAGE);
    CHECK_MSG(store_find(s, "session-", NULL, NULL) == 1, "the entry is gone although erase failed");
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK_MSG(state_has_object(client, "storage_error"), "a failed erase left state.storage_error null");
    store_set_status(s, &s->erase_status, JUMP_OK);
    CHECK_OK(J.client_sign_out(client));
    CHECK(state_has_null(client, "storage_error"));
    CHECK_MSG(store_find(s, "session-", NULL, NULL) == 0, "the entry is still stored after a retried sign-out");
    J.client_free(client);
    J.config_free(config);
    store_release(s);
    free(uuid);
}

TEST(load_failure_is_not_signed_out_and_restore_retries) {
    mem_store *s = store_new();
    jump_config *config;
    jump_client *client;
    char *uuid, *token = NULL, *before = NULL, *after = NULL;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    config = storage_config(emu_tmpdir(), s);
    REQUIRE(config != NULL);
    uuid = sign_in_through(config, NULL);
    REQUIRE(uuid != NULL);
    REQUIRE(store_find(s, "session-", NULL, &before) == 1);

    store_set_status(s, &s->load_status, JUMP_E_STORAGE);
    client = client_from(config);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK_MSG(state_has_object(client, "restore_error"), "a failing load was taken for signed out");
    CHECK_STATUS(J.client_access_token(client, &token), JUMP_E_STORAGE);
    if (token != NULL) J.string_free(token);
    token = NULL;
    CHECK_STATUS(J.client_sync(client, NULL), JUMP_E_STORAGE);
    CHECK_STATUS(J.client_fetch_record(client), JUMP_E_STORAGE);
    CHECK_STATUS(J.client_restore(client), JUMP_E_STORAGE);
    CHECK_MSG(state_has_object(client, "restore_error"), "restore_error cleared by a failed restore");
    CHECK_EQ_INT(STORE_GET(s, erases), 0);
    CHECK_MSG(store_find(s, "session-", NULL, &after) == 1 && before != NULL && after != NULL &&
                  strcmp(before, after) == 0,
              "the entry was erased or changed after a failing load");

    store_set_status(s, &s->load_status, JUMP_OK);
    CHECK_OK(J.client_restore(client));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK_MSG(state_uuid_is(client, uuid), "restore brought back another uuid");
    CHECK(state_has_null(client, "restore_error"));
    CHECK_OK(J.client_access_token(client, &token));
    CHECK(token != NULL && token[0] != '\0');
    if (token != NULL) J.string_free(token);
    J.client_free(client);
    J.config_free(config);
    store_release(s);
    free(uuid);
    free(before);
    free(after);
}

TEST(load_ok_without_sink_is_a_storage_error) {
    mem_store *s = store_new();
    jump_config *config;
    jump_client *client;
    char *uuid;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    config = storage_config(emu_tmpdir(), s);
    REQUIRE(config != NULL);
    uuid = sign_in_through(config, NULL);
    REQUIRE(uuid != NULL);

    pthread_mutex_lock(&s->mutex);
    s->load_skip_sink = 1;
    pthread_mutex_unlock(&s->mutex);
    client = client_from(config);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK_MSG(state_has_object(client, "restore_error"), "JUMP_OK without the sink was taken for signed out");
    CHECK_STATUS(J.client_sync(client, NULL), JUMP_E_STORAGE);
    CHECK_STATUS(J.client_restore(client), JUMP_E_STORAGE);
    CHECK_EQ_INT(STORE_GET(s, erases), 0);
    CHECK(store_find(s, "session-", NULL, NULL) == 1);

    pthread_mutex_lock(&s->mutex);
    s->load_skip_sink = 0;
    pthread_mutex_unlock(&s->mutex);
    CHECK_OK(J.client_restore(client));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK(state_uuid_is(client, uuid));
    J.client_free(client);
    J.config_free(config);
    store_release(s);
    free(uuid);
}

TEST(save_failure_is_reported_in_state) {
    mem_store *s = store_new();
    jump_config *config;
    jump_client *client = NULL;
    jump_record *record = NULL;
    char *uuid;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    config = storage_config(emu_tmpdir(), s);
    REQUIRE(config != NULL);
    store_set_status(s, &s->save_status, JUMP_E_STORAGE);
    uuid = sign_in_through(config, &client); /* fails the test if the sign-in itself fails */
    REQUIRE(uuid != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK_MSG(STORE_GET(s, saves) >= 1, "sign-in did not try to save");
    CHECK_MSG(state_has_object(client, "storage_error"), "a failed save left state.storage_error null");
    CHECK(store_find(s, "session-", NULL, NULL) == 0);

    /* The next successful save clears it. */
    store_set_status(s, &s->save_status, JUMP_OK);
    REQUIRE_OK(J.client_record(client, &record));
    CHECK_OK(J.record_set_string(record, "/aboutMe", "saved later"));
    J.record_free(record);
    CHECK(state_has_null(client, "storage_error"));
    CHECK_MSG(store_find(s, "session-", NULL, NULL) == 1, "the session was not saved after the store recovered");
    J.client_free(client);
    J.config_free(config);
    store_release(s);
    free(uuid);
}

TEST(partial_callbacks_are_invalid_and_context_freed_once) {
    struct {
        jump_storage_load_fn load;
        jump_storage_save_fn save;
        jump_storage_erase_fn erase;
    } cases[] = {
        {NULL, store_save, store_erase}, {store_load, NULL, store_erase}, {store_load, store_save, NULL},
        {store_load, NULL, NULL},        {NULL, store_save, NULL},        {NULL, NULL, store_erase},
    };
    size_t i;
    jump_config *config = NULL;
    REQUIRE_OK(J.config_new(&config));
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mem_store *s = store_new();
        CHECK_STATUS(J.config_set_storage(config, cases[i].load, cases[i].save, cases[i].erase, s,
                                          store_context_free),
                     JUMP_E_INVALID_ARGUMENT);
        store_release(s);
    }
    /* A NULL context_free is allowed with partial callbacks too (nothing to call). */
    CHECK_STATUS(J.config_set_storage(config, store_load, NULL, NULL, NULL, NULL), JUMP_E_INVALID_ARGUMENT);
    J.config_free(config);

    /* A bad handle: the error, and context_free still runs once. */
    {
        mem_store *s = store_new();
        CHECK_STATUS2(J.config_set_storage(NULL, store_load, store_save, store_erase, s, store_context_free),
                      JUMP_E_INVALID_HANDLE, JUMP_E_INVALID_ARGUMENT);
        store_release(s);
    }
}

TEST(context_freed_once_after_config_and_clients) {
    mem_store *s = store_new();
    jump_config *config;
    jump_client *a, *b;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    config = storage_config(emu_tmpdir(), s);
    REQUIRE(config != NULL);
    a = client_from(config);
    b = client_from(config);
    REQUIRE(a != NULL && b != NULL);
    J.config_free(config);
    sleep_ms(200);
    CHECK_MSG(STORE_GET(s, frees) == 0, "context_free ran while two clients still use the storage");
    /* The clients still use the store after the config is gone. */
    CHECK_EQ_INT(J.client_is_signed_in(a), 0);
    CHECK_OK(J.client_restore(a));
    J.client_free(a);
    sleep_ms(200);
    CHECK_MSG(STORE_GET(s, frees) == 0, "context_free ran while a client still uses the storage");
    CHECK_OK(J.client_restore(b));
    J.client_free(b);
    CHECK_MSG(store_wait_frees(s, 1, FREE_WAIT_MS) == 1, "context_free did not run after the last client was freed");
    if (STORE_GET(s, frees) == 1) {
        pthread_mutex_lock(&s->mutex);
        if (pthread_equal(s->free_thread, pthread_self()))
            harness_note("context_free ran on the thread that freed the last client");
        pthread_mutex_unlock(&s->mutex);
    }
    store_release(s);
}

TEST(context_freed_once_without_clients) {
    mem_store *s = store_new();
    jump_config *config;
    config = storage_config(emu_tmpdir(), s);
    REQUIRE(config != NULL);
    sleep_ms(100);
    CHECK_MSG(STORE_GET(s, frees) == 0, "context_free ran while the config holds the storage");
    J.config_free(config);
    store_release(s);
}

TEST(replacing_storage_frees_the_old_context_and_null_goes_back_to_files) {
    mem_store *first = store_new(), *second = store_new(), *none = store_new();
    const char *dir = emu_tmpdir();
    jump_config *config;
    jump_client *old_client, *client = NULL;
    char *uuid;
    if (!CHECK_MSG(emu_url() != NULL, "the emulator is not available")) return;
    emu_reset();
    config = storage_config(dir, first);
    REQUIRE(config != NULL);
    old_client = client_from(config); /* keeps `first` alive */
    REQUIRE(old_client != NULL);
    CHECK_OK(J.config_set_storage(config, store_load, store_save, store_erase, second, store_context_free));
    sleep_ms(200);
    CHECK_MSG(STORE_GET(first, frees) == 0, "the replaced context was freed while a client still uses it");
    J.client_free(old_client);
    store_release(first);

    /* A client made now uses `second`. */
    uuid = sign_in_through(config, NULL);
    CHECK(uuid != NULL);
    CHECK_MSG(store_find(second, "session-", NULL, NULL) == 1, "the replacement storage was not used");
    free(uuid);

    /* All NULL: back to files; `second` is released, and the all-NULL call's own context too. */
    CHECK_OK(J.config_set_storage(config, NULL, NULL, NULL, none, store_context_free));
    store_release(second);
    store_release(none);
    CHECK_OK(J.config_set_storage(config, NULL, NULL, NULL, NULL, NULL));
    uuid = sign_in_through(config, &client);
    REQUIRE(uuid != NULL);
    CHECK_MSG(count_files(dir, "session-") == 1, "without host storage the session file is not in %s", dir);
    J.client_free(client);
    client = client_from(config);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK(state_uuid_is(client, uuid));
    J.client_free(client);
    J.config_free(config);
    free(uuid);
}

/* _async operations run on fibers (docs/design-io.md); the host's callbacks must still run on a thread's
 * own stack, where the host's runtime expects them. */
TEST(async_operations_call_host_storage_on_a_thread_stack) {
    mem_store *s = store_new();
    jump_config *config = storage_config(emu_tmpdir(), s);
    jump_client *client = client_from(config);
    jump_request *request = NULL;
    jump_record *record = NULL;
    recorder signed_in, synced, fetched;
    char *email = unique_email("fiberstore");
    char *uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(client != NULL && uuid != NULL);
    recorder_init(&signed_in);
    recorder_init(&synced);
    recorder_init(&fetched);
    REQUIRE_OK(J.client_sign_in_async(client, email, TEST_PASSWORD, recorder_callback, &signed_in, recorder_free, &request));
    CHECK_OK(J.request_wait(request, 15000));
    J.request_free(request);
    REQUIRE_OK(J.client_record(client, &record));
    CHECK_OK(J.record_set_string(record, "/aboutMe", "from a fiber"));
    REQUIRE_OK(J.client_sync_async(client, recorder_callback, &synced, recorder_free, &request));
    CHECK_OK(J.request_wait(request, 15000));
    J.request_free(request);
    REQUIRE_OK(J.client_fetch_record_async(client, recorder_callback, &fetched, recorder_free, &request));
    CHECK_OK(J.request_wait(request, 15000));
    J.request_free(request);
    pthread_mutex_lock(&s->mutex);
    CHECK_MSG(s->saves > 0, "%d saves", s->saves);
    CHECK_MSG(s->off_thread_stack == 0, "%d of %d storage calls ran off their thread's stack", s->off_thread_stack,
              s->loads + s->saves + s->erases);
    pthread_mutex_unlock(&s->mutex);
    J.record_free(record);
    J.client_free(client);
    J.config_free(config);
    CHECK(recorder_wait_frees(&signed_in, 1, 5000) && recorder_wait_frees(&synced, 1, 5000) &&
          recorder_wait_frees(&fetched, 1, 5000));
    recorder_destroy(&signed_in);
    recorder_destroy(&synced);
    recorder_destroy(&fetched);
    free(uuid);
    free(email);
}
