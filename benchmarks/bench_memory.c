/*
 * bench_memory.c - peak memory of a sign-in whose answer is large: jump_client_sign_in receiving a ~31 MiB
 * auth_native_traditional answer (a valid one: stat ok, access_token, capture_user with a 100 000-element
 * plural), with the session saved to disk, against the answer's own size (goal: growth <= 3x), and against
 * the same POST done by hand with libcurl + json_loadb (+ json_dump_file of the record, as an app saving it).
 *
 * Usage: bench_memory LIBJUMP_SO CONFIG_JSON STORAGE_DIR   (CONFIG_JSON's captureFlowDomain serves the flow)
 * Knobs: BENCH_MEMORY_N (fresh processes per side, default 3; medians), BENCH_MEMORY_ELEMENTS (plural
 * elements, default 100000), BENCH_MEMORY_MIB (answer size, default 31). BENCH_MEMORY_INLINE=libjump (or
 * by-hand) runs that side once in this process and prints no ROW: for valgrind --tool=massif or heaptrack.
 *
 * The answer comes from Tests/c/tiny_server.h in a server process of its own, so the measured processes
 * never hold it. Each measurement is a fresh child: peak RSS (VmHWM) is reset just before the call
 * ("5" > /proc/self/clear_refs) and read right after it; growth = VmHWM after - VmHWM at the reset.
 * Prints ROW lines for run.sh's table.
 */
#define _POSIX_C_SOURCE 200809L

#include <curl/curl.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jump.h"
#include "bench_load.h"
#include "bench_stats.h"
#include "tiny_server.h"

#define JUMP_FUNCTIONS(X)                                                                                 \
    X(abi_version) X(error_last) X(string_free) X(config_from_json) X(config_set_string)                  \
    X(config_set_int) X(config_free) X(client_new) X(client_free) X(client_load_flow) X(client_sign_in)

static struct {
#define X(name) __typeof__(&jump_##name) name;
    JUMP_FUNCTIONS(X)
#undef X
} jump;

#define MIB ((size_t)1 << 20)
#define UUID "8aa03698-dc6c-4a53-bbd1-10cdbeae2496"
#define EMAIL "memory@example.com"
#define PASSWORD "bench-password-1"

