/* test_host.c - libjump as a guest in a host process: fork() after use, and one callback thread for all
 * clients (docs/conventions.md, "Locks and fork" and "Threads"). */
#include "harness.h"
#include "support.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#define LONG_TOKEN_BYTES (250 * 1024)

/* The threads of this process, from /proc/self/task. */
static int thread_count(void) {
    DIR *dir = opendir("/proc/self/task");
    struct dirent *entry;
    int count = 0;
    if (dir == NULL) return -1;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(dir);
    return count;
}

/* The names of this process's threads, for a failure message ("jump-events jump-work ..."). */
static void print_threads(void) {
    DIR *dir = opendir("/proc/self/task");
    struct dirent *entry;
    printf("    threads:");
    while (dir != NULL && (entry = readdir(dir)) != NULL) {
        char path[300], name[64] = "";
        FILE *file;
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", entry->d_name);
        file = fopen(path, "r");
        if (file != NULL) {
            if (fgets(name, sizeof name, file) != NULL) name[strcspn(name, "\n")] = '\0';
            fclose(file);
        }
        printf(" %s", name);
    }
    if (dir != NULL) closedir(dir);
    printf("\n");
}

/* A forked child must die of its own signals, not run the harness's crash handler (which re-executes the
 * test program). */
static void child_default_signals(void) {
    int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGALRM};
    size_t i;
    for (i = 0; i < sizeof signals / sizeof signals[0]; i++) signal(signals[i], SIG_DFL);
}

static char *long_token(void) {
    char *token = malloc(LONG_TOKEN_BYTES + 1);
    if (token == NULL) return NULL;
    memset(token, 'm', LONG_TOKEN_BYTES);
    memcpy(token, "merge-", 6);
    token[LONG_TOKEN_BYTES] = '\0';
    return token;
}

/* In the child: async sign-ins on libjump threads while this thread (the one that forked) signs in with a
 * long merge token, whose remembering as a secret holds a process-wide lock for a while. Exit status 0 when
 * every async sign-in completed. */
static void child_sign_ins(const char *email, const char *token) {
    enum { ASYNC = 4 };
    jump_client *clients[ASYNC], *main_client;
    jump_request *requests[ASYNC];
    char *result = NULL;
    int i, ok = 1;
    child_default_signals();
    main_client = new_client(":memory:", NULL);
    if (main_client == NULL) _exit(4);
    for (i = 0; i < ASYNC; i++) {
        clients[i] = new_client(":memory:", NULL);
        requests[i] = NULL;
        if (clients[i] == NULL ||
            J.client_sign_in_async(clients[i], email, TEST_PASSWORD, NULL, NULL, NULL, &requests[i]) != JUMP_OK)
            ok = 0;
    }
    /* Refused or not (the token is no real merge token), the request is made and the token remembered. */
    (void)J.client_sign_in_merge(main_client, email, TEST_PASSWORD, token, &result);
    J.string_free(result);
    for (i = 0; i < ASYNC; i++) {
        if (requests[i] != NULL && J.request_wait(requests[i], 30000) != JUMP_OK) ok = 0;
        J.request_free(requests[i]);
        J.client_free(clients[i]);
    }
    J.client_free(main_client);
    _exit(ok ? 0 : 3);
}

