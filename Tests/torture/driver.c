/*
 * driver.c - the torture suite's child process (see Tests/torture/README.md).
 *
 *   driver run   url=.. store=.. ledger=.. scenario=.. seed=.. iter=.. a=.. b=.. ida=.. idb=.. password=..
 *                [rodir=N]
 *   driver check url=.. store=.. a=.. b=.. ida=.. idb=.. password=.. [signin=a|b] [then=1]
 *
 * run:   performs one scenario step by step against libjump and appends to the ledger what the library
 *        ACKNOWLEDGED: "BEGIN <op> ..." is written (and fsync'd) before each call, "OK <op> ..." or
 *        "ERR <op> <status> ..." after it. The parent kills this process at a random moment, so the last
 *        BEGIN without an answer is the phase the kill landed in.
 * check: restores from the same storage directory and prints what it finds, one "key value" line each
 *        (values that are JSON stay JSON). The parent (run.py) judges it against the ledger and the server.
 *
 * Users are "a" and "b" (their emails are given). Every value written embeds its writer and a sequence
 * number, "A-<iter>-<seq>", optionally padded with "~xxxx" to make the journal grow fast; only the part
 * before '~' (the key) is ever printed.
 */
#define _GNU_SOURCE
#include "jump.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the library, through dlopen (only the functions used here, typed from the header) ---- */

#define FUNCTIONS(X)                                                                                       \
    X(error_last) X(string_free) X(config_from_json) X(config_free) X(client_new) X(client_state)          \
    X(client_sign_in) X(client_sign_out) X(client_record) X(record_free) X(record_set_string)             \
    X(record_get_string) X(client_sync) X(client_fetch_record) X(client_refresh_access_token)              \
    X(client_access_token) X(record_append)

static struct {
#define MEMBER(name) __typeof__(&jump_##name) name;
    FUNCTIONS(MEMBER)
#undef MEMBER
} J;

