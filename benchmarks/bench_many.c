/*
 * bench_many.c - 1 000 clients in one process, all at once ("One I/O loop", docs/design-io.md): libjump's _async API
 * against the same HTTP requests sent by hand through ONE libcurl multi handle.
 *
 * Usage: bench_many LIBJUMP_SO   (JUMP_EMULATOR_URL must be set; BENCH_MANY_CLIENTS clients, default 1000;
 *                                BENCH_MANY_N rounds, default 3; BENCH_MANY_HOST_CONNECTIONS caps the by-hand
 *                                side's connections to the emulator, default 0: no cap, libcurl's default)
 * run.sh gives it an emulator of its own with --db :memory: (so the emulator's SQLite fsyncs, one per session
 * and per write, are not what 1 000 clients at once measure; and its 1 000 users slow no other benchmark).
 * Build: cc -O2 -Iinclude -o build/bench/bench_many benchmarks/bench_many.c -lcurl -ljansson -ldl -lpthread
 *
 * Every client has its own user (made once, directly through the emulator's admin API, POST /emulator/users)
 * and storageDirectory ":memory:". Three phases, each started for every client at once, each waited for to
 * the last completion:
 *   1. sign-in:  libjump: jump_client_sign_in_async. By hand: what libjump sends for it on a client that has
 *                no flow yet: GET <flow domain>/widget_data/flows/default-app/standard/HEAD/en-US.json (its
 *                "version" read with jansson), then POST /oauth/auth_native_traditional (client_id, locale,
 *                flow, flow_version, response_type, redirect_uri, form, refresh_secret, signInEmailAddress,
 *                currentPassword), the answer checked as libjump checks it (stat ok, access_token, capture_user).
 *   2. sync:     libjump: jump_record_set_string("/aboutMe") then jump_client_sync_async (one entity.update).
 *                By hand: POST /entity.update (access_token, attributes={"aboutMe":..}), stat ok.
 *   3. fetch:    libjump: jump_client_fetch_record_async. By hand: POST /entity (access_token), stat ok and the
 *                value synced in phase 2 read back from result.
 * (The request log of the emulator and a logging proxy showed these exact requests; docs/protocol.md 6.1, 8.3,
 * 8.4, 9.1.) The by-hand side drives every transfer from one thread with curl_multi_perform/curl_multi_poll,
 * the flow GET and the sign-in POST of a client chained on the same easy handle, with libcurl's defaults (no
 * cap on connections unless BENCH_MANY_HOST_CONNECTIONS; libjump's timeouts).
 * Connections: the users are made on a multi handle of their own, closed before the first round, so round 1
 * starts with no connection open on either side. After that each side keeps what it keeps: the by-hand multi
 * handle lives for the whole run with its connection cache, as a process-wide loop's would; libjump keeps
 * whatever its own pool keeps (a new client of a thread-per-call libjump opens new connections).
 * libjump's completions are callbacks (one libjump thread for all clients); the callback parses the payload
 * with jansson and checks its status (and sync's "changed"). Client creation and the final read-back checks
 * are outside the timed phases.
 *
 * Reported per side: the wall time of the three phases (median of BENCH_MANY_N rounds, the two sides in
 * alternating order), and the peak thread count over the count just before phase 1 (a sampler thread reads
 * /proc/self/task every 5 ms; it is part of both baselines). Also the machine-wide TcpExt ListenOverflows
 * (connections the emulator's accept queue dropped: each costs its client a SYN retransmit, 1 s or more).
 * Prints ROW lines for run.sh's table.
 */
#define _POSIX_C_SOURCE 200809L

#include <curl/curl.h>
#include <dirent.h>
#include <dlfcn.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "jump.h"
#include "bench_http.h"
#include "bench_load.h"
#include "bench_stats.h"

#define JUMP_FUNCTIONS(X)                                                                                 \
    X(abi_version) X(error_last) X(string_free) X(config_from_json) X(config_set_string) X(config_free)   \
    X(client_new) X(client_free) X(client_sign_in_async) X(client_sync_async) X(client_fetch_record_async) \
    X(client_record) X(record_set_string) X(record_get_string) X(record_free)

BENCH_JUMP_TABLE;
BENCH_DIE("bench_many");

static const char *password = "bench-many-password-1";
static const char *base_url;
static int clients;

struct user {
    char email[96];
    char value[64]; /* the /aboutMe this round's phase 2 writes */
};
static struct user *users;