TEST(forked_children_survive_concurrent_sign_ins) {
    enum { CHILDREN = 20, AT_ONCE = 4 };
    jump_client *client;
    char *email, *uuid, *token, *result = NULL;
    int started = 0, died = 0, failed = 0;
    REQUIRE_EMULATOR();
    email = unique_email("fork");
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    token = long_token();
    REQUIRE(token != NULL);
    client = new_client(":memory:", NULL);
    REQUIRE(client != NULL);
    /* The parent uses libjump on its main thread first (the thread that will fork). */
    REQUIRE_OK(J.client_sign_in(client, email, TEST_PASSWORD, &result));
    J.string_free(result);
    result = NULL;
    (void)J.client_sign_in_merge(client, email, TEST_PASSWORD, token, &result);
    J.string_free(result);
    fflush(NULL);
    while (started < CHILDREN) {
        pid_t pids[AT_ONCE];
        int batch = 0, i;
        for (; batch < AT_ONCE && started < CHILDREN; batch++, started++) {
            pids[batch] = fork();
            if (pids[batch] == 0) child_sign_ins(email, token);
            CHECK_MSG(pids[batch] > 0, "fork failed");
        }
        for (i = 0; i < batch; i++) {
            int status = 0;
            if (pids[i] <= 0 || waitpid(pids[i], &status, 0) != pids[i]) continue;
            if (WIFSIGNALED(status)) {
                died++;
                printf("    child %d died of signal %d\n", (int)pids[i], WTERMSIG(status));
            } else if (WEXITSTATUS(status) != 0) {
                failed++;
                printf("    child %d exited with %d\n", (int)pids[i], WEXITSTATUS(status));
            }
        }
    }
    CHECK_EQ_INT(died, 0);
    CHECK_EQ_INT(failed, 0);
    /* The parent's client still works. */
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    J.client_free(client);
    free(token);
    free(uuid);
    free(email);
}

/* An async sign-in the emulator holds for 1.5 s, so that it is in flight when the test forks. */
typedef struct {
    jump_client *client;
    jump_request *request;
    recorder r;
    char *email, *uuid;
} held_sign_in;

static int start_held_sign_in(held_sign_in *h, const char *label) {
    memset(h, 0, sizeof *h);
    recorder_init(&h->r);
    h->email = unique_email(label);
    h->uuid = emu_create_user(h->email, TEST_PASSWORD, NULL);
    if (h->uuid == NULL || emu_fault("delay", 1, "/oauth/auth_native_traditional", 1500) != 0) return 0;
    h->client = new_client(":memory:", NULL);
    if (h->client == NULL) return 0;
    if (J.client_sign_in_async(h->client, h->email, TEST_PASSWORD, recorder_callback, &h->r, recorder_free,
                               &h->request) != JUMP_OK) return 0;
    sleep_ms(300); /* the request is on the wire, held by the emulator */
    fflush(NULL);
    return 1;
}

static void end_held_sign_in(held_sign_in *h) {
    J.request_free(h->request);
    J.client_free(h->client);
    /* userdata_free comes after the callback, on libjump's thread: the recorder must outlive it. */
    CHECK_MSG(recorder_wait_frees(&h->r, 1, 5000), "userdata_free never ran");
    recorder_destroy(&h->r);
    free(h->uuid);
    free(h->email);
}

/* Reaps a forked child and checks it exited with 0 (each of its checks sets a bit of its exit code). */
static void check_child_exit(pid_t pid) {
    int status = 0;
    REQUIRE(pid > 0);
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status), "the child died of a signal");
    CHECK_EQ_INT(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
}

TEST(request_in_flight_at_fork_completes_cancelled_in_child) {
    held_sign_in h;
    json_t *payload;
    pid_t pid;
    REQUIRE_EMULATOR();
    REQUIRE(start_held_sign_in(&h, "forkflight"));
    pid = fork();
    if (pid == 0) {
        jump_client *fresh;
        char *result = NULL;
        int code = 0;
        child_default_signals();
        /* The request ran on a thread the child does not have: it completes here, cancelled. */
        if (J.request_wait(h.request, 5000) != JUMP_OK) code |= 1;
        if (recorder_calls(&h.r) != 1) code |= 2;
        payload = recorder_payload(&h.r, 0);
        if (payload == NULL || json_integer_value(json_object_get(payload, "status")) != JUMP_E_CANCELLED) code |= 4;
        json_decref(payload);
        /* The client made before the fork, and a new one, both work. */
        if (J.client_sign_in(h.client, h.email, TEST_PASSWORD, &result) != JUMP_OK) code |= 8;
        J.string_free(result);
        result = NULL;
        fresh = new_client(":memory:", NULL);
        if (fresh == NULL || J.client_sign_in(fresh, h.email, TEST_PASSWORD, &result) != JUMP_OK) code |= 16;
        J.string_free(result);
        J.client_free(fresh);
        _exit(code);
    }
    check_child_exit(pid);
    /* In the parent the request goes on and succeeds. */
    CHECK_OK(J.request_wait(h.request, 15000));
    payload = recorder_payload(&h.r, 0);
    CHECK_EQ_INT(payload ? (int)json_integer_value(json_object_get(payload, "status")) : -1, 0);
    json_decref(payload);
    end_held_sign_in(&h);
}

