/*
 * bench_record.c - what a record edit costs: the sync of one changed attribute on records of 10, 1 000 and
 * 100 000 plural elements (client CPU time and bytes sent; the 10-element record is the baseline), and path
 * get/set throughput through libjump vs the same operation done directly on a json_t with jansson.
 *
 * Usage: bench_record LIBJUMP_SO CONFIG_JSON STORAGE_DIR   (JUMP_EMULATOR_URL must be set)
 * Knobs: BENCH_RECORD_SYNCS (syncs per size, default 40), BENCH_RECORD_OPS (get/set calls, default 200000).
 * Prints ROW lines for run.sh's table.
 */
#define _POSIX_C_SOURCE 200809L

#include <curl/curl.h>
#include <dlfcn.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "jump.h"
#include "bench_load.h"
#include "bench_stats.h"

#define JUMP_FUNCTIONS(X)                                                                                 \
    X(error_last) X(string_free) X(config_from_json) X(config_set_string) X(config_free) X(client_new)    \
    X(client_free) X(client_load_flow) X(client_sign_in) X(client_record) X(client_sync) X(record_free)   \
    X(record_set_string) X(record_get_string) X(record_element_paths)

static struct {
#define X(name) __typeof__(&jump_##name) name;
    JUMP_FUNCTIONS(X)
#undef X
} jump;

static const char *emulator;