/* ---------------------------------------------------------------------------------------------------- */
/* Threads: a sampler reading /proc/self/task every 5 ms, and the machine's listen-queue overflows.      */
/* ---------------------------------------------------------------------------------------------------- */

static pthread_mutex_t sample_lock = PTHREAD_MUTEX_INITIALIZER;
static int sampling = 1, peak_threads;

static int count_threads(void) {
    DIR *directory = opendir("/proc/self/task");
    if (directory == NULL) return 0;
    int count = 0;
    for (struct dirent *entry; (entry = readdir(directory)) != NULL;)
        if (entry->d_name[0] != '.') count++;
    closedir(directory);
    return count;
}

static void *sampler(void *unused) {
    (void)unused;
    struct timespec interval = {0, 5 * 1000 * 1000};
    for (;;) {
        int threads = count_threads();
        pthread_mutex_lock(&sample_lock);
        int go_on = sampling;
        if (threads > peak_threads) peak_threads = threads;
        pthread_mutex_unlock(&sample_lock);
        if (!go_on) return NULL;
        nanosleep(&interval, NULL);
    }
}

/* Starts a new peak from the current count; returns that count (the baseline). */
static int mark_threads(void) {
    int threads = count_threads();
    pthread_mutex_lock(&sample_lock);
    peak_threads = threads;
    pthread_mutex_unlock(&sample_lock);
    return threads;
}

static int read_peak_threads(void) {
    int threads = count_threads(); /* the sampler may have missed the last 5 ms */
    pthread_mutex_lock(&sample_lock);
    if (threads > peak_threads) peak_threads = threads;
    threads = peak_threads;
    pthread_mutex_unlock(&sample_lock);
    return threads;
}

