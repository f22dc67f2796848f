/*
 * slow_lookup.c - an LD_PRELOAD shim for test_lookup_burst.py: getaddrinfo for the name in $JUMP_TEST_SLOW_NAME
 * takes $JUMP_TEST_SLOW_MS longer, as a lookup over a slow network does, and is counted: how many there were
 * and how many at most ran at once (read through ctypes from the process that preloads this).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int slow_lookup_count, slow_lookup_running, slow_lookup_most;

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **result) {
    static int (*real)(const char *, const char *, const struct addrinfo *, struct addrinfo **);
    if (real == NULL) real = (int (*)(const char *, const char *, const struct addrinfo *, struct addrinfo **))dlsym(RTLD_NEXT, "getaddrinfo");
    const char *slow = getenv("JUMP_TEST_SLOW_NAME");
    if (real == NULL) return EAI_FAIL;
    if (slow == NULL || node == NULL || strcmp(node, slow) != 0) return real(node, service, hints, result);
    __atomic_add_fetch(&slow_lookup_count, 1, __ATOMIC_SEQ_CST);
    int running = __atomic_add_fetch(&slow_lookup_running, 1, __ATOMIC_SEQ_CST), most;
    while ((most = __atomic_load_n(&slow_lookup_most, __ATOMIC_SEQ_CST)) < running &&
           !__atomic_compare_exchange_n(&slow_lookup_most, &most, running, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    const char *ms = getenv("JUMP_TEST_SLOW_MS");
    long delay = ms != NULL ? atol(ms) : 300;
    struct timespec pause = {delay / 1000, (delay % 1000) * 1000000L};
    nanosleep(&pause, NULL);
    int status = real(node, service, hints, result);
    __atomic_sub_fetch(&slow_lookup_running, 1, __ATOMIC_SEQ_CST);
    return status;
}