static void die(const char *what, const char *detail) {
    fprintf(stderr, "bench_memory: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

/* ---- the answer and its server (a process of its own) ------------------------------------------------ */

static char *answer;
static size_t answer_length;

/* A sign-in answer shaped like the emulator's (docs/emulator.md, auth_native_traditional): the record's
 * usual attributes and `elements` photos, each padded so that the whole text is about `bytes` long. */
static void build_answer(size_t bytes, long elements) {
    static const char head[] =
        "{\"access_token\":\"pSwg6FSuA46E8d_XtC3D0mliUH5lRQ4Q7Eabo3aKHnU\",\"capture_user\":{\"aboutMe\":null,"
        "\"birthday\":null,\"created\":\"2026-11-25 18:49:55.296330 +0000\",\"displayName\":\"Memory Bench\","
        "\"email\":\"" EMAIL "\",\"emailVerified\":null,\"familyName\":\"Bench\",\"gender\":null,"
        "\"givenName\":\"Memory\",\"id\":1,\"lastUpdated\":\"2026-11-25 18:49:55.296330 +0000\",\"middleName\":null,"
        "\"name\":{\"formatted\":null,\"honorificPrefix\":null,\"honorificSuffix\":null},"
        "\"password\":{\"type\":\"password-bcrypt\"},\"photos\":[";
    static const char tail[] =
        "],\"primaryAddress\":{\"address1\":null,\"address2\":null,\"city\":null,\"country\":null,\"phone\":null,"
        "\"stateAbbreviation\":null,\"zip\":null},\"profiles\":[],\"statuses\":[],\"username\":null,"
        "\"uuid\":\"" UUID "\"},\"expires_in\":3600,\"is_new\":false,\"stat\":\"ok\"}";
    size_t room = bytes - (sizeof head - 1) - (sizeof tail - 1), per = room / (size_t)elements, used;
    long i;
    answer = malloc(bytes + 256);
    if (answer == NULL || bytes < sizeof head + sizeof tail + 128 || per < 80) die("answer", "too small or no memory");
    memcpy(answer, head, sizeof head - 1);
    used = sizeof head - 1;
    for (i = 0; i < elements; i++) {
        /* {"id":N,"type":"other","value":"https://example.com/photos/N-xxx...x.png"} + ",", per bytes in all */
        int n = snprintf(answer + used, 128, "%s{\"id\":%ld,\"type\":\"other\",\"value\":\"https://example.com/photos/%ld-",
                         i ? "," : "", i + 1, i + 1);
        size_t pad = per - (size_t)n - 7; /* .png"} */
        memset(answer + used + n, 'x', pad);
        memcpy(answer + used + n + pad, ".png\"}", 6);
        used += (size_t)n + pad + 6;
    }
    memcpy(answer + used, tail, sizeof tail - 1);
    answer_length = used + sizeof tail - 1;
    answer[answer_length] = '\0';
}

static void answer_handler(tiny_server *server, const tiny_request *request, int fd) {
    (void)server;
    if (strcmp(request->path, "/oauth/auth_native_traditional") != 0) {
        tiny_respond_json(fd, 404, "{\"stat\":\"error\",\"code\":404,\"error\":\"not_found\",\"error_description\":\"no\"}");
        return;
    }
    tiny_respond(fd, 200, "application/json", answer, answer_length);
}

/* Forks the server process; returns its pid and fills url and the answer's length. */
static pid_t start_server(size_t bytes, long elements, char url[64], size_t *length) {
    int channel[2];
    pid_t pid;
    char message[128];
    ssize_t n;
    pid_t parent = getpid();
    if (pipe(channel) != 0) die("pipe", strerror(errno));
    pid = fork();
    if (pid < 0) die("fork", strerror(errno));
    if (pid == 0) {
        tiny_server server;
        close(channel[0]);
        build_answer(bytes, elements);
        if (tiny_start(&server, answer_handler, NULL) != 0) _exit(1);
        n = snprintf(message, sizeof message, "%s %lu\n", server.url, (unsigned long)answer_length);
        if (write(channel[1], message, (size_t)n) != n) _exit(1);
        close(channel[1]);
        while (getppid() == parent) sleep(1); /* until the parent's SIGTERM, or its death (a die()) */
        _exit(0);
    }
    close(channel[1]);
    n = read(channel[0], message, sizeof message - 1);
    close(channel[0]);
    if (n <= 0) die("the answer server did not start", NULL);
    message[n] = '\0';
    {
        unsigned long answered = 0;
        if (sscanf(message, "%63s %lu", url, &answered) != 2) die("the answer server said", message);
        *length = answered;
    }
    return pid;
}

/* ---- peak RSS ---------------------------------------------------------------------------------------- */

/* A "VmXXX:" line of /proc/self/status in KiB, or -1. */
static long status_kib(const char *field) {
    char text[4096], *line;
    long kib = -1;
    int fd = open("/proc/self/status", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
    if (fd >= 0) close(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    line = strstr(text, field);
    if (line != NULL) kib = strtol(line + strlen(field), NULL, 10);
    return kib;
}

/* Resets VmHWM to the current RSS (Linux >= 4.0); dies when it cannot (the figure would be meaningless). */
static void reset_peak_rss(void) {
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    int ok = fd >= 0 && write(fd, "5", 1) == 1;
    if (fd >= 0) close(fd);
    if (!ok) die("/proc/self/clear_refs", "cannot reset the peak RSS");
}

typedef struct sample {
    long growth_kib, start_kib, peak_kib;
    double ms;
    long saved_bytes; /* the session file libjump wrote, or the record file the baseline wrote */
} sample;

/* Runs measure(arg) in a fresh child and returns what it reported through a pipe. */
static sample in_child(sample (*measure)(const void *), const void *arg) {
    int channel[2], status;
    sample s;
    pid_t pid;
    if (pipe(channel) != 0) die("pipe", strerror(errno));
    fflush(NULL);
    pid = fork();
    if (pid < 0) die("fork", strerror(errno));
    if (pid == 0) {
        close(channel[0]);
        s = measure(arg);
        if (write(channel[1], &s, sizeof s) != (ssize_t)sizeof s) _exit(1);
        _exit(0);
    }
    close(channel[1]);
    if (read(channel[0], &s, sizeof s) != (ssize_t)sizeof s) die("a measuring child failed", NULL);
    close(channel[0]);
    waitpid(pid, &status, 0);
    return s;
}

static long largest_file(const char *dir, const char *prefix) {
    DIR *d = opendir(dir);
    struct dirent *e;
    long largest = -1;
    char path[1024];
    struct stat st;
    if (d == NULL) return -1;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && st.st_size > largest) largest = (long)st.st_size;
    }
    closedir(d);
    return largest;
}

/* ---- the two sides ----------------------------------------------------------------------------------- */

typedef struct setup {
    const char *library, *config_json, *server_url, *storage;
} setup;

static sample libjump_side(const void *arg) {
    const setup *s = arg;
    void *library = dlopen(s->library, RTLD_NOW | RTLD_LOCAL);
    jump_config *config = NULL;
    jump_client *client = NULL;
    char *result = NULL;
    sample out;
    double start;
    if (library == NULL) die("dlopen", dlerror());
    BENCH_LOAD_JUMP(library);
    if (jump.abi_version() != JUMP_ABI_VERSION) die("libjump", "ABI version mismatch");
    if (jump.config_from_json(s->config_json, &config) != JUMP_OK) die("jump_config_from_json", jump.error_last());
    if (jump.config_set_string(config, "captureDomain", s->server_url) != JUMP_OK ||
        jump.config_set_string(config, "storageDirectory", s->storage) != JUMP_OK ||
        jump.config_set_int(config, "maxResponseBytes", (int64_t)64 << 20) != JUMP_OK ||
        jump.config_set_int(config, "requestTimeoutMs", 300000) != JUMP_OK)
        die("jump_config_set_*", jump.error_last());
    if (jump.client_new(config, &client) != JUMP_OK) die("jump_client_new", jump.error_last());
    jump.config_free(config);
    /* The flow from captureFlowDomain (the emulator): only the sign-in answer is large. */
    if (jump.client_load_flow(client) != JUMP_OK) die("jump_client_load_flow", jump.error_last());
    reset_peak_rss();
    out.start_kib = status_kib("VmHWM:");
    start = now_ms();
    if (jump.client_sign_in(client, EMAIL, PASSWORD, &result) != JUMP_OK) die("jump_client_sign_in", jump.error_last());
    out.ms = now_ms() - start;
    out.peak_kib = status_kib("VmHWM:");
    out.growth_kib = out.peak_kib - out.start_kib;
    jump.string_free(result);
    out.saved_bytes = largest_file(s->storage, "session-");
    return out;
}

struct buffer {
    char *data;
    size_t length, capacity;
};

static size_t collect(char *data, size_t size, size_t count, void *userdata) {
    struct buffer *b = userdata;
    size_t n = size * count;
    if (b->length + n + 1 > b->capacity) { /* doubling, as a careful hand-written client grows its buffer */
        size_t capacity = b->capacity ? b->capacity : 16384;
        char *grown;
        while (b->length + n + 1 > capacity) capacity *= 2;
        grown = realloc(b->data, capacity);
        if (grown == NULL) return 0;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, data, n);
    b->length += n;
    b->data[b->length] = '\0';
    return n;
}

/* The same POST by hand: libcurl into a growing buffer, json_loadb, the checks libjump makes, and the record
 * written to a file with json_dump_file (the app's "saved session"). */
static sample baseline_side(const void *arg) {
    const setup *s = arg;
    struct buffer body = {NULL, 0, 0};
    char url[512], path[1024];
    const char *form = "client_id=jump-default-client&locale=en-US&flow=standard&response_type=token"
                       "&form=signInForm&signInEmailAddress=memory%40example.com&currentPassword=" PASSWORD;
    json_t *json;
    json_error_t error;
    const char *stat;
    CURL *curl;
    CURLcode code;
    sample out;
    double start;
    struct curl_slist *headers = curl_slist_append(NULL, "Expect:");
    curl_global_init(CURL_GLOBAL_DEFAULT);
    curl = curl_easy_init();
    snprintf(url, sizeof url, "%s/oauth/auth_native_traditional", s->server_url);
    snprintf(path, sizeof path, "%s/record.json", s->storage);
    mkdir(s->storage, 0700);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, form);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    reset_peak_rss();
    out.start_kib = status_kib("VmHWM:");
    start = now_ms();
    code = curl_easy_perform(curl);
    if (code != CURLE_OK) die(url, curl_easy_strerror(code));
    json = json_loadb(body.data, body.length, JSON_REJECT_DUPLICATES, &error);
    if (json == NULL) die("json_loadb", error.text);
    free(body.data);
    stat = json_string_value(json_object_get(json, "stat"));
    if (stat == NULL || strcmp(stat, "ok") != 0 || !json_is_string(json_object_get(json, "access_token")) ||
        !json_is_object(json_object_get(json, "capture_user")))
        die("the answer", "is not a sign-in answer");
    if (json_dump_file(json_object_get(json, "capture_user"), path, JSON_COMPACT) != 0) die(path, "not written");
    out.ms = now_ms() - start;
    out.peak_kib = status_kib("VmHWM:");
    out.growth_kib = out.peak_kib - out.start_kib;
    out.saved_bytes = largest_file(s->storage, "record");
    json_decref(json);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return out;
}

static int by_growth(const void *a, const void *b) {
    long x = ((const sample *)a)->growth_kib, y = ((const sample *)b)->growth_kib;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = getenv("BENCH_MEMORY_N") ? atoi(getenv("BENCH_MEMORY_N")) : 3;
    long elements = getenv("BENCH_MEMORY_ELEMENTS") ? atol(getenv("BENCH_MEMORY_ELEMENTS")) : 100000;
    size_t bytes = (getenv("BENCH_MEMORY_MIB") ? (size_t)atol(getenv("BENCH_MEMORY_MIB")) : 31) * MIB;
    char url[64], storage[1024], baseline_storage[1024];
    size_t length = 0;
    sample *mine, *theirs, m, t;
    setup jump_setup, hand_setup;
    double answer_mib, mine_mib, theirs_mib, mine_ms, theirs_ms;
    pid_t server;
    int i, status;
    if (argc != 4) die("usage", "bench_memory LIBJUMP_SO CONFIG_JSON STORAGE_DIR");
    if (rounds < 1) rounds = 1;
    if (elements < 1) elements = 1;
    server = start_server(bytes, elements, url, &length);
    mkdir(argv[3], 0700);
    if (getenv("BENCH_MEMORY_INLINE") != NULL) {
        int by_hand = strcmp(getenv("BENCH_MEMORY_INLINE"), "by-hand") == 0;
        snprintf(storage, sizeof storage, "%s/inline-%s", argv[3], by_hand ? "by-hand" : "libjump");
        jump_setup.library = argv[1];
        jump_setup.config_json = argv[2];
        jump_setup.server_url = url;
        jump_setup.storage = storage;
        m = by_hand ? baseline_side(&jump_setup) : libjump_side(&jump_setup);
        fprintf(stderr, "%s: peak RSS +%ld KiB (%ld -> %ld) in %.0f ms; answer %lu bytes; saved %ld bytes\n",
                by_hand ? "by hand" : "libjump", m.growth_kib, m.start_kib, m.peak_kib, m.ms, (unsigned long)length,
                m.saved_bytes);
        kill(server, SIGTERM);
        waitpid(server, &status, 0);
        return 0;
    }
    mine = calloc((size_t)rounds, sizeof *mine);
    theirs = calloc((size_t)rounds, sizeof *theirs);
    for (i = 0; i < rounds; i++) {
        snprintf(storage, sizeof storage, "%s/libjump-%d", argv[3], i);
        snprintf(baseline_storage, sizeof baseline_storage, "%s/by-hand-%d", argv[3], i);
        jump_setup.library = hand_setup.library = argv[1];
        jump_setup.config_json = hand_setup.config_json = argv[2];
        jump_setup.server_url = hand_setup.server_url = url;
        jump_setup.storage = storage;
        hand_setup.storage = baseline_storage;
        fprintf(stderr, "  round %d/%d: libjump...\n", i + 1, rounds);
        mine[i] = in_child(libjump_side, &jump_setup);
        fprintf(stderr, "  round %d/%d: by hand...\n", i + 1, rounds);
        theirs[i] = in_child(baseline_side, &hand_setup);
        fprintf(stderr, "    libjump +%ld KiB in %.0f ms (saved %ld bytes); by hand +%ld KiB in %.0f ms\n",
                mine[i].growth_kib, mine[i].ms, mine[i].saved_bytes, theirs[i].growth_kib, theirs[i].ms);
    }
    kill(server, SIGTERM);
    waitpid(server, &status, 0);
    {
        double *times = calloc((size_t)rounds * 2, sizeof *times);
        for (i = 0; i < rounds; i++) {
            times[i] = mine[i].ms;
            times[rounds + i] = theirs[i].ms;
        }
        mine_ms = median(times, rounds);
        theirs_ms = median(times + rounds, rounds);
        free(times);
    }
    qsort(mine, (size_t)rounds, sizeof *mine, by_growth);
    qsort(theirs, (size_t)rounds, sizeof *theirs, by_growth);
    m = mine[rounds / 2];
    t = theirs[rounds / 2];
    answer_mib = (double)length / MIB;
    mine_mib = m.growth_kib / 1024.0;
    theirs_mib = t.growth_kib / 1024.0;
    printf("ROW\tMemory (sign-in, %.0f MiB answer)\tpeak RSS growth in jump_client_sign_in, session saved to disk\t"
           "%.1f\tMiB\tthe answer's size (goal: <= 3x)\t%.1f\t%.1f\t%ld-element plural; %.0f ms; session file %.1f MiB; "
           "N=%d\n",
           answer_mib, mine_mib, answer_mib, mine_mib / answer_mib, elements, mine_ms, m.saved_bytes / (double)MIB,
           rounds);
    printf("ROW\tMemory (sign-in, %.0f MiB answer)\tpeak RSS growth in jump_client_sign_in, session saved to disk\t"
           "%.1f\tMiB\tsame POST by hand: libcurl + json_loadb + json_dump_file\t%.1f\t%.1f\tby hand: %.1fx the answer, "
           "%.0f ms\n",
           answer_mib, mine_mib, theirs_mib, mine_mib / theirs_mib, theirs_mib / answer_mib, theirs_ms);
    free(mine);
    free(theirs);
    return 0;
}