/* TcpExt ListenOverflows (machine-wide), or -1. */
static long listen_overflows(void) {
    FILE *file = fopen("/proc/net/netstat", "r");
    if (file == NULL) return -1;
    char names[4096], values[4096];
    long found = -1;
    while (found < 0 && fgets(names, sizeof names, file) && fgets(values, sizeof values, file)) {
        if (strncmp(names, "TcpExt:", 7) != 0) continue;
        char *name_save = NULL, *value_save = NULL;
        char *name = strtok_r(names, " \n", &name_save), *value = strtok_r(values, " \n", &value_save);
        while (name && value) {
            if (strcmp(name, "ListenOverflows") == 0) found = atol(value);
            name = strtok_r(NULL, " \n", &name_save);
            value = strtok_r(NULL, " \n", &value_save);
        }
    }
    fclose(file);
    return found;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The by-hand side: one multi handle, one easy handle per client, every transfer of a phase at once.   */
/* ---------------------------------------------------------------------------------------------------- */


enum step { STEP_ADMIN, STEP_FLOW, STEP_SIGN_IN, STEP_UPDATE, STEP_FETCH };

struct transfer {
    CURL *easy;
    int client;
    enum step step;
    struct buffer answer;
    struct curl_slist *headers;
    char *body; /* NULL: GET */
    char flow_version[64];
    char access_token[128];
};

static CURLM *multi;
static struct transfer *transfers;
static int outstanding;


/* Starts t's next request (body NULL: GET) on its easy handle, on the multi handle. */
static void start(struct transfer *t, enum step step, const char *path, const char *content_type, char *body) {
    char url[512], content_type_header[128];
    snprintf(url, sizeof url, "%s%s", base_url, path);
    free(t->body);
    free(t->answer.data);
    curl_slist_free_all(t->headers);
    t->step = step;
    t->body = body;
    t->answer.data = NULL;
    t->answer.length = 0;
    t->headers = curl_slist_append(NULL, "Accept: application/json");
    t->headers = curl_slist_append(t->headers, "Expect:"); /* as libjump: no 100-continue round trip */
    t->headers = curl_slist_append(t->headers, "User-Agent: libjump-bench-by-hand");
    if (content_type != NULL) {
        snprintf(content_type_header, sizeof content_type_header, "Content-Type: %s", content_type);
        t->headers = curl_slist_append(t->headers, content_type_header);
    }
    curl_easy_reset(t->easy);
    curl_easy_setopt(t->easy, CURLOPT_URL, url);
    curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t);
    curl_easy_setopt(t->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(t->easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(t->easy, CURLOPT_HTTPHEADER, t->headers);
    curl_easy_setopt(t->easy, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, &t->answer);
    curl_easy_setopt(t->easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L); /* libjump's defaults */
    curl_easy_setopt(t->easy, CURLOPT_TIMEOUT_MS, 30000L);
    if (body != NULL) curl_easy_setopt(t->easy, CURLOPT_POSTFIELDS, body);
    CURLMcode code = curl_multi_add_handle(multi, t->easy);
    if (code != CURLM_OK) die("curl_multi_add_handle", curl_multi_strerror(code));
    outstanding++;
}

static void start_sign_in(struct transfer *t) {
    char secret[41], *body = malloc(2048);
    if (body == NULL) die("malloc", "sign-in body");
    body[0] = '\0';
    refresh_secret(secret);
    add_parameter(t->easy, body, 2048, "client_id", "jump-default-client");
    add_parameter(t->easy, body, 2048, "locale", "en-US");
    add_parameter(t->easy, body, 2048, "flow", "standard");
    add_parameter(t->easy, body, 2048, "flow_version", t->flow_version);
    add_parameter(t->easy, body, 2048, "response_type", "token");
    add_parameter(t->easy, body, 2048, "redirect_uri", base_url);
    add_parameter(t->easy, body, 2048, "form", "signInForm");
    add_parameter(t->easy, body, 2048, "refresh_secret", secret);
    add_parameter(t->easy, body, 2048, "signInEmailAddress", users[t->client].email);
    add_parameter(t->easy, body, 2048, "currentPassword", password);
    start(t, STEP_SIGN_IN, "/oauth/auth_native_traditional", "application/x-www-form-urlencoded", body);
}

static void start_step(struct transfer *t, enum step step) {
    struct user *u = &users[t->client];
    char *body = malloc(1024), attributes[256];
    if (body == NULL) die("malloc", "body");
    body[0] = '\0';
    switch (step) {
    case STEP_ADMIN:
        snprintf(body, 1024, "{\"email\":\"%s\",\"password\":\"%s\"}", u->email, password);
        start(t, step, "/emulator/users", "application/json", body);
        break;
    case STEP_FLOW:
        free(body);
        start(t, step, "/widget_data/flows/default-app/standard/HEAD/en-US.json", NULL, NULL);
        break;
    case STEP_UPDATE:
        snprintf(attributes, sizeof attributes, "{\"aboutMe\":\"%s\"}", u->value);
        add_parameter(t->easy, body, 1024, "access_token", t->access_token);
        add_parameter(t->easy, body, 1024, "attributes", attributes);
        start(t, step, "/entity.update", "application/x-www-form-urlencoded", body);
        break;
    case STEP_FETCH:
        add_parameter(t->easy, body, 1024, "access_token", t->access_token);
        start(t, step, "/entity", "application/x-www-form-urlencoded", body);
        break;
    default:
        die("start_step", "unexpected step");
    }
}

/* A transfer finished: check its answer as libjump would, and chain the flow GET to the sign-in POST. */
static void finished(struct transfer *t, CURLcode result) {
    outstanding--;
    if (result != CURLE_OK) die("by hand: transfer failed", curl_easy_strerror(result));
    long status = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    json_error_t error;
    json_t *answer = json_loadb(t->answer.data ? t->answer.data : "", t->answer.length, 0, &error);
    if (answer == NULL) die("by hand: unreadable answer", t->answer.data ? t->answer.data : error.text);
    const char *stat = json_string_value(json_object_get(answer, "stat"));
    int ok = 1;
    switch (t->step) {
    case STEP_ADMIN:
        ok = status == 201 && json_is_object(json_object_get(answer, "user"));
        break;
    case STEP_FLOW: {
        const char *version = json_string_value(json_object_get(answer, "version"));
        ok = version != NULL && strlen(version) < sizeof t->flow_version;
        if (ok) {
            strcpy(t->flow_version, version);
            start_sign_in(t);
        }
        break;
    }
    case STEP_SIGN_IN: {
        const char *token = json_string_value(json_object_get(answer, "access_token"));
        ok = stat != NULL && strcmp(stat, "ok") == 0 && token != NULL && strlen(token) < sizeof t->access_token &&
             json_is_object(json_object_get(answer, "capture_user"));
        if (ok) strcpy(t->access_token, token);
        break;
    }
    case STEP_UPDATE:
        ok = stat != NULL && strcmp(stat, "ok") == 0;
        break;
    case STEP_FETCH: {
        const char *about = json_string_value(json_object_get(json_object_get(answer, "result"), "aboutMe"));
        ok = stat != NULL && strcmp(stat, "ok") == 0 && about != NULL && strcmp(about, users[t->client].value) == 0;
        break;
    }
    }
    if (!ok) die("by hand: answer refused", t->answer.data);
    json_decref(answer);
}

/* Starts `step` for every client at once, then drives the multi handle until every transfer is done. */
static void by_hand_phase(enum step step) {
    for (int i = 0; i < clients; i++) start_step(&transfers[i], step);
    while (outstanding > 0) {
        int running = 0;
        CURLMcode code = curl_multi_perform(multi, &running);
        if (code != CURLM_OK) die("curl_multi_perform", curl_multi_strerror(code));
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left)) != NULL) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            CURLcode result = message->data.result;
            struct transfer *t = NULL;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&t);
            curl_multi_remove_handle(multi, easy);
            finished(t, result); /* may add the handle again (flow GET -> sign-in POST) */
        }
        if (outstanding > 0 && running > 0) {
            code = curl_multi_poll(multi, NULL, 0, 1000, NULL);
            if (code != CURLM_OK) die("curl_multi_poll", curl_multi_strerror(code));
        }
    }
}