static void die(const char *what, const char *detail) {
    fprintf(stderr, "bench_record: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

static double cpu_ms(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

/* ---- the emulator's admin API ---------------------------------------------------------------------- */

typedef struct buffer {
    char *data;
    size_t size;
} buffer;

static size_t collect(char *data, size_t size, size_t count, void *userdata) {
    buffer *b = userdata;
    char *grown = realloc(b->data, b->size + size * count + 1);
    if (grown == NULL) return 0;
    memcpy(grown + b->size, data, size * count);
    b->data = grown;
    b->size += size * count;
    b->data[b->size] = 0;
    return size * count;
}

static json_t *admin(const char *method, const char *path, const char *body) {
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    buffer reply = {NULL, 0};
    char url[512];
    json_t *json;
    snprintf(url, sizeof url, "%s%s", emulator, path);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (body != NULL) curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply);
    if (curl_easy_perform(curl) != CURLE_OK) die("admin call failed", path);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    json = json_loads(reply.data ? reply.data : "{}", 0, NULL);
    free(reply.data);
    return json;
}

static long request_bytes(const char *name) {
    json_t *counters = admin("GET", "/emulator/counters", NULL);
    long bytes = (long)json_integer_value(json_object_get(json_object_get(counters, "request_bytes"), name));
    json_decref(counters);
    return bytes;
}

/* A user with `photos` plural elements; returns its email (static buffer). */
static const char *create_user(int photos) {
    static char email[64];
    json_t *record = json_pack("{s:s, s:[]}", "givenName", "Bench", "photos");
    json_t *list = json_object_get(record, "photos"), *body, *reply;
    char *text;
    int i;
    char value[48];
    for (i = 0; i < photos; i++) {
        snprintf(value, sizeof value, "https://example.com/photo-%d.png", i);
        json_array_append_new(list, json_pack("{s:s, s:s}", "type", "other", "value", value));
    }
    snprintf(email, sizeof email, "bench-%d-%ld@example.com", photos, (long)time(NULL));
    body = json_pack("{s:s, s:s, s:o}", "email", email, "password", "bench-password-1", "record", record);
    text = json_dumps(body, JSON_COMPACT);
    reply = admin("POST", "/emulator/users", text);
    if (json_object_get(reply, "user") == NULL) die("could not create the user", text ? "" : "");
    json_decref(reply);
    free(text);
    json_decref(body);
    return email;
}

/* ---- sync cost ------------------------------------------------------------------------------------- */

typedef struct sync_cost {
    double root_cpu_ms, element_cpu_ms;
    double wall_ms; /* median wall time of one set + sync: mostly the emulator's answer */
    long root_bytes, element_bytes;
} sync_cost;

/* Queues a delay fault for the next entity.update (the emulator holds its answer that long). */
static void delay_next_update(int delay_ms) {
    char body[128];
    json_t *reply;
    if (delay_ms <= 0) return;
    snprintf(body, sizeof body, "{\"kind\":\"delay\",\"path\":\"/entity.update\",\"delay_ms\":%d}", delay_ms);
    reply = admin("POST", "/emulator/faults", body);
    json_decref(reply);
}

static jump_client *signed_in_client(const char *config_json, const char *storage, const char *email) {
    jump_config *config = NULL;
    jump_client *client = NULL;
    if (jump.config_from_json(config_json, &config) != JUMP_OK) die("config", jump.error_last());
    jump.config_set_string(config, "storageDirectory", storage);
    if (jump.client_new(config, &client) != JUMP_OK) die("client", jump.error_last());
    jump.config_free(config);
    if (jump.client_load_flow(client) != JUMP_OK) die("flow", jump.error_last());
    if (jump.client_sign_in(client, email, "bench-password-1", NULL) != JUMP_OK) die("sign-in", jump.error_last());
    return client;
}

static sync_cost measure_sync(const char *config_json, const char *storage, int photos, int rounds, int delay_ms) {
    const char *email = create_user(photos);
    jump_client *client = signed_in_client(config_json, storage, email);
    jump_record *record = NULL;
    double *root = calloc((size_t)rounds, sizeof *root), *element = calloc((size_t)rounds, sizeof *element);
    double *walls = calloc((size_t)rounds, sizeof *walls);
    char *paths_text = NULL, path[96], value[32];
    json_t *paths;
    long before;
    sync_cost cost;
    int i;
    if (jump.client_record(client, &record) != JUMP_OK) die("record", jump.error_last());
    if (jump.record_element_paths(record, "/photos", &paths_text) != JUMP_OK) die("paths", jump.error_last());
    paths = json_loads(paths_text, 0, NULL);
    jump.string_free(paths_text);
    snprintf(path, sizeof path, "%s/value", json_string_value(json_array_get(paths, json_array_size(paths) / 2)));
    json_decref(paths);

    before = request_bytes("POST /entity.update");
    for (i = 0; i < rounds; i++) {
        double start, started;
        delay_next_update(delay_ms);
        start = cpu_ms();
        started = now_ms();
        snprintf(value, sizeof value, "about %d", i);
        if (jump.record_set_string(record, "/aboutMe", value) != JUMP_OK) die("set", jump.error_last());
        if (jump.client_sync(client, NULL) != JUMP_OK) die("sync", jump.error_last());
        root[i] = cpu_ms() - start;
        walls[i] = now_ms() - started;
    }
    cost.root_bytes = (request_bytes("POST /entity.update") - before) / rounds;
    before = request_bytes("POST /entity.update");
    for (i = 0; i < rounds; i++) {
        double start;
        delay_next_update(delay_ms);
        start = cpu_ms();
        snprintf(value, sizeof value, "photo %d", i);
        if (jump.record_set_string(record, path, value) != JUMP_OK) die("set element", jump.error_last());
        if (jump.client_sync(client, NULL) != JUMP_OK) die("sync element", jump.error_last());
        element[i] = cpu_ms() - start;
    }
    cost.element_bytes = (request_bytes("POST /entity.update") - before) / rounds;
    cost.root_cpu_ms = median(root, rounds);
    cost.element_cpu_ms = median(element, rounds);
    cost.wall_ms = median(walls, rounds);
    free(walls);
    free(root);
    free(element);
    jump.record_free(record);
    jump.client_free(client);
    return cost;
}

/* ---- get/set throughput ---------------------------------------------------------------------------- */

static void measure_paths(const char *config_json, int ops) {
    const char *email = create_user(1000);
    jump_client *client = signed_in_client(config_json, ":memory:", email);
    jump_record *record = NULL;
    json_t *root, *photos;
    char *text = NULL, *paths_text = NULL, element[96], value[32];
    double start, libjump_get, jansson_get, libjump_set, jansson_set, libjump_el, jansson_el;
    int64_t target;
    size_t k, n;
    int i;
    if (jump.client_record(client, &record) != JUMP_OK) die("record", jump.error_last());
    if (jump.record_element_paths(record, "/photos", &paths_text) != JUMP_OK) die("paths", jump.error_last());
    {
        json_t *paths = json_loads(paths_text, 0, NULL);
        const char *middle = json_string_value(json_array_get(paths, json_array_size(paths) / 2));
        snprintf(element, sizeof element, "%s/value", middle);
        target = atoll(strchr(middle, '#') + 1);
        json_decref(paths);
        jump.string_free(paths_text);
    }
    /* The baseline holds the same record in a json_t, as an app without libjump would. */
    root = json_pack("{s:s, s:n, s:[]}", "givenName", "Bench", "aboutMe", "photos");
    photos = json_object_get(root, "photos");
    for (i = 0; i < 1000; i++)
        json_array_append_new(photos, json_pack("{s:I, s:s}", "id", (json_int_t)(target - 500 + i), "value", "v"));

    start = now_ns();
    for (i = 0; i < ops; i++) {
        if (jump.record_get_string(record, "/givenName", &text) != JUMP_OK) die("get", jump.error_last());
        jump.string_free(text);
    }
    libjump_get = (now_ns() - start) / ops;
    start = now_ns();
    for (i = 0; i < ops; i++) {
        text = strdup(json_string_value(json_object_get(root, "givenName")));
        free(text);
    }
    jansson_get = (now_ns() - start) / ops;

    start = now_ns();
    for (i = 0; i < ops / 10; i++) {
        if (jump.record_get_string(record, element, &text) != JUMP_OK) die("get element", jump.error_last());
        jump.string_free(text);
    }
    libjump_el = (now_ns() - start) / (ops / 10);
    start = now_ns();
    for (i = 0; i < ops / 10; i++) {
        n = json_array_size(photos);
        for (k = 0; k < n; k++) { /* find the element by id, as a hand-written client would */
            json_t *item = json_array_get(photos, k);
            if (json_integer_value(json_object_get(item, "id")) == target) {
                text = strdup(json_string_value(json_object_get(item, "value")));
                free(text);
                break;
            }
        }
    }
    jansson_el = (now_ns() - start) / (ops / 10);

    start = now_ns();
    for (i = 0; i < ops / 10; i++) {
        snprintf(value, sizeof value, "about %d", i);
        if (jump.record_set_string(record, "/aboutMe", value) != JUMP_OK) die("set", jump.error_last());
    }
    libjump_set = (now_ns() - start) / (ops / 10);
    start = now_ns();
    for (i = 0; i < ops / 10; i++) {
        snprintf(value, sizeof value, "about %d", i);
        json_object_set_new(root, "aboutMe", json_string(value));
    }
    jansson_set = (now_ns() - start) / (ops / 10);

    printf("ROW\tRecord paths\tget /givenName (jump_record_get_string)\t%.0f\tns\t"
           "json_object_get + strdup on the same record\t%.0f\t%.1f\t1 000-photo record\n",
           libjump_get, jansson_get, libjump_get / jansson_get);
    printf("ROW\tRecord paths\tget /photos#id/value\t%.0f\tns\tscan the json_t array for the id + strdup\t%.0f\t%.2f\t"
           "element in the middle of 1 000\n", libjump_el, jansson_el, libjump_el / jansson_el);
    printf("ROW\tRecord paths\tset /aboutMe (jump_record_set_string)\t%.0f\tns\tjson_object_set_new\t%.0f\t%.1f\t"
           "includes the change journal (:memory: store)\n", libjump_set, jansson_set, libjump_set / jansson_set);
    json_decref(root);
    jump.record_free(record);
    jump.client_free(client);
}

int main(int argc, char **argv) {
    void *library;
    const char *sizes_env = getenv("BENCH_RECORD_SIZES");
    int sizes[3] = {10, 1000, 100000};
    int rounds = getenv("BENCH_RECORD_SYNCS") ? atoi(getenv("BENCH_RECORD_SYNCS")) : 40;
    int ops = getenv("BENCH_RECORD_OPS") ? atoi(getenv("BENCH_RECORD_OPS")) : 200000;
    sync_cost costs[3], slowed;
    int i, delay;
    if (argc != 4) die("usage", "bench_record LIBJUMP_SO CONFIG_JSON STORAGE_DIR");
    emulator = getenv("JUMP_EMULATOR_URL");
    if (emulator == NULL) die("JUMP_EMULATOR_URL is not set", NULL);
    if (sizes_env != NULL) sscanf(sizes_env, "%d,%d,%d", &sizes[0], &sizes[1], &sizes[2]);
    library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) die("dlopen", dlerror());
    BENCH_LOAD_JUMP(library);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    for (i = 0; i < 3; i++) {
        char storage[512];
        snprintf(storage, sizeof storage, "%s/record-%d", argv[3], sizes[i]);
        fprintf(stderr, "  sync with %d photos...\n", sizes[i]);
        costs[i] = measure_sync(argv[2], storage, sizes[i], rounds, 0);
    }
    /* A client waiting longer for the server burns a little CPU waiting (its poll loop), whatever the record.
     * The emulator answers more slowly for a bigger record, so the fair baseline for the largest record is
     * the smallest one with the emulator's answer delayed to the same time. */
    delay = (int)(costs[2].wall_ms - costs[0].wall_ms + 0.5);
    {
        char storage[512];
        snprintf(storage, sizeof storage, "%s/record-slowed", argv[3]);
        fprintf(stderr, "  sync with %d photos, answers delayed %d ms...\n", sizes[0], delay);
        slowed = measure_sync(argv[2], storage, sizes[0], rounds, delay);
    }
    for (i = 0; i < 3; i++) {
        printf("ROW\tRecord sync\tset /aboutMe + sync, %d photos: client CPU\t%.2f\tms\tsame, 10 photos\t%.2f\t%.2f\t"
               "%ld bytes sent (10 photos: %ld); answer in %.0f ms\n",
               sizes[i], costs[i].root_cpu_ms, costs[0].root_cpu_ms, costs[i].root_cpu_ms / costs[0].root_cpu_ms,
               costs[i].root_bytes, costs[0].root_bytes, costs[i].wall_ms);
    }
    printf("ROW\tRecord sync\tset /aboutMe + sync, %d photos: client CPU\t%.2f\tms\t"
           "10 photos, emulator answer delayed to the same time\t%.2f\t%.2f\tdelay %d ms\n",
           sizes[2], costs[2].root_cpu_ms, slowed.root_cpu_ms, costs[2].root_cpu_ms / slowed.root_cpu_ms, delay);
    for (i = 0; i < 3; i++) {
        printf("ROW\tRecord sync\tset /photos#id/value + sync, %d photos: client CPU\t%.2f\tms\tsame, 10 photos\t%.2f\t"
               "%.2f\t%ld bytes sent (10 photos: %ld)\n",
               sizes[i], costs[i].element_cpu_ms, costs[0].element_cpu_ms,
               costs[i].element_cpu_ms / costs[0].element_cpu_ms, costs[i].element_bytes, costs[0].element_bytes);
    }
    printf("ROW\tRecord sync\tset /photos#id/value + sync, %d photos: client CPU\t%.2f\tms\t"
           "10 photos, emulator answer delayed to the same time\t%.2f\t%.2f\tdelay %d ms\n",
           sizes[2], costs[2].element_cpu_ms, slowed.element_cpu_ms, costs[2].element_cpu_ms / slowed.element_cpu_ms,
           delay);
    fprintf(stderr, "  path get/set throughput...\n");
    measure_paths(argv[2], ops);
    curl_global_cleanup();
    return 0;
}
