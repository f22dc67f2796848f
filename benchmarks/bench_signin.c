/*
 * bench_signin.c - a full traditional sign-in through libjump vs the same HTTP exchange replayed by hand
 * with libcurl + jansson (what a C app would write without libjump).
 *
 * Usage: bench_signin LIBJUMP_SO CONFIG_JSON       (JUMP_EMULATOR_URL must be set; BENCH_SIGNIN_N iterations)
 * Build: cc -O2 -Iinclude -o build/bench/bench_signin benchmarks/bench_signin.c -lcurl -ljansson -ldl
 *
 * Both sides sign the same user in, one POST /oauth/auth_native_traditional each, over one reused
 * connection, with the flow already known (libjump: downloaded beforehand; by hand: its version read once).
 * The four variants are interleaved so machine noise hits them alike; we report medians.
 * libjump is measured twice: saving the session to disk (what an app does, fsync included) and with
 * storageDirectory ":memory:" (the protocol work alone). The by-hand POST is measured twice too: alone, and
 * followed by saving the answer (json_dumps) durably the way libjump saves its session: a temp file in a
 * directory next to libjump's storageDirectory (same parent, so the same file system), write, fsync, rename
 * over the target, fsync of the directory. Prints ROW lines for run.sh's table.
 */
#define _POSIX_C_SOURCE 200809L

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jump.h"
#include "bench_http.h"
#include "bench_load.h"
#include "bench_stats.h"

#define JUMP_FUNCTIONS(X)                                                                                 \
    X(abi_version) X(error_last) X(string_free) X(config_from_json) X(config_set_string) X(config_free)   \
    X(client_new) X(client_free) X(client_load_flow) X(client_sign_in)

static struct {
#define X(name) __typeof__(&jump_##name) name;
    JUMP_FUNCTIONS(X)
#undef X
} jump;

static void die(const char *what, const char *detail) {
    fprintf(stderr, "bench_signin: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

/* ---------------------------------------------------------------------------------------------------- */
/* libcurl plumbing shared by the setup and the hand-written sign-in.                                   */
/* ---------------------------------------------------------------------------------------------------- */


/* One request on a reused handle (so its connection is reused, as libjump pools its handles);
 * body NULL means GET. Returns the parsed JSON answer (new reference) or dies. */
static json_t *request(CURL *curl, const char *url, const char *content_type, const char *body) {
    struct buffer answer = {NULL, 0};
    struct curl_slist *headers = NULL;
    char content_type_header[128];
    snprintf(content_type_header, sizeof content_type_header, "Content-Type: %s", content_type);
    headers = curl_slist_append(headers, content_type_header);
    headers = curl_slist_append(headers, "Accept: application/json");
    headers = curl_slist_append(headers, "Expect:"); /* as libjump: no 100-continue round trip */
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
    if (body != NULL) curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    if (code != CURLE_OK) die(url, curl_easy_strerror(code));
    json_error_t error;
    json_t *json = json_loadb(answer.data ? answer.data : "", answer.length, 0, &error);
    if (json == NULL) die(url, answer.data ? answer.data : error.text);
    free(answer.data);
    return json;
}


struct replay {
    CURL *curl;
    const char *base_url, *flow_version, *email, *password;
    const char *save_directory, *save_path; /* the durable by-hand save (replay_sign_in with save set) */
};

/* libjump's durable save (FileSessionStore.save), by hand: a temp file next to the target, write, fsync,
 * rename over the target, then open the directory and fsync it, so the rename itself is durable. */
static void durable_save(const char *directory, const char *path, const char *bytes, size_t length) {
    char temporary[1024];
    snprintf(temporary, sizeof temporary, "%s.tmp-%ld-%lu", path, (long)getpid(), (unsigned long)rand());
    int fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) die(temporary, strerror(errno));
    for (size_t offset = 0; offset < length;) {
        ssize_t n = write(fd, bytes + offset, length - offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            die(temporary, strerror(errno));
        }
        offset += (size_t)n;
    }
    if (fsync(fd) != 0) die(temporary, strerror(errno));
    close(fd);
    if (rename(temporary, path) != 0) die(path, strerror(errno));
    int directory_fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory_fd >= 0) {
        fsync(directory_fd);
        close(directory_fd);
    }
}

