/*
 * harness.h - a tiny test framework for the libjump C tests. Include it in exactly one file per test
 * program (it defines main).
 *
 *   TEST(name) { ... }                  registers a test (runs in file order)
 *   CHECK(cond), CHECK_EQ_INT(a, b), CHECK_STR_EQ(a, b), CHECK_STATUS(call, expected), CHECK_OK(call)
 *                                       record a failure and go on
 *   REQUIRE(...), REQUIRE_STATUS(...), REQUIRE_OK(...)
 *                                       record a failure and leave the test (return)
 *
 * A failure prints file:line, what was expected, and jump_error_last(). The program runs every test, or
 * those named on the command line, prints one line per test and ends with "N passed, N failed"; it exits
 * 1 when anything failed. A test that crashes the process (SIGSEGV, a Swift trap's SIGILL/SIGTRAP, abort)
 * or runs longer than HARNESS_TIMEOUT seconds (default 60) is reported as failed, and the program
 * re-executes itself to run the remaining tests.
 */
#ifndef JUMP_TEST_HARNESS_H
#define JUMP_TEST_HARNESS_H

/* sigaltstack, SA_ONSTACK (XSI) on top of the POSIX level the build asks for. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif

#include "jump_loader.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef void (*harness_fn)(void);

typedef struct harness_test {
    const char *name;
    harness_fn fn;
    int line;
} harness_test;

#define HARNESS_MAX_TESTS 256
#define HARNESS_API static __attribute__((unused))

static harness_test harness_tests[HARNESS_MAX_TESTS];
static int harness_test_count;
static const char *harness_current_name = "";
static int harness_current_failures;

/* Async-signal-safe cleanup run before a crashed program re-executes itself (emulator.c sets it). */
void (*harness_crash_hook)(void);

HARNESS_API void harness_register(const char *name, harness_fn fn, int line) {
    if (harness_test_count < HARNESS_MAX_TESTS) {
        harness_tests[harness_test_count].name = name;
        harness_tests[harness_test_count].fn = fn;
        harness_tests[harness_test_count].line = line;
        harness_test_count++;
    }
}

#define TEST(name)                                                                                         \
    static void test_##name(void);                                                                         \
    __attribute__((constructor)) static void harness_register_##name(void) {                               \
        harness_register(#name, test_##name, __LINE__);                                                    \
    }                                                                                                      \
    static void test_##name(void)

/* The jump_status names, indexed by -status (generated from include/jump_api.json into
 * jump_loader_generated.inc); the tests size their status loops with HARNESS_STATUS_COUNT. */
static const char *const harness_status_names[] = {JUMP_API_STATUS_NAMES};
#define HARNESS_STATUS_COUNT ((int)(sizeof harness_status_names / sizeof harness_status_names[0]))

static const char *harness_status_name(long status) {
    if (status <= 0 && status > -HARNESS_STATUS_COUNT) return harness_status_names[-status];
    return "(not a jump_status)";
}

/* Prints one failure line (and the library's last error when asked). */
HARNESS_API void harness_failv(const char *file, int line, int with_error, const char *fmt, va_list ap) {
    const char *detail = NULL;
    if (with_error && J.error_last != NULL) detail = J.error_last();
    harness_current_failures++;
    printf("    %s:%d: ", file, line);
    vprintf(fmt, ap);
    printf("\n");
    if (with_error) printf("      jump_error_last(): %s\n", detail != NULL ? detail : "(NULL)");
    fflush(stdout);
}

HARNESS_API void harness_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    harness_failv(file, line, 1, fmt, ap);
    va_end(ap);
}

/* Prints a failure without calling into the library (for use where the library must not be touched). */
HARNESS_API void harness_fail_plain(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    harness_failv(file, line, 0, fmt, ap);
    va_end(ap);
}

/* The hooks support.c and social_support.c use to record failures (declared in support.h): with and
 * without the library's last error, as harness_fail and harness_fail_plain. */
void support_fail(const char *file, int line, const char *fmt, ...);
void support_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    harness_failv(file, line, 1, fmt, ap);
    va_end(ap);
}

void support_fail_plain(const char *file, int line, const char *fmt, ...);
void support_fail_plain(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    harness_failv(file, line, 0, fmt, ap);
    va_end(ap);
}

