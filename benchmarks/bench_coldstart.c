/*
 * bench_coldstart.c - how long a fresh process takes to be signed in again from a saved session:
 *   libjump:  process start + dlopen(libjump) + jump_client_new (which restores the session from disk)
 *   baseline: process start + dlopen(libcurl) + dlopen(libjansson) + curl_global_init + reading and
 *             parsing the same session file with jansson (the least a hand-written C client must do)
 *   floor:    the baseline + dlopen of an empty Swift library linked like libjump (benchmarks/floor): what any
 *             Swift C-ABI library, carrying the Swift runtime statically, adds to that C baseline. Only
 *             measured when FLOOR_SO is given.
 *
 * Usage (driver):  bench_coldstart run N LIBJUMP_SO CONFIG_JSON SESSION_FILE [FLOOR_SO]
 * The driver re-executes this same binary N times per variant, interleaved, and times each child from fork
 * to exit; every child also reports the in-process part (from main() to ready) on stdout. One binary for
 * every variant, linked with -ldl only, so process start costs the same everywhere and only the dlopen'd
 * libraries differ. Children never free anything: the process is about to exit, as in a real cold start
 * the cost of interest is getting ready. Prints ROW lines for run.sh's table.
 * Build: cc -O2 -Iinclude -o build/bench/bench_coldstart benchmarks/bench_coldstart.c -ldl
 */
#define _POSIX_C_SOURCE 200809L

#include <curl/curl.h> /* headers only, for the function types: the library itself is dlopen'd */
#include <dlfcn.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jump.h"
#include "bench_stats.h"