/* ---------------------------------------------------------------------------------------------------- */
/* The libjump side: _async calls with a completion callback, counted down to the last one.              */
/* ---------------------------------------------------------------------------------------------------- */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int remaining;
    int failures;
    char first_failure[1024];
    int check_changed; /* sync: the result must say {"changed":["/aboutMe"]} */
} phase = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, "", 0};

static void on_completion(void *userdata, const char *payload) {
    (void)userdata;
    json_t *json = json_loads(payload, 0, NULL);
    json_int_t status = json_integer_value(json_object_get(json, "status"));
    int ok = json != NULL && json_is_integer(json_object_get(json, "status")) && status == 0;
    if (ok && phase.check_changed) {
        json_t *changed = json_object_get(json_object_get(json, "result"), "changed");
        const char *first = json_string_value(json_array_get(changed, 0));
        ok = json_array_size(changed) == 1 && first != NULL && strcmp(first, "/aboutMe") == 0;
    }
    json_decref(json);
    pthread_mutex_lock(&phase.lock);
    if (!ok && phase.failures++ == 0) snprintf(phase.first_failure, sizeof phase.first_failure, "%s", payload);
    if (--phase.remaining == 0) pthread_cond_signal(&phase.done);
    pthread_mutex_unlock(&phase.lock);
}

static void wait_for_phase(const char *what) {
    pthread_mutex_lock(&phase.lock);
    while (phase.remaining > 0) pthread_cond_wait(&phase.done, &phase.lock);
    int failures = phase.failures;
    pthread_mutex_unlock(&phase.lock);
    if (failures > 0) {
        fprintf(stderr, "bench_many: libjump: %d of %d %s failed\n", failures, clients, what);
        die("first failure", phase.first_failure);
    }
}

static void begin_phase(int check_changed) {
    pthread_mutex_lock(&phase.lock);
    phase.remaining = clients;
    phase.failures = 0;
    phase.first_failure[0] = '\0';
    phase.check_changed = check_changed;
    pthread_mutex_unlock(&phase.lock);
}