/* Informational line inside a test. */
HARNESS_API void harness_note(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("    note: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

/* 1 when the current test has failed so far. */
HARNESS_API int harness_failed(void) { return harness_current_failures > 0; }

HARNESS_API int harness_check_status(const char *file, int line, const char *expr, long got, long expected) {
    if (got == expected) return 1;
    harness_fail(file, line, "%s returned %ld (%s), expected %ld (%s)", expr, got, harness_status_name(got),
                 expected, harness_status_name(expected));
    return 0;
}

HARNESS_API int harness_check_status2(const char *file, int line, const char *expr, long got, long a, long b) {
    if (got == a || got == b) return 1;
    harness_fail(file, line, "%s returned %ld (%s), expected %s or %s", expr, got, harness_status_name(got),
                 harness_status_name(a), harness_status_name(b));
    return 0;
}

HARNESS_API int harness_check_str(const char *file, int line, const char *ea, const char *eb, const char *a,
                             const char *b) {
    if (a == NULL && b == NULL) return 1;
    if (a != NULL && b != NULL && strcmp(a, b) == 0) return 1;
    harness_fail(file, line, "CHECK_STR_EQ(%s, %s): \"%s\" != \"%s\"", ea, eb, a ? a : "(NULL)",
                 b ? b : "(NULL)");
    return 0;
}

HARNESS_API int harness_check(int ok, const char *file, int line, const char *fmt, ...) {
    va_list ap;
    if (ok) return 1;
    va_start(ap, fmt);
    harness_failv(file, line, 1, fmt, ap);
    va_end(ap);
    return 0;
}

#define CHECK(cond) harness_check(!!(cond), __FILE__, __LINE__, "CHECK(%s) failed", #cond)
#define CHECK_MSG(cond, ...) harness_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_INT(a, b)                                                                                 \
    do {                                                                                                   \
        long long harness_a_ = (long long)(a), harness_b_ = (long long)(b);                                \
        if (harness_a_ != harness_b_)                                                                      \
            harness_fail(__FILE__, __LINE__, "CHECK_EQ_INT(%s, %s): %lld != %lld", #a, #b, harness_a_,     \
                         harness_b_);                                                                      \
    } while (0)
#define CHECK_STR_EQ(a, b) harness_check_str(__FILE__, __LINE__, #a, #b, (a), (b))
#define CHECK_STATUS(call, expected) harness_check_status(__FILE__, __LINE__, #call, (long)(call), (long)(expected))
#define CHECK_STATUS2(call, a, b)                                                                          \
    harness_check_status2(__FILE__, __LINE__, #call, (long)(call), (long)(a), (long)(b))
#define CHECK_OK(call) CHECK_STATUS(call, JUMP_OK)

#define REQUIRE(cond)                                                                                      \
    do {                                                                                                   \
        if (!CHECK(cond)) return;                                                                          \
    } while (0)
#define REQUIRE_MSG(cond, ...)                                                                             \
    do {                                                                                                   \
        if (!CHECK_MSG(cond, __VA_ARGS__)) return;                                                         \
    } while (0)
#define REQUIRE_STATUS(call, expected)                                                                     \
    do {                                                                                                   \
        if (!CHECK_STATUS(call, expected)) return;                                                         \
    } while (0)
#define REQUIRE_OK(call) REQUIRE_STATUS(call, JUMP_OK)

/* ---- crash and timeout recovery ------------------------------------------------------------------------ */

static char harness_resume_passed[24], harness_resume_failed[24];
static char *harness_resume_argv[HARNESS_MAX_TESTS + 8];
static char harness_crash_line[512];
static char harness_timeout_line[512];

HARNESS_API void harness_write(const char *text) {
    size_t len = strlen(text);
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, text, len);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            return;
        }
        text += n;
        len -= (size_t)n;
    }
}

HARNESS_API void harness_signal_handler(int sig) {
    char number[16];
    int i = 0, v = sig;
    char digits[16];
    if (sig == SIGALRM) {
        harness_write(harness_timeout_line);
    } else {
        harness_write(harness_crash_line);
        do {
            digits[i++] = (char)('0' + v % 10);
            v /= 10;
        } while (v > 0 && i < 15);
        v = 0;
        while (i > 0) number[v++] = digits[--i];
        number[v] = '\0';
        harness_write(number);
        harness_write(")\n");
    }
    if (harness_crash_hook != NULL) harness_crash_hook();
    execv("/proc/self/exe", harness_resume_argv);
    harness_write("    (could not re-execute the test program)\n");
    _exit(1);
}

