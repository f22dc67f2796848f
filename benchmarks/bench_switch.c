/*
 * bench_switch.c - the fibers' switch (Sources/CFiber/switch.h) against glibc's swapcontext, which the
 * fibers used before and still use on other architectures: nanoseconds per round trip (into a fiber and
 * back), median of 11 rounds. Prints one ROW line for benchmarks/run.sh.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "../Sources/CFiber/switch.h"
#include "bench_stats.h"

enum { ROUNDS = 11, TRIPS = 200000, STACK = 64 << 10 };

static ucontext_t thread_context, fiber_context;
static void ucontext_body(void) {
    for (;;) swapcontext(&fiber_context, &thread_context);
}

static double ucontext_round(void) {
    double started = now_ms();
    for (int i = 0; i < TRIPS; i++) swapcontext(&thread_context, &fiber_context);
    return (now_ms() - started) * 1e6 / TRIPS;
}

#if JUMPI_SWITCH_ASM
static void *thread_sp, *fiber_sp;
static void register_body(void *argument) {
    (void)argument;
    for (;;) jumpi_switch(&fiber_sp, thread_sp);
}

static double register_round(void) {
    double started = now_ms();
    for (int i = 0; i < TRIPS; i++) jumpi_switch(&thread_sp, fiber_sp);
    return (now_ms() - started) * 1e6 / TRIPS;
}
#endif

int main(void) {
    void *stack = mmap(NULL, 2 * STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED) return 1;
    getcontext(&fiber_context);
    fiber_context.uc_stack.ss_sp = stack;
    fiber_context.uc_stack.ss_size = STACK;
    makecontext(&fiber_context, ucontext_body, 0);
    double with_ucontext[ROUNDS], with_registers[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) with_ucontext[r] = ucontext_round();
#if JUMPI_SWITCH_ASM
    fiber_sp = jumpi_switch_prepare((char *)stack + STACK, STACK, register_body, NULL);
    for (int r = 0; r < ROUNDS; r++) with_registers[r] = register_round();
    double registers = median(with_registers, ROUNDS), ucontext = median(with_ucontext, ROUNDS);
    printf("ROW\tFibers\tswitch into a fiber and back (Sources/CFiber/switch.h)\t%.1f\tns\tglibc swapcontext, the same round trip\t%.1f\t%.2f\t"
           "no system call (swapcontext: two rt_sigprocmask)\n", registers, ucontext, registers / ucontext);
#else
    (void)with_registers;
    printf("ROW\tFibers\tswitch into a fiber and back (ucontext on this architecture)\t%.1f\tns\t-\t-\t-\t\n",
           median(with_ucontext, ROUNDS));
#endif
    return 0;
}