/* The hand-written sign-in: the parameters libjump sends, the checks libjump makes on the answer. */
static void replay_sign_in(struct replay *r, int save) {
    char body[2048] = "", url[512], secret[41];
    refresh_secret(secret);
    add_parameter(r->curl, body, sizeof body, "client_id", "jump-default-client");
    add_parameter(r->curl, body, sizeof body, "locale", "en-US");
    add_parameter(r->curl, body, sizeof body, "flow", "standard");
    add_parameter(r->curl, body, sizeof body, "flow_version", r->flow_version);
    add_parameter(r->curl, body, sizeof body, "response_type", "token");
    add_parameter(r->curl, body, sizeof body, "redirect_uri", r->base_url);
    add_parameter(r->curl, body, sizeof body, "form", "signInForm");
    add_parameter(r->curl, body, sizeof body, "refresh_secret", secret);
    add_parameter(r->curl, body, sizeof body, "signInEmailAddress", r->email);
    add_parameter(r->curl, body, sizeof body, "currentPassword", r->password);
    snprintf(url, sizeof url, "%s/oauth/auth_native_traditional", r->base_url);
    json_t *answer = request(r->curl, url, "application/x-www-form-urlencoded", body);
    const char *stat = json_string_value(json_object_get(answer, "stat"));
    if (stat == NULL || strcmp(stat, "ok") != 0 || !json_is_string(json_object_get(answer, "access_token")) ||
        !json_is_object(json_object_get(answer, "capture_user")))
        die("hand-written sign-in refused", json_dumps(answer, 0));
    if (save) {
        char *text = json_dumps(answer, JSON_COMPACT);
        if (text == NULL) die("json_dumps", "failed");
        durable_save(r->save_directory, r->save_path, text, strlen(text));
        free(text);
    }
    json_decref(answer);
}

static void jump_sign_in(jump_client *client, const char *email, const char *password) {
    char *result = NULL;
    if (jump.client_sign_in(client, email, password, &result) != JUMP_OK) die("jump_client_sign_in", jump.error_last());
    jump.string_free(result);
}

static jump_client *jump_client_for(const char *config_json, const char *storage_override) {
    jump_config *config = NULL;
    jump_client *client = NULL;
    if (jump.config_from_json(config_json, &config) != JUMP_OK) die("jump_config_from_json", jump.error_last());
    if (storage_override != NULL && jump.config_set_string(config, "storageDirectory", storage_override) != JUMP_OK)
        die("storageDirectory", jump.error_last());
    if (jump.client_new(config, &client) != JUMP_OK) die("jump_client_new", jump.error_last());
    jump.config_free(config);
    /* "flow already cached": the benchmark measures sign-in, not the one-time flow download. */
    if (jump.client_load_flow(client) != JUMP_OK) die("jump_client_load_flow", jump.error_last());
    return client;
}