static void load_library(void) {
    const char *path = getenv("JUMP_LIBRARY_PATH");
    void *handle = dlopen(path != NULL && path[0] ? path : "build/lib/libjump.so", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        fprintf(stderr, "driver: %s\n", dlerror());
        exit(3);
    }
#define RESOLVE(name)                                                                                      \
    {                                                                                                      \
        void *symbol = dlsym(handle, "jump_" #name);                                                       \
        if (symbol == NULL) {                                                                              \
            fprintf(stderr, "driver: jump_%s missing\n", #name);                                           \
            exit(3);                                                                                       \
        }                                                                                                  \
        memcpy(&J.name, &symbol, sizeof J.name);                                                           \
    }
    FUNCTIONS(RESOLVE)
#undef RESOLVE
}

/* ---- arguments ---- */

static int arg_count;
static char **args;

static const char *arg(const char *key, const char *fallback) {
    size_t n = strlen(key);
    for (int i = 2; i < arg_count; i++)
        if (strncmp(args[i], key, n) == 0 && args[i][n] == '=') return args[i] + n + 1;
    if (fallback == NULL) {
        fprintf(stderr, "driver: missing %s=\n", key);
        exit(2);
    }
    return fallback;
}

/* ---- the ledger: append-only, one fsync'd line per event, so it survives kill -9 intact ---- */

static int ledger_fd = -1;
static struct timespec started;

static void ledger(const char *fmt, ...) {
    char line[1024];
    struct timespec now;
    va_list ap;
    int n;
    clock_gettime(CLOCK_MONOTONIC, &now);
    n = snprintf(line, sizeof line, "%ld ",
                 (long)((now.tv_sec - started.tv_sec) * 1000 + (now.tv_nsec - started.tv_nsec) / 1000000));
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (write(ledger_fd, line, (size_t)n) != n || fsync(ledger_fd) != 0) {
        perror("driver: ledger");
        exit(4);
    }
}

/* ---- small helpers ---- */

static uint64_t rng_state;
static uint64_t rnd(void) { /* xorshift64*: reproducible from TORTURE_SEED */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}
static int rnd_range(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

/* The detail's "message" would do, but the whole detail is one JSON line and the parent parses it. */
static const char *last_error(void) { return J.error_last(); }

static jump_client *client;
static char user_of_session;   /* 'A', 'B' or 0: who the driver believes is signed in */
static const char *emails[2];
static const char *password;
static long iteration;
static long sequence;          /* the next value number, shared by both users */

/* Big values go to the two json attributes of the user's one profiles element (no length limit on the
 * server), so a handful of edits passes the 1 MiB journal compaction and still syncs. */
#define BIG_PATHS 2
#define SMALL_PATHS 5
static const char *big_names[BIG_PATHS] = {"profile", "accessCredentials"};
static const char *small_paths[SMALL_PATHS] = {"/aboutMe", "/givenName", "/familyName", "/primaryAddress/city",
                                               "/name/formatted"};
static const char *element_ids[2]; /* the profiles element id of a and b */

static void big_path(char *out, size_t size, char who, int which) {
    snprintf(out, size, "/profiles#%s/%s", element_ids[who == 'B' ? 1 : 0], big_names[which]);
}

/* ---- steps: each logs BEGIN, calls libjump once, logs OK or ERR ---- */

/* Whether the client reports that its last save failed (jump.h: a sign-in or refresh stays good in memory
 * and says so with "storage_error"; only edits must be durable before JUMP_OK). */
static int unsaved(void) {
    char *state = NULL;
    int failed;
    if (J.client_state(client, &state) != JUMP_OK || state == NULL) return 0;
    failed = strstr(state, "\"storage_error\":null") == NULL;
    J.string_free(state);
    return failed;
}

static int step_sign_in(char who) {
    char *result = NULL;
    jump_status status;
    ledger("BEGIN signin %c", who);
    status = J.client_sign_in(client, emails[who == 'A' ? 0 : 1], password, &result);
    if (status == JUMP_OK) {
        ledger("OK signin %c", who);
        if (unsaved()) ledger("UNSAVED signin %c", who);
        user_of_session = who;
    } else {
        ledger("ERR signin %c %d", who, (int)status);
    }
    J.string_free(result);
    return status;
}

static int step_sign_out(void) {
    jump_status status;
    ledger("BEGIN signout %c", user_of_session ? user_of_session : '-');
    status = J.client_sign_out(client);
    if (status == JUMP_OK) ledger("OK signout");
    else ledger("ERR signout %d", (int)status);
    user_of_session = 0; /* signed out in memory either way (jump.h) */
    return status;
}

/* One edit of a random path; big values (16-48 KiB) reach the 1 MiB journal compaction in ~30 edits. */
static int step_edit(int big) {
    char who = user_of_session ? user_of_session : '-';
    char path[128];
    size_t pad = big ? (size_t)rnd_range(16, 48) * 1024 : 0;
    char key[64];
    char *value;
    jump_record *record = NULL;
    jump_status status;
    long seq = sequence++;
    if (big) big_path(path, sizeof path, who, (int)(rnd() % BIG_PATHS));
    else snprintf(path, sizeof path, "%s", small_paths[rnd() % SMALL_PATHS]);
    snprintf(key, sizeof key, "%c-%ld-%ld", who, iteration, seq);
    value = malloc(strlen(key) + pad + 2);
    strcpy(value, key);
    if (pad > 0) {
        size_t n = strlen(key);
        value[n] = '~';
        memset(value + n + 1, 'x', pad);
        value[n + 1 + pad] = '\0';
    }
    ledger("BEGIN edit %c %s %s %zu", who, path, key, strlen(value));
    status = J.client_record(client, &record);
    if (status == JUMP_OK) status = J.record_set_string(record, path, value);
    if (status == JUMP_OK) ledger("OK edit %c %s %s", who, path, key);
    else ledger("ERR edit %c %s %s %d", who, path, key, (int)status);
    J.record_free(record);
    free(value);
    return status;
}

/* One element appended to /photos; its value is its key, so a duplicate on the server is seen by value. */
static int step_append(void) {
    char who = user_of_session ? user_of_session : '-';
    char key[64], element[128];
    char *path = NULL;
    jump_record *record = NULL;
    jump_status status;
    long seq = sequence++;
    snprintf(key, sizeof key, "%c-%ld-%ld", who, iteration, seq);
    snprintf(element, sizeof element, "{\"type\":\"other\",\"value\":\"%s\"}", key);
    ledger("BEGIN append %c /photos %s", who, key);
    status = J.client_record(client, &record);
    if (status == JUMP_OK) status = J.record_append(record, "/photos", element, &path);
    if (status == JUMP_OK) ledger("OK append %c /photos %s", who, key);
    else ledger("ERR append %c /photos %s %d", who, key, (int)status);
    J.string_free(path);
    J.record_free(record);
    return status;
}

static void step_edits(int n, int big_percent) {
    for (int i = 0; i < n; i++) step_edit((int)(rnd() % 100) < big_percent);
}

static int step_sync(void) {
    char *result = NULL;
    jump_status status;
    char who = user_of_session ? user_of_session : '-';
    ledger("BEGIN sync %c", who);
    status = J.client_sync(client, &result);
    if (status == JUMP_OK) ledger("OK sync %c", who);
    else ledger("ERR sync %c %d %s", who, (int)status, last_error());
    J.string_free(result);
    return status;
}

static int step_refresh(void) {
    jump_status status;
    char who = user_of_session ? user_of_session : '-';
    ledger("BEGIN refresh %c", who);
    status = J.client_refresh_access_token(client);
    if (status == JUMP_OK) {
        ledger("OK refresh %c", who);
        if (unsaved()) ledger("UNSAVED refresh %c", who);
    } else {
        ledger("ERR refresh %c %d", who, (int)status);
    }
    return status;
}

/* ---- scenarios: bounded sequences of steps; the kill may land anywhere in them ---- */

static void scenario_signin(void) {
    for (int round = 0; round < 5; round++) { /* signing in again replaces the session (and its edits) */
        step_sign_in('A');
        step_edits(2, 0);
        if (rnd() % 2) step_sync();
    }
}

static void scenario_edits(void) {
    step_sign_in('A');
    step_edits(rnd_range(80, 120), 85); /* about 3 MiB: several journal compactions */
}

static void scenario_sync(void) {
    step_sign_in('A');
    for (int round = 0; round < 8; round++) {
        step_edits(rnd_range(1, 4), 50);
        step_sync();
    }
}

static void scenario_refresh(void) {
    step_sign_in('A');
    step_edits(2, 50);
    for (int round = 0; round < 15; round++) {
        step_refresh();
        if (rnd() % 3 == 0) step_edit(0);
        if (rnd() % 5 == 0) step_sync();
    }
}

static void scenario_signout(void) {
    for (int round = 0; round < 3; round++) {
        step_sign_in('A');
        step_edits(rnd_range(1, 4), 50);
        step_sync();
        step_edits(rnd_range(1, 6), 60); /* unsynced: dropped by the sign-out */
        step_sign_out();
    }
    step_sign_in('A'); /* the dropped edits must not come back; the synced ones must be there */
    step_edits(2, 0);
}

/* A with unsynced edits, then B: either after a sign-out or by signing in over A. */
static void scenario_switch(void) {
    char who = 'A';
    step_sign_in(who);
    for (int round = 0; round < 4; round++) {
        step_edits(rnd_range(1, 3), 50);
        if (rnd() % 2) step_sync();
        step_edits(rnd_range(2, 8), 70); /* these stay unsynced across the switch */
        if (rnd() % 2) step_sign_out();
        who = who == 'A' ? 'B' : 'A';
        step_sign_in(who);
    }
    step_edits(2, 0);
}

/* Appends and syncs: with kills, and with answers to entity.update the emulator drops after applying them
 * (run.py's lost_answer fault), each element must end up on the server once. */
static void scenario_appends(void) {
    step_sign_in('A');
    for (int round = 0; round < 6; round++) {
        for (int n = rnd_range(1, 3); n > 0; n--) step_append();
        if (rnd() % 3) step_edit(0);
        step_sync();
    }
}

/* ---- run and check ---- */

static jump_client *open_client(const char *url, const char *store, int refresh_margin) {
    char config_json[4096];
    jump_config *config = NULL;
    jump_client *c = NULL;
    /* Short timeouts: a child must never hang on the network (the parent also has a deadline). */
    snprintf(config_json, sizeof config_json,
             "{\"captureDomain\":\"%s\",\"captureFlowDomain\":\"%s\",\"captureClientId\":\"jump-default-client\","
             "\"captureAppId\":\"default-app\",\"captureFlowName\":\"standard\",\"captureLocale\":\"en-US\","
             "\"storageDirectory\":\"%s\",\"connectTimeoutMs\":5000,\"requestTimeoutMs\":10000,"
             "\"tokenRefreshMarginSeconds\":%d}",
             url, url, store, refresh_margin);
    if (J.config_from_json(config_json, &config) != JUMP_OK) {
        fprintf(stderr, "driver: config: %s\n", last_error());
        exit(3);
    }
    if (J.client_new(config, &c) != JUMP_OK) {
        printf("client_new %s\n", last_error());
        c = NULL;
    }
    J.config_free(config);
    return c;
}

static int run(void) {
    const char *scenario = arg("scenario", NULL);
    const char *ro_after = arg("rodir", "");
    ledger_fd = open(arg("ledger", NULL), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (ledger_fd < 0) {
        perror("driver: ledger");
        return 4;
    }
    rng_state = (uint64_t)atoll(arg("seed", NULL)) * 0x9E3779B97F4A7C15ULL + 1;
    iteration = atol(arg("iter", NULL));
    emails[0] = arg("a", NULL);
    emails[1] = arg("b", NULL);
    element_ids[0] = arg("ida", NULL);
    element_ids[1] = arg("idb", NULL);
    password = arg("password", NULL);
    ledger("START %s", scenario);
    /* In the refresh scenario every authorized call also refreshes first (the margin is the whole token
     * lifetime), so syncs carry refreshes too; elsewhere tokens stay put. */
    client = open_client(arg("url", NULL), arg("store", NULL), strcmp(scenario, "refresh") == 0 ? 3600 : 60);
    if (client == NULL) return 5;
    if (ro_after[0]) {
        /* The read-only directory case: the session is saved, then the directory becomes 0500 (the parent
         * dropped CAP_DAC_OVERRIDE, so this holds for root too). Files inside stay writable; creating the
         * temp file of a full save, renaming and unlinking fail. */
        step_sign_in('A');
        step_edits(atoi(ro_after), 0);
        chmod(arg("store", NULL), 0500);
        ledger("READONLY");
    }
    if (strcmp(scenario, "signin") == 0) scenario_signin();
    else if (strcmp(scenario, "edits") == 0) scenario_edits();
    else if (strcmp(scenario, "sync") == 0) scenario_sync();
    else if (strcmp(scenario, "refresh") == 0) scenario_refresh();
    else if (strcmp(scenario, "signout") == 0) scenario_signout();
    else if (strcmp(scenario, "switch") == 0) scenario_switch();
    else if (strcmp(scenario, "appends") == 0) scenario_appends();
    else {
        fprintf(stderr, "driver: unknown scenario %s\n", scenario);
        return 2;
    }
    ledger("DONE");
    /* No jump_client_free: the process ends the way an app's process ends when it is killed. */
    _exit(0);
}

static void print_orphans(const char *store) {
    DIR *dir = opendir(store);
    struct dirent *entry;
    int count = 0;
    char names[2048] = "";
    if (dir != NULL) {
        while ((entry = readdir(dir)) != NULL) {
            if (strstr(entry->d_name, ".tmp-") == NULL) continue;
            count++;
            if (strlen(names) + strlen(entry->d_name) + 2 < sizeof names) {
                strcat(names, " ");
                strcat(names, entry->d_name);
            }
        }
        closedir(dir);
    }
    printf("orphans %d%s\n", count, names);
}

static void print_state(const char *key) {
    char *state = NULL;
    if (J.client_state(client, &state) == JUMP_OK) printf("%s %s\n", key, state);
    else printf("%s null\n", key);
    J.string_free(state);
}

/* The key ("A-3-17") of the value at each edited path, as this session's record holds it now. Both users'
 * element paths are read: an edit replayed into the wrong record may land under the other's id. */
static void print_values(const char *key) {
    jump_record *record = NULL;
    if (J.client_record(client, &record) != JUMP_OK) {
        printf("%s-error %s\n", key, last_error());
        return;
    }
    for (int i = 0; i < SMALL_PATHS + 2 * BIG_PATHS; i++) {
        char path[128];
        char *value = NULL;
        char who = (i - SMALL_PATHS) / BIG_PATHS ? 'B' : 'A';
        if (i < SMALL_PATHS) snprintf(path, sizeof path, "%s", small_paths[i]);
        else if (who == 'B' && strcmp(element_ids[0], element_ids[1]) == 0) continue; /* the same paths */
        else big_path(path, sizeof path, who, (i - SMALL_PATHS) % BIG_PATHS);
        jump_status status = J.record_get_string(record, path, &value);
        if (status != JUMP_OK) printf("%s %s error:%d\n", key, path, (int)status);
        else if (value == NULL) printf("%s %s null\n", key, path);
        else {
            char *cut = strchr(value, '~');
            if (cut != NULL) *cut = '\0';
            printf("%s %s %.80s\n", key, path, value);
        }
        J.string_free(value);
    }
    J.record_free(record);
}

/* Fetch, then sync: what a restarted app does first. Conflicts, expiry and lost acknowledgements show here. */
static void fetch_and_sync(const char *prefix) {
    jump_status status = J.client_fetch_record(client);
    printf("%sfetch %d %s\n", prefix, (int)status, status == JUMP_OK ? "{}" : last_error());
    status = J.client_sync(client, NULL);
    printf("%ssync %d %s\n", prefix, (int)status, status == JUMP_OK ? "{}" : last_error());
}

static jump_status sign_in_as(const char *who, const char *key) {
    jump_status status = J.client_sign_in(client, emails[who[0] == 'b' ? 1 : 0], password, NULL);
    printf("%s %d %s\n", key, (int)status, status == JUMP_OK ? "{}" : last_error());
    return status;
}

static int check(void) {
    const char *signin = arg("signin", "");
    const char *then = arg("then", "");
    char *token = NULL;
    char *state = NULL;
    jump_status status;
    emails[0] = arg("a", NULL);
    emails[1] = arg("b", NULL);
    element_ids[0] = arg("ida", NULL);
    element_ids[1] = arg("idb", NULL);
    password = arg("password", NULL);
    client = open_client(arg("url", NULL), arg("store", NULL), 60);
    print_orphans(arg("store", NULL)); /* after the store was opened: opening may clean up */
    if (client == NULL) return 0;
    print_state("state");
    if ((status = J.client_access_token(client, &token)) == JUMP_OK) {
        /* The token the restored session holds, before anything refreshes it: the parent asks the
         * emulator whether it was retired (a successor the store lost). Test secrets, loopback only. */
        printf("token %s\n", token);
        J.string_free(token);
    } else {
        printf("token - %d\n", (int)status);
    }
    print_values("local");
    J.client_state(client, &state);
    if (signin[0] != '\0' && state != NULL && strstr(state, "\"signed_in\":false") != NULL &&
        strstr(state, "\"restore_error\":null") != NULL) {
        /* Signed out at restore: sign in as the next user, so a stale journal or lost edits show. */
        if (sign_in_as(signin, "signin") == JUMP_OK) print_values("signed-in");
    }
    J.string_free(state);
    fetch_and_sync("");
    state = NULL;
    J.client_state(client, &state);
    if (then[0] != '\0' && state != NULL && strstr(state, "\"signed_in\":true") != NULL) {
        char needle[300];
        snprintf(needle, sizeof needle, "\"email\":\"%s\"", emails[0]);
        then = strstr(state, needle) != NULL ? "b" : "a"; /* the other user */
        printf("then-as %s\n", then);
    } else {
        then = "";
    }
    J.string_free(state);
    if (then[0] != '\0' && sign_in_as(then, "then-signin") == JUMP_OK) {
        /* The other user signs in over this one (no sign-out): its edits left unsynced by a user switch
         * must come back, and nothing of the first user may show. */
        print_values("then");
        fetch_and_sync("then-");
    }
    print_state("final-state");
    fflush(stdout);
    _exit(0);
}

int main(int argc, char **argv) {
    clock_gettime(CLOCK_MONOTONIC, &started);
    arg_count = argc;
    args = argv;
    if (argc < 2) {
        fprintf(stderr, "usage: driver run|check key=value...\n");
        return 2;
    }
    load_library();
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (strcmp(argv[1], "run") == 0) return run();
    if (strcmp(argv[1], "check") == 0) return check();
    fprintf(stderr, "driver: unknown mode %s\n", argv[1]);
    return 2;
}