/* A host that spawns a program (fork, then exec: Node.js's child_process, Python's subprocess) while a
 * request is in flight must get a child that is a plain copy: libjump starts no thread and runs no callback
 * there until the child itself calls libjump. A thread started inside fork() raced with the host's own
 * pre-exec steps (Node.js's spawn failed with EBUSY from dup2). */
TEST(a_forked_child_that_does_not_use_libjump_gets_no_thread_from_it) {
    held_sign_in h;
    pid_t pid;
    REQUIRE_EMULATOR();
    REQUIRE(start_held_sign_in(&h, "forkexec"));
    pid = fork();
    if (pid == 0) {
        int code = 0;
        child_default_signals();
        sleep_ms(200); /* time for a thread libjump might have started to show */
        if (thread_count() != 1) code |= 1;
        if (recorder_calls(&h.r) != 0) code |= 2;
        /* Once the child calls libjump, the request it inherited completes there, cancelled. */
        if (J.request_wait(h.request, 5000) != JUMP_OK) code |= 4;
        if (recorder_calls(&h.r) != 1) code |= 8;
        _exit(code);
    }
    check_child_exit(pid);
    CHECK_OK(J.request_wait(h.request, 15000));
    end_held_sign_in(&h);
}

TEST(a_thousand_clients_share_one_callback_thread) {
    enum { CLIENTS = 1000 };
    jump_client **clients = calloc(CLIENTS, sizeof *clients);
    jump_request **requests = calloc(CLIENTS, sizeof *requests);
    recorder r;
    int before, after, i;
    REQUIRE(clients != NULL && requests != NULL);
    REQUIRE_EMULATOR();
    recorder_init(&r);
    before = thread_count();
    for (i = 0; i < CLIENTS; i++) {
        clients[i] = new_client(":memory:", NULL);
        if (clients[i] == NULL) break;
        /* Not signed in: completes at once, with JUMP_E_NOT_SIGNED_IN, through the callback path. */
        CHECK_OK(J.client_sync_async(clients[i], recorder_callback, &r, NULL, &requests[i]));
    }
    REQUIRE(i == CLIENTS);
    if (!CHECK_MSG(recorder_wait_calls(&r, CLIENTS, 30000), "%d of %d completions arrived", recorder_calls(&r), CLIENTS))
        print_threads();
    for (i = 0; i < CLIENTS; i++) {
        if (J.request_wait(requests[i], 2000) != JUMP_OK) {
            CHECK_MSG(0, "request %d of %d did not finish", i, CLIENTS);
            break;
        }
    }
    sleep_ms(300); /* the work threads have returned; an idle callback thread lives on for seconds */
    after = thread_count();
    printf("    threads: %d before, %d with %d idle clients\n", before, after, CLIENTS);
    CHECK_MSG(after <= before + 4, "idle clients cost threads");
    for (i = 0; i < CLIENTS; i++) {
        J.request_free(requests[i]);
        J.client_free(clients[i]);
    }
    free(requests);
    free(clients);
    recorder_destroy(&r);
}

/* A child restored from the shared storage directory fetches at `start_ms`; exit 0 on success, 10 when told
 * to sign in again, 20 + the status otherwise. */