/* One libjump round: clients made (untimed), the three phases timed, the edits read back (untimed). */
static void libjump_round(double phase_ms[3], int *extra_threads) {
    const char *settings[][2] = {{"captureDomain", base_url}, {"captureFlowDomain", base_url},
                                 {"captureClientId", "jump-default-client"}, {"captureAppId", "default-app"},
                                 {"captureFlowName", "standard"}, {"captureLocale", "en-US"},
                                 {"storageDirectory", ":memory:"}};
    jump_config *config = NULL;
    if (jump.config_from_json("{}", &config) != JUMP_OK) die("jump_config_from_json", jump.error_last());
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
        if (jump.config_set_string(config, settings[i][0], settings[i][1]) != JUMP_OK)
            die(settings[i][0], jump.error_last());
    jump_client **handles = calloc((size_t)clients, sizeof *handles);
    if (handles == NULL) die("calloc", "clients");
    for (int i = 0; i < clients; i++)
        if (jump.client_new(config, &handles[i]) != JUMP_OK) die("jump_client_new", jump.error_last());
    jump.config_free(config);

    int base_threads = mark_threads();
    double start = now_ms();
    begin_phase(0);
    for (int i = 0; i < clients; i++) /* a failure to start still calls back: counted there */
        jump.client_sign_in_async(handles[i], users[i].email, password, on_completion, NULL, NULL, NULL);
    wait_for_phase("sign-ins");
    double signed_in = now_ms();

    begin_phase(1);
    for (int i = 0; i < clients; i++) {
        jump_record *record = NULL;
        if (jump.client_record(handles[i], &record) != JUMP_OK) die("jump_client_record", jump.error_last());
        if (jump.record_set_string(record, "/aboutMe", users[i].value) != JUMP_OK)
            die("jump_record_set_string", jump.error_last());
        jump.record_free(record);
        jump.client_sync_async(handles[i], on_completion, NULL, NULL, NULL);
    }
    wait_for_phase("syncs");
    double synced = now_ms();

    begin_phase(0);
    for (int i = 0; i < clients; i++) jump.client_fetch_record_async(handles[i], on_completion, NULL, NULL, NULL);
    wait_for_phase("fetches");
    double fetched = now_ms();
    *extra_threads = read_peak_threads() - base_threads;
    phase_ms[0] = signed_in - start;
    phase_ms[1] = synced - signed_in;
    phase_ms[2] = fetched - synced;

    for (int i = 0; i < clients; i++) {
        jump_record *record = NULL;
        char *about = NULL;
        if (jump.client_record(handles[i], &record) != JUMP_OK ||
            jump.record_get_string(record, "/aboutMe", &about) != JUMP_OK)
            die("read back /aboutMe", jump.error_last());
        if (about == NULL || strcmp(about, users[i].value) != 0) die("libjump: fetched /aboutMe differs", about);
        jump.string_free(about);
        jump.record_free(record);
        jump.client_free(handles[i]);
    }
    free(handles);
}

static void by_hand_round(double phase_ms[3], int *extra_threads) {
    int base_threads = mark_threads();
    double start = now_ms();
    by_hand_phase(STEP_FLOW); /* chains the sign-in POST */
    double signed_in = now_ms();
    by_hand_phase(STEP_UPDATE);
    double synced = now_ms();
    by_hand_phase(STEP_FETCH); /* checks the value read back */
    double fetched = now_ms();
    *extra_threads = read_peak_threads() - base_threads;
    phase_ms[0] = signed_in - start;
    phase_ms[1] = synced - signed_in;
    phase_ms[2] = fetched - synced;
}

static void set_values(int round, const char *side) {
    for (int i = 0; i < clients; i++) snprintf(users[i].value, sizeof users[i].value, "r%d %s %d", round, side, i);
}

static int max_int(const int *values, int count) {
    int m = values[0];
    for (int i = 1; i < count; i++)
        if (values[i] > m) m = values[i];
    return m;
}