int main(int argc, char **argv) {
    if (argc != 3) die("usage", "bench_signin LIBJUMP_SO CONFIG_JSON");
    const char *base_url = getenv("JUMP_EMULATOR_URL");
    if (base_url == NULL) die("JUMP_EMULATOR_URL", "not set");
    int iterations = getenv("BENCH_SIGNIN_N") ? atoi(getenv("BENCH_SIGNIN_N")) : 150;
    if (iterations < 1) iterations = 1;

    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) die("dlopen", dlerror());
    BENCH_LOAD_JUMP(library);
    if (jump.abi_version() != JUMP_ABI_VERSION) die("libjump", "ABI version mismatch");

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *curl = curl_easy_init();
    char url[512], email[128], body[512];
    const char *password = "bench-password-1";

    /* The user, made directly through the emulator's admin API (no registration flow to pay for). */
    snprintf(email, sizeof email, "bench.%ld.%ld@example.com", (long)time(NULL), (long)getpid());
    snprintf(body, sizeof body,
             "{\"email\":\"%s\",\"password\":\"%s\",\"record\":{\"givenName\":\"Bench\",\"familyName\":\"Mark\","
             "\"displayName\":\"Bench Mark\"}}", email, password);
    snprintf(url, sizeof url, "%s/emulator/users", base_url);
    json_decref(request(curl, url, "application/json", body));

    /* The flow's version, read once, as libjump reads it from its cached flow. */
    snprintf(url, sizeof url, "%s/widget_data/flows/default-app/standard/HEAD/en-US.json", base_url);
    json_t *flow = request(curl, url, "application/json", NULL);
    const char *version = json_string_value(json_object_get(flow, "version"));
    if (version == NULL) die("the flow has no string version", NULL);
    /* The by-hand save's directory: a sibling of libjump's storageDirectory (same parent, same file system). */
    json_t *config_json = json_loads(argv[2], 0, NULL);
    const char *storage = json_string_value(json_object_get(config_json, "storageDirectory"));
    if (storage == NULL || strcmp(storage, ":memory:") == 0)
        die("CONFIG_JSON", "needs a storageDirectory on disk (the by-hand durable save goes next to it)");
    char save_directory[768], save_path[900];
    snprintf(save_directory, sizeof save_directory, "%s-byhand", storage);
    snprintf(save_path, sizeof save_path, "%s/session-byhand.json", save_directory);
    if (mkdir(save_directory, 0700) != 0 && errno != EEXIST) die(save_directory, strerror(errno));
    json_decref(config_json);
    srand((unsigned)getpid());
    struct replay replay = {curl, base_url, version, email, password, save_directory, save_path};

    jump_client *on_disk = jump_client_for(argv[2], NULL), *in_memory = jump_client_for(argv[2], ":memory:");

    /* Warm-up: first-use costs (connections, lazy initialisation) are not what we measure. */
    for (int i = 0; i < 3; i++) {
        jump_sign_in(on_disk, email, password);
        jump_sign_in(in_memory, email, password);
        replay_sign_in(&replay, 0);
        replay_sign_in(&replay, 1);
    }

    double *disk_ms = calloc((size_t)iterations, sizeof(double));
    double *memory_ms = calloc((size_t)iterations, sizeof(double));
    double *replay_ms = calloc((size_t)iterations, sizeof(double));
    double *saved_ms = calloc((size_t)iterations, sizeof(double));
    for (int i = 0; i < iterations; i++) {
        for (int k = 0; k < 4; k++) { /* rotate the order so none always runs first */
            double start = now_ms();
            switch ((i + k) % 4) {
            case 0: jump_sign_in(on_disk, email, password); disk_ms[i] = now_ms() - start; break;
            case 1: jump_sign_in(in_memory, email, password); memory_ms[i] = now_ms() - start; break;
            case 2: replay_sign_in(&replay, 0); replay_ms[i] = now_ms() - start; break;
            default: replay_sign_in(&replay, 1); saved_ms[i] = now_ms() - start; break;
            }
        }
    }
    double disk = median(disk_ms, iterations), memory = median(memory_ms, iterations);
    double replayed = median(replay_ms, iterations), saved = median(saved_ms, iterations);
    const char *group = "Sign-in (traditional, emulator)";
    const char *baseline = "same POST by hand: libcurl + jansson";
    printf("ROW\t%s\tjump_client_sign_in, session saved to disk\t%.3f\tms\t%s\t%.3f\t%.2f\t%+.3f ms, N=%d\n", group,
           disk, baseline, replayed, disk / replayed, disk - replayed, iterations);
    printf("ROW\t%s\tjump_client_sign_in, session saved to disk\t%.3f\tms\t%s\t%.3f\t%.2f\t%+.3f ms, N=%d\n", group,
           disk, "same POST by hand + the same durable save (tmp, fsync, rename, fsync dir)", saved, disk / saved,
           disk - saved, iterations);
    printf("ROW\t%s\tjump_client_sign_in, storageDirectory :memory:\t%.3f\tms\t%s\t%.3f\t%.2f\t%+.3f ms, N=%d\n",
           group, memory, baseline, replayed, memory / replayed, memory - replayed, iterations);

    /* The by-hand save is only a baseline: leave nothing of it behind. */
    unlink(save_path);
    rmdir(save_directory);

    /* The on-disk client's session stays saved: run.sh's cold-start and FFI benchmarks restore it. */
    jump.client_free(on_disk);
    jump.client_free(in_memory);
    json_decref(flow);
    curl_easy_cleanup(curl);
    free(disk_ms);
    free(memory_ms);
    free(replay_ms);
    free(saved_ms);
    return 0;
}
