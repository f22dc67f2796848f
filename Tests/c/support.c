/* support.c - see support.h. */
#include "support.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- JSON ---------------------------------------------------------------------------------------------- */

json_t *json_parse(const char *text) {
    if (text == NULL) return NULL;
    return json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
}

const char *json_str(json_t *object, const char *key) {
    json_t *value = json_object_get(object, key);
    return json_is_string(value) ? json_string_value(value) : NULL;
}

int json_array_has_string(json_t *array, const char *value) {
    size_t i;
    for (i = 0; i < json_array_size(array); i++) {
        json_t *item = json_array_get(array, i);
        if (json_is_string(item) && strcmp(json_string_value(item), value) == 0) return 1;
    }
    return 0;
}

json_t *take_json(char *text) {
    json_t *json = json_parse(text);
    if (text != NULL) J.string_free(text);
    return json;
}

/* ---- clients --------------------------------------------------------------------------------------------- */

char *client_config_json(const char *storage_dir, const char *extra_members) {
    const char *url = emu_url();
    json_t *config = json_object();
    json_object_set_new(config, "captureDomain", json_string(url != NULL ? url : "http://127.0.0.1:9"));
    json_object_set_new(config, "captureFlowDomain", json_string(url != NULL ? url : "http://127.0.0.1:9"));
    json_object_set_new(config, "captureClientId", json_string("jump-default-client"));
    json_object_set_new(config, "captureAppId", json_string("default-app"));
    json_object_set_new(config, "captureFlowName", json_string("standard"));
    json_object_set_new(config, "captureLocale", json_string("en-US"));
    json_object_set_new(config, "storageDirectory", json_string(storage_dir != NULL ? storage_dir : emu_tmpdir()));
    return json_text_with_members(config, extra_members, "client_config_json");
}

char *json_text_with_members(json_t *object, const char *members, const char *who) {
    char *text;
    if (members != NULL) {
        json_error_t error;
        json_t *more = json_loads(members, 0, &error);
        if (!json_is_object(more)) {
            fprintf(stderr, "%s: bad members %s: %s\n", who, members, error.text);
            exit(2);
        }
        json_object_update(object, more);
        json_decref(more);
    }
    text = json_dumps(object, JSON_COMPACT);
    json_decref(object);
    return text;
}

jump_client *new_client_at(const char *file, int line, const char *storage_dir, const char *extra) {
    char *text = client_config_json(storage_dir, extra);
    jump_config *config = NULL;
    jump_client *client = NULL;
    jump_status status = J.config_from_json(text, &config);
    if (status != JUMP_OK) {
        support_fail(file, line, "jump_config_from_json(%s) returned %d", text, (int)status);
        free(text);
        return NULL;
    }
    if (config == NULL) {
        support_fail(file, line, "jump_config_from_json returned JUMP_OK but no config");
        free(text);
        return NULL;
    }
    status = J.client_new(config, &client);
    if (status != JUMP_OK) support_fail(file, line, "jump_client_new(%s) returned %d", text, (int)status);
    if (status == JUMP_OK && client == NULL) support_fail(file, line, "jump_client_new returned JUMP_OK but no client");
    J.config_free(config);
    free(text);
    return status == JUMP_OK ? client : NULL;
}

json_t *client_state_at(const char *file, int line, jump_client *client) {
    char *text = NULL;
    json_t *state;
    jump_status status = J.client_state(client, &text);
    if (status != JUMP_OK) {
        support_fail(file, line, "jump_client_state returned %d", (int)status);
        return NULL;
    }
    state = json_parse(text);
    if (!json_is_object(state)) support_fail(file, line, "jump_client_state gave no JSON object: %s", text);
    J.string_free(text);
    return state;
}

char *unique_email(const char *tag) {
    static int counter;
    char buffer[200];
    snprintf(buffer, sizeof buffer, "%s-%ld-%d-%ld@example.com", tag, (long)getpid(), ++counter,
             (long)time(NULL) % 100000);
    return strdup(buffer);
}