int main(int argc, char **argv) {
    if (argc != 2) die("usage", "bench_many LIBJUMP_SO");
    base_url = getenv("JUMP_EMULATOR_URL");
    if (base_url == NULL) die("JUMP_EMULATOR_URL", "not set");
    clients = getenv("BENCH_MANY_CLIENTS") ? atoi(getenv("BENCH_MANY_CLIENTS")) : 1000;
    int rounds = getenv("BENCH_MANY_N") ? atoi(getenv("BENCH_MANY_N")) : 3;
    long host_connections = getenv("BENCH_MANY_HOST_CONNECTIONS") ? atol(getenv("BENCH_MANY_HOST_CONNECTIONS")) : 0;
    if (clients < 1) clients = 1;
    if (rounds < 1) rounds = 1;

    /* Two thousand sockets or more at once: lift the soft descriptor limit to the hard one. */
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }

    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) die("dlopen", dlerror());
    BENCH_LOAD_JUMP(library);
    if (jump.abi_version() != JUMP_ABI_VERSION) die("libjump", "ABI version mismatch");

    curl_global_init(CURL_GLOBAL_DEFAULT);
    multi = curl_multi_init();
    if (host_connections > 0) curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, host_connections);
    users = calloc((size_t)clients, sizeof *users);
    transfers = calloc((size_t)clients, sizeof *transfers);
    if (users == NULL || transfers == NULL) die("calloc", "clients");
    for (int i = 0; i < clients; i++) {
        snprintf(users[i].email, sizeof users[i].email, "many.%ld.%ld.%d@example.com", (long)time(NULL),
                 (long)getpid(), i);
        transfers[i].client = i;
        if ((transfers[i].easy = curl_easy_init()) == NULL) die("curl_easy_init", NULL);
    }
    pthread_t sampler_thread;
    if (pthread_create(&sampler_thread, NULL, sampler, NULL) != 0) die("pthread_create", "sampler");

    /* The users, through the admin API, all at once on a multi handle of their own: its connections are closed
     * with it, so neither side starts its first round with connections open. */
    CURLM *measured = multi;
    multi = curl_multi_init();
    double made = now_ms();
    by_hand_phase(STEP_ADMIN);
    fprintf(stderr, "bench_many: %d users made in %.0f ms\n", clients, now_ms() - made);
    curl_multi_cleanup(multi);
    multi = measured;

    double *jump_ms = calloc((size_t)rounds, sizeof(double)), *hand_ms = calloc((size_t)rounds, sizeof(double));
    double *jump_phase[3], *hand_phase[3];
    for (int p = 0; p < 3; p++) {
        jump_phase[p] = calloc((size_t)rounds, sizeof(double));
        hand_phase[p] = calloc((size_t)rounds, sizeof(double));
    }
    int *jump_threads = calloc((size_t)rounds, sizeof(int)), *hand_threads = calloc((size_t)rounds, sizeof(int));
    long jump_overflows = 0, hand_overflows = 0;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) { /* alternate which side goes first */
            double ms[3];
            long before = listen_overflows();
            if ((r + k) % 2 == 0) {
                set_values(r, "libjump");
                libjump_round(ms, &jump_threads[r]);
                for (int p = 0; p < 3; p++) jump_phase[p][r] = ms[p];
                jump_ms[r] = ms[0] + ms[1] + ms[2];
                jump_overflows += listen_overflows() - before;
                fprintf(stderr, "bench_many: round %d libjump: %.0f ms (%.0f / %.0f / %.0f), +%d threads\n", r + 1,
                        jump_ms[r], ms[0], ms[1], ms[2], jump_threads[r]);
            } else {
                set_values(r, "by-hand");
                by_hand_round(ms, &hand_threads[r]);
                for (int p = 0; p < 3; p++) hand_phase[p][r] = ms[p];
                hand_ms[r] = ms[0] + ms[1] + ms[2];
                hand_overflows += listen_overflows() - before;
                fprintf(stderr, "bench_many: round %d by hand: %.0f ms (%.0f / %.0f / %.0f), +%d threads\n", r + 1,
                        hand_ms[r], ms[0], ms[1], ms[2], hand_threads[r]);
            }
        }
    }

    double jump_total = median(jump_ms, rounds), hand_total = median(hand_ms, rounds);
    double jp[3], hp[3];
    for (int p = 0; p < 3; p++) {
        jp[p] = median(jump_phase[p], rounds);
        hp[p] = median(hand_phase[p], rounds);
    }
    int jump_peak = max_int(jump_threads, rounds), hand_peak = max_int(hand_threads, rounds);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char group[96], connections[64] = "no connection cap";
    snprintf(group, sizeof group, "Many clients (%d at once, emulator)", clients);
    if (host_connections > 0) snprintf(connections, sizeof connections, "at most %ld connections", host_connections);
    printf("ROW\t%s\tsign_in_async, edit + sync_async, fetch_record_async: wall time of the 3 phases\t%.1f\tms\t"
           "the same requests by hand on one libcurl multi handle (%s)\t%.1f\t%.2f\t"
           "phases %.0f / %.0f / %.0f ms vs %.0f / %.0f / %.0f ms; listen overflows %ld vs %ld; N=%d\n",
           group, jump_total, connections, hand_total, jump_total / hand_total, jp[0], jp[1], jp[2], hp[0], hp[1],
           hp[2], jump_overflows, hand_overflows, rounds);
    printf("ROW\t%s\tpeak threads over the baseline (before phase 1)\t%d\tthreads\tthe same, by hand\t%d\t\t"
           "goal: at most cores + 4 = %ld; max of N=%d\n",
           group, jump_peak, hand_peak, cores + 4, rounds);

    pthread_mutex_lock(&sample_lock);
    sampling = 0;
    pthread_mutex_unlock(&sample_lock);
    pthread_join(sampler_thread, NULL);
    for (int i = 0; i < clients; i++) {
        curl_easy_cleanup(transfers[i].easy);
        free(transfers[i].body);
        free(transfers[i].answer.data);
        curl_slist_free_all(transfers[i].headers);
    }
    curl_multi_cleanup(multi);
    for (int p = 0; p < 3; p++) {
        free(jump_phase[p]);
        free(hand_phase[p]);
    }
    free(jump_ms);
    free(hand_ms);
    free(jump_threads);
    free(hand_threads);
    free(transfers);
    free(users);
    return 0;
}
