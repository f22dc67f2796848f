/*
 * stack_test.c - what Sources/CFiber/fiber.c does with the stacks of finished fibers, without libjump (built
 * with fiber.c by Tests/fiber/run.sh): nothing an operation wrote on its stack is left once the fiber is freed,
 * kept stacks are reused, and jumpi_fiber_trim_stacks gives the surplus back. Ends with "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fiber.h"

/* The Swift runtime's exclusivity hooks, which libjump links statically: nothing to track here. */
void swift_task_enterThreadLocalContext(char *state) { (void)state; }
void swift_task_exitThreadLocalContext(char *state) { (void)state; }

static int passed, failed;
static void check(int ok, const char *what) {
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (ok) passed++; else failed++;
}

enum { STACK_BYTES = 1 << 20 };

/* Where a fiber wrote its "secret", and how much of it. */
struct secret {
    size_t bytes;
    volatile unsigned char *where;
    int park; /* suspends once before it ends */
};

static __attribute__((noinline)) void write_secret(struct secret *s) {
    volatile unsigned char buffer[s->bytes];
    for (size_t i = 0; i < s->bytes; i++) buffer[i] = (unsigned char)(0xA5 ^ (i & 0x3F));
    s->where = buffer;
    if (s->park) jumpi_fiber_suspend();
}

static void secret_fiber(void *argument) { write_secret(argument); }

static int all_zero(volatile unsigned char *bytes, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (bytes[i] != 0) return 0;
    return 1;
}

static int is_mapped(const void *address) {
    long page = sysconf(_SC_PAGESIZE);
    void *start = (void *)((uintptr_t)address & ~(uintptr_t)(page - 1));
    unsigned char resident;
    return mincore(start, (size_t)page, &resident) == 0 || errno != ENOMEM;
}

static size_t resident_pages(const void *address, size_t bytes) {
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)address & ~(uintptr_t)(page - 1);
    size_t pages = ((uintptr_t)address + bytes - start + (size_t)page - 1) / (size_t)page, count = 0;
    unsigned char *vector = calloc(pages, 1);
    if (vector == NULL || mincore((void *)start, pages * (size_t)page, vector) != 0) {
        free(vector);
        return (size_t)-1;
    }
    for (size_t i = 0; i < pages; i++) count += vector[i] & 1;
    free(vector);
    return count;
}

/* Runs one fiber that writes `bytes` of secret on its stack, frees it, and says whether the secret is gone
 * from memory that is still mapped (the stack was kept). */
static int secret_is_gone(size_t bytes, volatile unsigned char **where) {
    struct secret s = {bytes, NULL, 0};
    jumpi_fiber *fiber = jumpi_fiber_new(STACK_BYTES, secret_fiber, &s);
    if (fiber == NULL || jumpi_fiber_resume(fiber) != 1) return 0;
    jumpi_fiber_free(fiber);
    *where = s.where;
    return s.where != NULL && is_mapped((const void *)s.where) && all_zero(s.where, bytes);
}

int main(void) {
    volatile unsigned char *first = NULL, *again = NULL;
    check(secret_is_gone(16 << 10, &first), "16 KiB written on a fiber's stack are zero once the fiber is freed");
    check(secret_is_gone(700 << 10, &again), "700 KiB written on a fiber's stack are zero once the fiber is freed");
    uintptr_t a = (uintptr_t)first, b = (uintptr_t)again;
    check(a != 0 && b != 0 && (a > b ? a - b : b - a) < STACK_BYTES, "the next fiber reuses the stack the last one left");

    /* 200 fibers alive at once, then all freed: more stacks are kept than a quiet process keeps. */
    enum { MANY = 200 };
    static struct secret secrets[MANY];
    static jumpi_fiber *fibers[MANY];
    int made = 1;
    for (int i = 0; i < MANY; i++) {
        secrets[i] = (struct secret){4 << 10, NULL, 1};
        fibers[i] = jumpi_fiber_new(STACK_BYTES, secret_fiber, &secrets[i]);
        made = made && fibers[i] != NULL && jumpi_fiber_resume(fibers[i]) == 0;
    }
    int finished = made;
    for (int i = 0; i < MANY && made; i++) {
        finished = finished && jumpi_fiber_resume(fibers[i]) == 1;
        jumpi_fiber_free(fibers[i]);
    }
    check(finished, "200 fibers parked at once, then each run to its end");
    char what[160];
    /* Pages first: reading an emptied page maps it again. */
    int holding = 0;
    for (int i = 0; i < MANY; i++)
        holding += is_mapped((const void *)secrets[i].where) &&
                   resident_pages((const void *)secrets[i].where, secrets[i].bytes) > 0;
    int kept = 0, zeroed = 1;
    for (int i = 0; i < MANY; i++) {
        if (!is_mapped((const void *)secrets[i].where)) continue;
        kept++;
        zeroed = zeroed && all_zero(secrets[i].where, secrets[i].bytes);
    }
    check(kept == MANY, "all 200 stacks are kept for the next burst");
    check(zeroed, "and none holds what its fiber wrote");
    snprintf(what, sizeof what, "%d of the 200 kept stacks hold pages (at most 128: the others are emptied)", holding);
    check(holding <= 128, what);

    jumpi_fiber_trim_stacks();
    int left = 0;
    size_t resident = 0;
    for (int i = 0; i < MANY; i++) {
        if (!is_mapped((const void *)secrets[i].where)) continue;
        left++;
        resident += resident_pages((const void *)secrets[i].where, secrets[i].bytes);
    }
    snprintf(what, sizeof what, "trimmed when idle: %d of 200 stacks still mapped (at most 64), %zu pages of them resident",
             left, resident);
    check(left > 0 && left <= 64 && resident == 0, what);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