static void child_fetch(const char *dir, double start_ms) {
    jump_client *client;
    jump_status status;
    child_default_signals();
    client = new_client(dir, NULL);
    if (client == NULL) _exit(19);
    while (now_ms() < start_ms) sleep_ms(1);
    status = J.client_fetch_record(client);
    J.client_free(client);
    _exit(status == JUMP_OK ? 0 : status == JUMP_E_EXPIRED ? 10 : 20 - (int)status);
}

TEST(processes_sharing_a_store_refresh_once_per_expiry) {
    enum { PROCESSES = 6, ROUNDS = 20 };
    char dir[512];
    jump_client *client;
    char *uuid;
    int round, expired = 0, failed = 0, extra_refreshes = 0;
    REQUIRE_EMULATOR();
    snprintf(dir, sizeof dir, "%s/shared-store", emu_tmpdir());
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    J.client_free(client);
    fflush(NULL);
    for (round = 0; round < ROUNDS; round++) {
        pid_t pids[PROCESSES];
        double start;
        long refreshes;
        int i;
        REQUIRE(emu_advance_clock(7200) == 0); /* the saved access token has expired on the server */
        REQUIRE(emu_clear_counters() == 0);
        start = now_ms() + 400;
        for (i = 0; i < PROCESSES; i++) {
            pids[i] = fork();
            if (pids[i] == 0) child_fetch(dir, start);
        }
        for (i = 0; i < PROCESSES; i++) {
            int status = 0;
            if (pids[i] <= 0 || waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status)) {
                failed++;
                continue;
            }
            if (WEXITSTATUS(status) == 10) expired++;
            else if (WEXITSTATUS(status) != 0) {
                failed++;
                printf("    round %d: a process exited with %d\n", round, WEXITSTATUS(status));
            }
        }
        refreshes = emu_counter("POST /oauth/refresh_access_token");
        if (refreshes != 1) {
            extra_refreshes++;
            printf("    round %d: %ld refreshes\n", round, refreshes);
        }
    }
    CHECK_EQ_INT(expired, 0);
    CHECK_EQ_INT(failed, 0);
    CHECK_EQ_INT(extra_refreshes, 0);
    free(uuid);
}

/* Completions queue behind a slow callback on the one callback thread; each has a userdata_free, which
 * libjump runs on that same thread once nothing holds the callback any more. */
TEST(queued_callbacks_release_their_userdata_on_the_callback_thread) {
    enum { OPERATIONS = 40 };
    jump_client *client;
    jump_request *requests[OPERATIONS];
    recorder r;
    int i;
    REQUIRE_EMULATOR();
    client = new_client(":memory:", NULL);
    REQUIRE(client != NULL);
    recorder_init(&r);
    r.hold_ms = 20;
    for (i = 0; i < OPERATIONS; i++) {
        requests[i] = NULL;
        CHECK_OK(J.client_sync_async(client, recorder_callback, &r, recorder_free, &requests[i]));
    }
    CHECK_MSG(recorder_wait_calls(&r, OPERATIONS, 20000), "%d of %d callbacks ran", recorder_calls(&r), OPERATIONS);
    CHECK_MSG(recorder_wait_frees(&r, OPERATIONS, 20000), "%d of %d userdata_free ran", recorder_frees(&r), OPERATIONS);
    for (i = 0; i < OPERATIONS; i++) J.request_free(requests[i]);
    J.client_free(client);
    if (recorder_frees(&r) == OPERATIONS) recorder_destroy(&r);
}

/* A fetch saves the session whole, under the session's lock, and takes the shared store's flock to do it.
 * Held by another process, that flock makes the save wait. _async operations run on fibers over a pool of
 * cores threads: a fiber that parked there, holding the session's lock, left its pool thread to run the
 * other fetches, which then waited on that lock forever (and so did every _async call of the process). */
