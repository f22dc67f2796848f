/*
 * switch_test.c - the register switch of Sources/CFiber/switch.h on its own, without libjump: built for this
 * machine and, with aarch64-linux-gnu-gcc, run under qemu-aarch64 (Tests/fiber/run.sh), since no aarch64
 * machine is at hand. Ends with "N passed, N failed".
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../../Sources/CFiber/switch.h"

#if !JUMPI_SWITCH_ASM
int main(void) {
    puts("no register switch on this architecture (ucontext is used)");
    puts("0 passed, 0 failed");
    return 0;
}
#else

static void *thread_sp, *fiber_sp;
static int passed, failed;

static void check(int ok, const char *what) {
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (ok) passed++; else failed++;
}

/* A generator: yields the Fibonacci numbers, one per switch. */
static volatile uint64_t yielded;
static void fibonacci(void *argument) {
    uint64_t limit = (uint64_t)(uintptr_t)argument, a = 0, b = 1;
    double scale = 1.5; /* a floating-point value live across the switches */
    for (uint64_t i = 0; i < limit; i++) {
        yielded = a;
        uint64_t next = a + b;
        a = b;
        b = next;
        scale *= 1.0;
        jumpi_switch(&fiber_sp, thread_sp);
    }
    yielded = (uint64_t)(scale * 2); /* 3 when the fiber's floating-point registers survived */
    jumpi_switch(&fiber_sp, thread_sp);
    abort(); /* never resumed again */
}

/* Callee-saved registers the compiler keeps values in: the thread's side must find them as it left them. */
static __attribute__((noinline)) uint64_t across_switches(int rounds) {
    volatile double keep = 2.25;
    register uint64_t r1 = 11, r2 = 22, r3 = 33, r4 = 44, r5 = 55;
    uint64_t sum = 0;
    double d = 0.5;
    for (int i = 0; i < rounds; i++) {
        jumpi_switch(&thread_sp, fiber_sp);
        sum += yielded + r1 + r2 + r3 + r4 + r5;
        d += 0.25;
        r1 += 1; r2 += 1; r3 += 1; r4 += 1; r5 += 1;
    }
    return sum + (uint64_t)(d * 4) + (uint64_t)keep;
}

int main(void) {
    size_t size = 256 << 10;
    void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED) return 2;
    int rounds = 50;
    fiber_sp = jumpi_switch_prepare(stack, size, fibonacci, (void *)(uintptr_t)rounds);
    check(((uintptr_t)fiber_sp & 15) == 0, "a prepared stack pointer is 16-byte aligned");
    uint64_t sum = across_switches(rounds);
    /* sum of fib(0..49) = fib(51) - 1; each round adds r1..r5 = 165 + 5 * i; d ends at 0.5 + 50 * 0.25 */
    uint64_t fib = 0, a = 0, b = 1;
    for (int i = 0; i < rounds; i++) { fib += a; uint64_t n = a + b; a = b; b = n; }
    uint64_t want = fib + (uint64_t)rounds * 165 + 5 * (uint64_t)(rounds * (rounds - 1) / 2) + 52 + 2;
    check(sum == want, "values in registers survive 100 switches on both sides");
    jumpi_switch(&thread_sp, fiber_sp);
    check(yielded == 3, "the fiber's floating-point registers survive its switches");
    /* Many fibers in turn, each switched to once and back: the frames do not leak into each other. */
    int ok = 1;
    for (int i = 0; i < 1000 && ok; i++) {
        fiber_sp = jumpi_switch_prepare(stack, size, fibonacci, (void *)(uintptr_t)1);
        jumpi_switch(&thread_sp, fiber_sp);
        ok = yielded == 0;
        jumpi_switch(&thread_sp, fiber_sp);
        ok = ok && yielded == 3;
    }
    check(ok, "1000 fibers, each run to its end on a reused stack");
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
#endif