/* dlsym into a typed pointer (memcpy: ISO C has no void * -> function pointer conversion). */
#define RESOLVE(library, name)                                                                            \
    __typeof__(&name) name##_p;                                                                           \
    {                                                                                                     \
        void *symbol = dlsym(library, #name);                                                             \
        if (symbol == NULL) return fprintf(stderr, "no %s\n", #name), 2;                                   \
        memcpy(&name##_p, &symbol, sizeof symbol);                                                        \
    }

static int child_jump(const char *library_path, const char *config_json) {
    double start = now_ms();
    void *library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return fprintf(stderr, "%s\n", dlerror()), 2;
    double loaded = now_ms() - start;
    RESOLVE(library, jump_config_from_json)
    RESOLVE(library, jump_client_new)
    RESOLVE(library, jump_client_is_signed_in)
    jump_config *config = NULL;
    jump_client *client = NULL;
    if (jump_config_from_json_p(config_json, &config) != JUMP_OK || jump_client_new_p(config, &client) != JUMP_OK)
        return fprintf(stderr, "cannot create the client\n"), 2;
    /* A cold start that did not restore the session measures nothing useful. */
    if (!jump_client_is_signed_in_p(client)) return fprintf(stderr, "the session was not restored\n"), 2;
    printf("%.6f %.6f\n", now_ms() - start, loaded);
    return 0;
}

/* floor_path: NULL for the baseline; for the floor variant, the empty Swift library, loaded like a third
 * library (its one export is called, so it is really there). */
static int child_baseline(const char *session_file, const char *floor_path) {
    double start = now_ms();
    void *curl = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    void *jansson = dlopen("libjansson.so.4", RTLD_NOW | RTLD_LOCAL);
    if (curl == NULL || jansson == NULL) return fprintf(stderr, "%s\n", dlerror()), 2;
    if (floor_path != NULL) {
        void *floor_library = dlopen(floor_path, RTLD_NOW | RTLD_LOCAL);
        if (floor_library == NULL) return fprintf(stderr, "%s\n", dlerror()), 2;
        int (*floor_noop_p)(void);
        void *symbol = dlsym(floor_library, "floor_noop");
        if (symbol == NULL) return fprintf(stderr, "no floor_noop\n"), 2;
        memcpy(&floor_noop_p, &symbol, sizeof symbol);
        if (floor_noop_p() != 0) return fprintf(stderr, "floor_noop\n"), 2;
    }
    double loaded = now_ms() - start;
    RESOLVE(curl, curl_global_init)
    RESOLVE(jansson, json_load_file)
    RESOLVE(jansson, json_object_get)
    RESOLVE(jansson, json_string_value)
    /* libjump initialises libcurl when a client is made; a hand-written client must do it too. */
    if (curl_global_init_p(CURL_GLOBAL_DEFAULT) != CURLE_OK) return fprintf(stderr, "curl_global_init\n"), 2;
    json_error_t error;
    json_t *session = json_load_file_p(session_file, 0, &error);
    if (session == NULL || json_string_value_p(json_object_get_p(session, "access_token")) == NULL)
        return fprintf(stderr, "%s: %s\n", session_file, error.text), 2;
    printf("%.6f %.6f\n", now_ms() - start, loaded);
    return 0;
}

/* Runs this binary with args; returns the wall time from fork to exit, stores the child's own figures
 * (its time in main() until ready, and the dlopen part of it). */
static double spawn(char *const args[], double *in_process_ms, double *dlopen_ms) {
    int out[2];
    if (pipe(out) != 0) exit(1);
    double start = now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        execv("/proc/self/exe", args);
        _exit(127);
    }
    close(out[1]);
    char text[64] = "";
    size_t got = 0;
    ssize_t n;
    while (got < sizeof text - 1 && (n = read(out[0], text + got, sizeof text - 1 - got)) > 0) got += (size_t)n;
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    double elapsed = now_ms() - start;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_coldstart: child %s failed (status %d)\n", args[1], status);
        exit(1);
    }
    if (sscanf(text, "%lf %lf", in_process_ms, dlopen_ms) != 2) *in_process_ms = *dlopen_ms = 0;
    return elapsed;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "child-jump") == 0) return child_jump(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "child-baseline") == 0) return child_baseline(argv[2], NULL);
    if (argc == 4 && strcmp(argv[1], "child-floor") == 0) return child_baseline(argv[2], argv[3]);
    if (argc == 2 && strcmp(argv[1], "child-empty") == 0) return printf("0 0\n"), 0;
    if ((argc != 6 && argc != 7) || strcmp(argv[1], "run") != 0) {
        fprintf(stderr, "usage: bench_coldstart run N LIBJUMP_SO CONFIG_JSON SESSION_FILE [FLOOR_SO]\n");
        return 2;
    }
    int n = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
    char *jump_args[] = {argv[0], "child-jump", argv[3], argv[4], NULL};
    char *baseline_args[] = {argv[0], "child-baseline", argv[5], NULL};
    char *empty_args[] = {argv[0], "child-empty", NULL};
    char *floor_args[] = {argv[0], "child-floor", argv[5], argc == 7 ? argv[6] : NULL, NULL};
    enum { JUMP, BASELINE, EMPTY, FLOOR, ALL_VARIANTS };
    const int VARIANTS = argc == 7 ? ALL_VARIANTS : FLOOR; /* the floor variant only with FLOOR_SO */
    char *const *args[ALL_VARIANTS] = {jump_args, baseline_args, empty_args, floor_args};
    double *wall[ALL_VARIANTS], *inside[ALL_VARIANTS], *loading[ALL_VARIANTS];
    for (int v = 0; v < VARIANTS; v++) {
        wall[v] = calloc((size_t)n, sizeof(double));
        inside[v] = calloc((size_t)n, sizeof(double));
        loading[v] = calloc((size_t)n, sizeof(double));
    }
    /* Warm the page cache: we measure a cold process, not a cold disk. */
    for (int v = 0; v < VARIANTS; v++) spawn(args[v], &inside[v][0], &loading[v][0]);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < VARIANTS; k++) { /* rotate the order so none always runs first */
            int v = (i + k) % VARIANTS;
            wall[v][i] = spawn(args[v], &inside[v][i], &loading[v][i]);
        }
    double jump_wall = median(wall[JUMP], n), baseline_wall = median(wall[BASELINE], n);
    double jump_inside = median(inside[JUMP], n), baseline_inside = median(inside[BASELINE], n);
    double jump_load = median(loading[JUMP], n), baseline_load = median(loading[BASELINE], n);
    double empty_wall = median(wall[EMPTY], n);
    const char *group = "Cold start (fresh process)";
    printf("ROW\t%s\texec + dlopen libjump + jump_client_new with restore + exit\t%.2f\tms\t"
           "exec + dlopen curl, jansson + curl_global_init + parse session + exit\t%.2f\t%.2f\t%+.2f ms, N=%d\n",
           group, jump_wall, baseline_wall, jump_wall / baseline_wall, jump_wall - baseline_wall, n);
    printf("ROW\t%s\tof which in main(): dlopen + client + restore\t%.2f\tms\t"
           "of which in main(): dlopen + init + parse\t%.2f\t%.2f\t%+.2f ms\n",
           group, jump_inside, baseline_inside, jump_inside / baseline_inside, jump_inside - baseline_inside);
    printf("ROW\t%s\t  of which dlopen (with NEEDED libraries)\t%.2f\tms\t"
           "  of which the two dlopens\t%.2f\t%.2f\t%+.2f ms\n",
           group, jump_load, baseline_load, jump_load / baseline_load, jump_load - baseline_load);
    printf("ROW\t%s\texec + exit of the same binary doing nothing\t%.2f\tms\t\t\t\tthe floor under both rows above\n",
           group, empty_wall);
    if (VARIANTS == ALL_VARIANTS) {
        /* The Swift runtime's share: the baseline's work + an empty Swift library linked like libjump. */
        double floor_wall = median(wall[FLOOR], n), floor_inside = median(inside[FLOOR], n);
        double floor_load = median(loading[FLOOR], n);
        printf("ROW\t%s\texec + dlopen libjump + jump_client_new with restore + exit\t%.2f\tms\t"
               "exec + dlopen curl, jansson, an empty Swift library linked like libjump + init + parse + exit\t%.2f\t%.2f\t"
               "%+.2f ms; the Swift runtime alone: %+.2f ms over the baseline\n",
               group, jump_wall, floor_wall, jump_wall / floor_wall, jump_wall - floor_wall,
               floor_wall - baseline_wall);
        printf("ROW\t%s\tof which in main(): dlopen + client + restore\t%.2f\tms\t"
               "of which in main(): 3 dlopens + init + parse\t%.2f\t%.2f\t%+.2f ms; runtime alone: %+.2f ms\n",
               group, jump_inside, floor_inside, jump_inside / floor_inside, jump_inside - floor_inside,
               floor_inside - baseline_inside);
        printf("ROW\t%s\t  of which dlopen (with NEEDED libraries)\t%.2f\tms\t"
               "  of which the three dlopens\t%.2f\t%.2f\t%+.2f ms; runtime alone: %+.2f ms\n",
               group, jump_load, floor_load, jump_load / floor_load, jump_load - floor_load,
               floor_load - baseline_load);
    }
    return 0;
}