jump_status sign_in_status(const char *email, const char *password) {
    jump_client *client = new_client(NULL, NULL);
    char *out = NULL;
    jump_status status;
    if (client == NULL) return JUMP_E_INTERNAL;
    status = J.client_sign_in(client, email, password, &out);
    J.string_free(out);
    J.client_free(client);
    return status;
}

char *sign_in_new_user_at(const char *file, int line, jump_client *client, char **email_out,
                          const char *record_json) {
    char *email = unique_email("user");
    char *uuid = emu_create_user(email, TEST_PASSWORD, record_json);
    char *result = NULL;
    jump_status status;
    json_t *summary;
    if (email_out != NULL) *email_out = NULL;
    if (uuid == NULL) {
        support_fail(file, line, "the emulator did not create user %s", email);
        free(email);
        return NULL;
    }
    status = J.client_sign_in(client, email, TEST_PASSWORD, &result);
    if (status != JUMP_OK) {
        support_fail(file, line, "jump_client_sign_in(%s) returned %d", email, (int)status);
        free(email);
        free(uuid);
        return NULL;
    }
    summary = take_json(result);
    if (json_str(summary, "uuid") == NULL || strcmp(json_str(summary, "uuid"), uuid) != 0)
        support_fail(file, line, "sign-in result uuid %s, the emulator says %s",
                     json_str(summary, "uuid") ? json_str(summary, "uuid") : "(none)", uuid);
    json_decref(summary);
    if (email_out != NULL)
        *email_out = email;
    else
        free(email);
    return uuid;
}

char *record_string(jump_record *record, const char *path) {
    char *value = NULL, *copy;
    if (J.record_get_string(record, path, &value) != JUMP_OK || value == NULL) return NULL;
    copy = strdup(value);
    J.string_free(value);
    return copy;
}

/* ---- callbacks --------------------------------------------------------------------------------------- */

void recorder_init(recorder *r) {
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mutex, NULL);
    pthread_cond_init(&r->cond, NULL);
}

void recorder_destroy(recorder *r) {
    int i;
    for (i = 0; i < r->payload_count; i++) free(r->payloads[i]);
    free(r->payloads);
    r->payloads = NULL;
    r->payload_count = r->payload_capacity = 0;
}

void recorder_callback(void *userdata, const char *json) {
    recorder *r = userdata;
    char *copy = strdup(json != NULL ? json : "(NULL)");
    pthread_mutex_lock(&r->mutex);
    r->active++;
    if (r->active > r->max_active) r->max_active = r->active;
    r->last_thread = pthread_self();
    if (r->payload_count == r->payload_capacity) {
        int capacity = r->payload_capacity ? r->payload_capacity * 2 : 16;
        char **grown = realloc(r->payloads, (size_t)capacity * sizeof *grown);
        if (grown != NULL) {
            r->payloads = grown;
            r->payload_capacity = capacity;
        }
    }
    if (r->payload_count < r->payload_capacity)
        r->payloads[r->payload_count++] = copy;
    else
        free(copy);
    pthread_mutex_unlock(&r->mutex);

    if (r->hold_ms > 0) sleep_ms(r->hold_ms);
    if (r->hook != NULL) r->hook(r, json);

    pthread_mutex_lock(&r->mutex);
    r->active--;
    r->calls++;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->mutex);
}

void recorder_free(void *userdata) {
    recorder *r = userdata;
    pthread_mutex_lock(&r->mutex);
    r->frees++;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->mutex);
}

static int wait_for(recorder *r, const int *counter, int n, int timeout_ms) {
    struct timespec deadline;
    int reached;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&r->mutex);
    while (*counter < n) {
        if (pthread_cond_timedwait(&r->cond, &r->mutex, &deadline) == ETIMEDOUT) break;
    }
    reached = *counter >= n;
    pthread_mutex_unlock(&r->mutex);
    return reached;
}

int recorder_wait_calls(recorder *r, int n, int timeout_ms) { return wait_for(r, &r->calls, n, timeout_ms); }
int recorder_wait_frees(recorder *r, int n, int timeout_ms) { return wait_for(r, &r->frees, n, timeout_ms); }

int recorder_calls(recorder *r) {
    int n;
    pthread_mutex_lock(&r->mutex);
    n = r->calls;
    pthread_mutex_unlock(&r->mutex);
    return n;
}