HARNESS_API void harness_install_signals(void) {
    static char altstack[1 << 16];
    stack_t ss;
    struct sigaction sa;
    sigset_t none;
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGALRM};
    size_t i;

    /* A re-executed program inherits the mask of the handler it came from. */
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = harness_signal_handler;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Prepares what the signal handler needs if test `index` of `order` crashes. */
HARNESS_API void harness_prepare_resume(char *argv0, int *order, int count, int index, int passed, int failed) {
    int n = 0, i;
    snprintf(harness_resume_passed, sizeof harness_resume_passed, "%d", passed);
    snprintf(harness_resume_failed, sizeof harness_resume_failed, "%d", failed + 1);
    harness_resume_argv[n++] = argv0;
    harness_resume_argv[n++] = (char *)"--resume";
    harness_resume_argv[n++] = harness_resume_passed;
    harness_resume_argv[n++] = harness_resume_failed;
    harness_resume_argv[n++] = (char *)"--";
    for (i = index + 1; i < count; i++) harness_resume_argv[n++] = (char *)harness_tests[order[i]].name;
    if (index + 1 >= count) harness_resume_argv[n++] = (char *)"--none";
    harness_resume_argv[n] = NULL;
    snprintf(harness_crash_line, sizeof harness_crash_line, "FAIL %s (the process crashed: signal ",
             harness_tests[order[index]].name);
    snprintf(harness_timeout_line, sizeof harness_timeout_line, "FAIL %s (timed out)\n",
             harness_tests[order[index]].name);
}

HARNESS_API double harness_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

HARNESS_API int harness_compare_line(const void *a, const void *b) {
    return ((const harness_test *)a)->line - ((const harness_test *)b)->line;
}

int main(int argc, char **argv) {
    int order[HARNESS_MAX_TESTS];
    int count = 0, passed = 0, failed = 0, i, j, first_name = 1, none = 0;
    unsigned timeout = 60;
    char error[4096];
    const char *env_timeout = getenv("HARNESS_TIMEOUT");

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (env_timeout != NULL && atoi(env_timeout) > 0) timeout = (unsigned)atoi(env_timeout);
    qsort(harness_tests, (size_t)harness_test_count, sizeof harness_tests[0], harness_compare_line);

    if (argc >= 4 && strcmp(argv[1], "--resume") == 0) {
        passed = atoi(argv[2]);
        failed = atoi(argv[3]);
        first_name = 4;
    }
    if (first_name < argc && strcmp(argv[first_name], "--") == 0) first_name++;
    if (first_name < argc && strcmp(argv[first_name], "--list") == 0) {
        for (i = 0; i < harness_test_count; i++) printf("%s\n", harness_tests[i].name);
        return 0;
    }
    for (i = first_name; i < argc; i++) {
        int found = 0;
        if (strcmp(argv[i], "--none") == 0) {
            none = 1;
            continue;
        }
        for (j = 0; j < harness_test_count; j++) {
            if (strcmp(argv[i], harness_tests[j].name) == 0) {
                order[count++] = j;
                found = 1;
                break;
            }
        }
        if (!found) {
            printf("FAIL %s (no such test)\n", argv[i]);
            failed++;
        }
    }
    if (count == 0 && !none && first_name >= argc)
        for (i = 0; i < harness_test_count; i++) order[count++] = i;

    harness_install_signals();

    if (count > 0 && jump_load(error, sizeof error) != 0) {
        printf("FAIL (loading libjump) %s\n", error);
        printf("%d passed, %d failed\n", passed, failed + count);
        return 1;
    }

    for (i = 0; i < count; i++) {
        const harness_test *t = &harness_tests[order[i]];
        double start;
        harness_prepare_resume(argv[0], order, count, i, passed, failed);
        harness_current_name = t->name;
        harness_current_failures = 0;
        start = harness_now();
        alarm(timeout);
        t->fn();
        alarm(0);
        if (harness_current_failures == 0) {
            passed++;
            printf("PASS %s (%.2fs)\n", t->name, harness_now() - start);
        } else {
            failed++;
            printf("FAIL %s (%d check%s failed, %.2fs)\n", t->name, harness_current_failures,
                   harness_current_failures == 1 ? "" : "s", harness_now() - start);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return failed == 0 ? 0 : 1;
}

#endif