TEST(async_saves_waiting_for_the_store_lock_do_not_stop_the_pool) {
    enum { FETCHES = 6 };
    char dir[512];
    jump_client *client;
    recorder r;
    char *uuid;
    int fd, i;
    REQUIRE_EMULATOR();
    snprintf(dir, sizeof dir, "%s/locked-store", emu_tmpdir());
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    recorder_init(&r);
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* another open file description: another holder */
    REQUIRE(fd >= 0);
    REQUIRE(flock(fd, LOCK_EX) == 0);
    for (i = 0; i < FETCHES; i++)
        CHECK_OK(J.client_fetch_record_async(client, recorder_callback, &r, recorder_free, NULL));
    sleep_ms(1000); /* every fetch is answered and waits for the store lock */
    close(fd);      /* releases it */
    CHECK_MSG(recorder_wait_calls(&r, FETCHES, 15000), "%d of %d fetches completed after the store lock was released",
              recorder_calls(&r), FETCHES);
    for (i = 0; i < recorder_calls(&r); i++) {
        json_t *payload = recorder_payload(&r, i);
        CHECK_EQ_INT(payload ? (int)json_integer_value(json_object_get(payload, "status")) : -1, 0);
        json_decref(payload);
    }
    J.client_free(client);
    CHECK(recorder_wait_frees(&r, FETCHES, 5000));
    recorder_destroy(&r);
    free(uuid);
}

/* Workers forked from a preloaded parent (gunicorn --preload, multiprocessing) share the parent's client and
 * its storage directory; the token expires and all four fetch at once, expiry after expiry. The sender of a
 * refresh is named when it is sent, so each worker is a sender of its own: one refreshes, the others wait
 * for its answer on storage. Named when the client was made, every worker took the others' refresh for its
 * own and replayed it: 4 refreshes per expiry. Last, the parent, whose token in memory is three expiries
 * old, takes the workers' credential and refreshes it. */
TEST(workers_forked_with_a_preloaded_client_refresh_once) {
    enum { WORKERS = 4, ROUNDS = 3 };
    jump_client *client;
    char dir[512], *uuid;
    int go[2], done[2], i, round;
    pid_t pids[WORKERS];
    REQUIRE_EMULATOR();
    snprintf(dir, sizeof dir, "%s/preloaded", emu_tmpdir());
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    REQUIRE(pipe(go) == 0 && pipe(done) == 0);
    for (i = 0; i < WORKERS; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            int code = 0;
            child_default_signals();
            close(go[1]);
            close(done[0]);
            for (round = 0; round < ROUNDS; round++) {
                char byte = 0;
                jump_status status;
                if (read(go[0], &byte, 1) != 1) _exit(64);
                status = J.client_fetch_record(client);
                if (status != JUMP_OK) code |= status == JUMP_E_EXPIRED ? 2 : 1;
                if (write(done[1], &byte, 1) != 1) _exit(65);
            }
            _exit(code);
        }
    }
    close(go[0]);
    close(done[1]);
    for (round = 0; round < ROUNDS; round++) {
        char bytes[WORKERS] = {0};
        size_t got = 0;
        CHECK(emu_advance_clock(7200) == 0);
        CHECK(emu_clear_counters() == 0);
        CHECK(write(go[1], bytes, WORKERS) == WORKERS);  /* everyone goes at once */
        while (got < WORKERS) {
            ssize_t n = read(done[0], bytes, WORKERS - got);
            if (n <= 0) break;
            got += (size_t)n;
        }
        CHECK_EQ_INT((int)got, WORKERS);
        CHECK_MSG(emu_counter("POST /oauth/refresh_access_token") == 1, "round %d: %ld refreshes for one expiry", round,
                  emu_counter("POST /oauth/refresh_access_token"));
    }
    close(go[1]);
    close(done[0]);
    for (i = 0; i < WORKERS; i++) check_child_exit(pids[i]);
    CHECK(emu_advance_clock(7200) == 0);
    CHECK_OK(J.client_fetch_record(client));
    J.client_free(client);
    free(uuid);
}