int recorder_frees(recorder *r) {
    int n;
    pthread_mutex_lock(&r->mutex);
    n = r->frees;
    pthread_mutex_unlock(&r->mutex);
    return n;
}

int recorder_count(recorder *r) {
    int n;
    pthread_mutex_lock(&r->mutex);
    n = r->payload_count;
    pthread_mutex_unlock(&r->mutex);
    return n;
}

json_t *recorder_payload(recorder *r, int i) {
    json_t *json = NULL;
    pthread_mutex_lock(&r->mutex);
    if (i >= 0 && i < r->payload_count) json = json_parse(r->payloads[i]);
    pthread_mutex_unlock(&r->mutex);
    return json;
}

int recorder_find(recorder *r, int from, const char *key, const char *value) {
    int i, n = recorder_count(r);
    for (i = from < 0 ? 0 : from; i < n; i++) {
        json_t *payload = recorder_payload(r, i);
        const char *s = json_str(payload, key);
        int match = s != NULL && strcmp(s, value) == 0;
        json_decref(payload);
        if (match) return i;
    }
    return -1;
}

int recorder_contains(recorder *r, const char *needle) {
    int i, found = 0;
    pthread_mutex_lock(&r->mutex);
    for (i = 0; i < r->payload_count && !found; i++) found = strstr(r->payloads[i], needle) != NULL;
    pthread_mutex_unlock(&r->mutex);
    return found;
}

void sleep_ms(int ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* ---- files ----------------------------------------------------------------------------------------------- */

char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    size_t used = 0, capacity = 0, n;
    if (f == NULL) return NULL;
    for (;;) {
        if (used + 4096 + 1 > capacity) {
            char *grown;
            capacity = capacity ? capacity * 2 : 8192;
            grown = realloc(data, capacity);
            if (grown == NULL) break;
            data = grown;
        }
        n = fread(data + used, 1, capacity - used - 1, f);
        used += n;
        if (n == 0) break;
    }
    fclose(f);
    if (data == NULL) return NULL;
    data[used] = '\0';
    if (size != NULL) *size = used;
    return data;
}

int write_file(const char *path, const char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    int ok;
    if (f == NULL) return -1;
    ok = fwrite(data, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    return ok ? 0 : -1;
}

static int memory_contains(const char *data, size_t size, const char *needle) {
    size_t n = strlen(needle), i;
    if (n == 0 || size < n) return 0;
    for (i = 0; i + n <= size; i++)
        if (data[i] == needle[0] && memcmp(data + i, needle, n) == 0) return 1;
    return 0;
}

int tree_contains(const char *dir, const char *needle) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    int found = 0;
    if (d == NULL) return 0;
    while (!found && (entry = readdir(d)) != NULL) {
        char path[1024];
        struct stat st;
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            found = tree_contains(path, needle);
        } else if (S_ISREG(st.st_mode)) {
            size_t size = 0;
            char *data = read_file(path, &size);
            if (data != NULL) found = memory_contains(data, size, needle);
            free(data);
        }
    }
    closedir(d);
    return found;
}

int record_has_pending(jump_record *record, const char *path) {
    char *text = NULL;
    json_t *changes;
    int found;
    if (J.record_changes(record, &text) != JUMP_OK) return 0;
    changes = take_json(text);
    found = json_array_has_string(json_object_get(changes, "changed"), path);
    json_decref(changes);
    return found;
}

json_t *error_detail(void) { return json_parse(J.error_last()); }

json_t *invalid_field(const char *key) {
    json_t *detail = error_detail();
    json_t *messages = json_object_get(json_object_get(detail, "invalid_fields"), key);
    if (messages != NULL) json_incref(messages);
    json_decref(detail);
    return messages;
}

int non_empty_string_array(json_t *array) {
    size_t i;
    if (!json_is_array(array) || json_array_size(array) == 0) return 0;
    for (i = 0; i < json_array_size(array); i++) {
        json_t *item = json_array_get(array, i);
        if (!json_is_string(item) || json_string_length(item) == 0) return 0;
    }
    return 1;
}
