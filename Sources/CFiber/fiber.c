/*
 * fiber.c - see include/fiber.h. Nothing here may block or allocate after jumpi_fiber_new: a switch is a
 * register switch (switch.h; ucontext on other architectures) plus the sanitizers' and Swift's bookkeeping.
 */
#define _GNU_SOURCE
#include "fiber.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "switch.h"

/* Valgrind is told where each fiber's stack is (its client requests cost a few instructions, and nothing
 * outside Valgrind): without it every switch looks like a wild stack-pointer change to memcheck. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_STACK_REGISTER
#define VALGRIND_STACK_REGISTER(start, end) 0u
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#endif
#ifndef VALGRIND_MAKE_MEM_UNDEFINED
#define VALGRIND_MAKE_MEM_UNDEFINED(start, length) ((void)(start), (void)(length))
#endif

/* The Swift runtime (linked statically into libjump.so): the exclusivity-checking accesses a Swift task takes
 * with it between threads. A fiber is resumed on any pool thread, so it takes its own the same way. */
extern void swift_task_enterThreadLocalContext(char *state);
extern void swift_task_exitThreadLocalContext(char *state);

/* The sanitizers' fiber interfaces, present only when their runtime is loaded (make sanitize preloads it). */
extern void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size) __attribute__((weak));
extern void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old) __attribute__((weak));
extern void *__tsan_get_current_fiber(void) __attribute__((weak));
extern void *__tsan_create_fiber(unsigned flags) __attribute__((weak));
extern void __tsan_destroy_fiber(void *fiber) __attribute__((weak));
extern void __tsan_switch_to_fiber(void *fiber, unsigned flags) __attribute__((weak));

enum { FIBER_NEW, FIBER_RUNNING, FIBER_SUSPENDED, FIBER_FINISHED };

struct jumpi_fiber {
#if JUMPI_SWITCH_ASM
    void *sp;             /* the fiber's saved stack pointer while it is not running (its registers are there) */
    void *caller_sp;      /* the resuming thread's, while the fiber runs */
#else
    ucontext_t context;   /* the fiber's registers while it is not running */
    ucontext_t *caller;   /* the resuming thread's registers while it runs */
#endif
    void *mapping;        /* guard region + stack */
    size_t mapped;
    void *stack;          /* the usable stack, above the guard region */
    size_t stack_size;
    unsigned valgrind_stack;
    /* Every fiber that exists, for scripts/gdb-fibers.py (which reads `state`, `sp` and this list). */
    struct jumpi_fiber *next_live, *previous_live;
    void (*entry)(void *);
    void *argument;
    int state;
    /* Swift's per-task exclusivity state: two words, zero while the fiber holds no access. */
    _Alignas(void *) char swift_state[2 * sizeof(void *)];
    /* AddressSanitizer: the fiber's fake stack while it is switched out, and the stack it was resumed from. */
    void *asan_fake_stack;
    const void *caller_stack;
    size_t caller_stack_size;
    /* ThreadSanitizer: the fiber's own context and its resumer's. */
    void *tsan_fiber;
    void *tsan_caller;
    /* The deadline of the call the fiber runs (jumpi_call_deadline), 0 for none. */
    int64_t call_deadline;
};

static __thread jumpi_fiber *running_here;
static __thread unsigned locks_held;

__attribute__((noinline)) void jumpi_lock_taken(void) { locks_held++; }
__attribute__((noinline)) void jumpi_lock_released(void) { locks_held--; }
__attribute__((noinline)) unsigned jumpi_locks_held_here(void) { return locks_held; }

/* Functions, never inlined, like the lock count: a caller must not keep a thread-local's address. */
__attribute__((noinline)) jumpi_fiber *jumpi_fiber_current(void) { return running_here; }

__attribute__((noinline)) void *jumpi_fiber_current_argument(void) {
    return running_here != NULL ? running_here->argument : NULL;
}

/* A call's deadline goes with the fiber that runs it, or with the thread a synchronous call runs on: several
 * fibers take turns on one pool thread, and each keeps its own. */
static __thread int64_t thread_call_deadline;
__attribute__((noinline)) int64_t jumpi_call_deadline(void) {
    return running_here != NULL ? running_here->call_deadline : thread_call_deadline;
}
__attribute__((noinline)) void jumpi_call_deadline_set(int64_t deadline) {
    if (running_here != NULL) running_here->call_deadline = deadline;
    else thread_call_deadline = deadline;
}

static __thread void *pool_thread_here;
__attribute__((noinline)) void jumpi_pool_thread_set(void *thread) { pool_thread_here = thread; }
__attribute__((noinline)) void *jumpi_pool_thread_here(void) { return pool_thread_here; }

/* The two steps below are inlined into the function that switches: under ThreadSanitizer every function
 * pushes a frame on the current fiber's shadow stack and pops it on return, so a function that switches
 * fibers between its entry and its return would pop the other fiber's frame. */
#define SWITCH_STEP static inline __attribute__((always_inline))

/* After a switch into the fiber, on its stack. */
SWITCH_STEP void arrived_in_fiber(jumpi_fiber *fiber) {
    if (__sanitizer_finish_switch_fiber)
        __sanitizer_finish_switch_fiber(fiber->asan_fake_stack, &fiber->caller_stack, &fiber->caller_stack_size);
}

/* Before a switch out of the fiber, on its stack (finished: for the last time). */
SWITCH_STEP void leaving_fiber(jumpi_fiber *fiber, int finished) {
    if (__sanitizer_start_switch_fiber)
        __sanitizer_start_switch_fiber(finished ? NULL : &fiber->asan_fake_stack, fiber->caller_stack,
                                       fiber->caller_stack_size);
    if (__tsan_switch_to_fiber) __tsan_switch_to_fiber(fiber->tsan_caller, 0);
}

#if JUMPI_SWITCH_ASM
/* The fiber's first frame (through jumpi_switch_trampoline). */
static void fiber_main(void *argument) {
    jumpi_fiber *fiber = argument;
    arrived_in_fiber(fiber);
    fiber->entry(fiber->argument);
    fiber->state = FIBER_FINISHED;
    leaving_fiber(fiber, 1);
    void *finished_sp;
    jumpi_switch(&finished_sp, fiber->caller_sp);
    abort(); /* a finished fiber is never switched to again */
}
#else
/* The fiber's first frame. Reads the thread-local once, before anything can move it to another thread. */
static void fiber_main(void) {
    jumpi_fiber *fiber = running_here;
    arrived_in_fiber(fiber);
    fiber->entry(fiber->argument);
    fiber->state = FIBER_FINISHED;
    leaving_fiber(fiber, 1);
    setcontext(fiber->caller);
    abort(); /* setcontext returns only on failure, with a valid context it does not */
}
#endif

/* The list of live fibers (for the debugger): a spin lock held for a few instructions. A fork child resets
 * it, since a thread of the parent may have held it. */
static jumpi_fiber *live_fibers;
static char live_busy;
static pthread_once_t live_once = PTHREAD_ONCE_INIT;
static void live_reset_in_child(void) { __atomic_clear(&live_busy, __ATOMIC_RELAXED); }
static void live_setup(void) { pthread_atfork(NULL, NULL, live_reset_in_child); }
static void live_lock(void) {
    while (__atomic_test_and_set(&live_busy, __ATOMIC_ACQUIRE)) {
    }
}
static void live_unlock(void) { __atomic_clear(&live_busy, __ATOMIC_RELEASE); }

static void live_add(jumpi_fiber *fiber) {
    pthread_once(&live_once, live_setup);
    live_lock();
    fiber->next_live = live_fibers;
    fiber->previous_live = NULL;
    if (live_fibers != NULL) live_fibers->previous_live = fiber;
    live_fibers = fiber;
    live_unlock();
}

static void live_remove(jumpi_fiber *fiber) {
    live_lock();
    if (fiber->previous_live != NULL) fiber->previous_live->next_live = fiber->next_live;
    else if (live_fibers == fiber) live_fibers = fiber->next_live;
    if (fiber->next_live != NULL) fiber->next_live->previous_live = fiber->previous_live;
    fiber->next_live = fiber->previous_live = NULL;
    live_unlock();
}

/* Below each stack, never mapped readable: an overflow faults instead of writing into other memory. Far more
 * than a page, because one large frame (a big local array) can step over a single guard page. */
enum { GUARD_BYTES = 64 << 10 };

/* Stacks of finished fibers, kept for the next ones: an operation then costs no mmap, mprotect or munmap (munmap
 * and MADV_DONTNEED interrupt every other core running this process to flush its TLB, which on a busy machine
 * is most of what a stack costs). Up to STACKS_KEPT while work comes: the first STACKS_RESIDENT zeroed, with
 * their pages, the others emptied; once a pool thread has been idle for a while, jumpi_fiber_trim_stacks
 * unmaps all but STACKS_KEPT_IDLE and empties those. Taken with a try-lock only, so nothing here ever waits:
 * when another thread holds it (or a thread of the parent held it at a fork), a stack is mapped or unmapped
 * instead. Off under the sanitizers, whose bookkeeping of a stack ends with the fiber. */
enum { STACKS_KEPT = 1024, STACKS_RESIDENT = 128, STACKS_KEPT_IDLE = 64 };
static struct {
    char busy;
    int count;
    size_t mapped, guard;
    void *mappings[STACKS_KEPT];
} kept_stacks;

static int stacks_reusable(void) { return __sanitizer_start_switch_fiber == NULL && __tsan_create_fiber == NULL; }

static void *take_kept_stack(size_t mapped) {
    void *mapping = NULL;
    if (!stacks_reusable() || __atomic_test_and_set(&kept_stacks.busy, __ATOMIC_ACQUIRE)) return NULL;
    if (kept_stacks.count > 0 && kept_stacks.mapped == mapped) {
        mapping = kept_stacks.mappings[kept_stacks.count - 1];
        __atomic_store_n(&kept_stacks.count, kept_stacks.count - 1, __ATOMIC_RELAXED);
    }
    __atomic_clear(&kept_stacks.busy, __ATOMIC_RELEASE);
    return mapping;
}

/* 1 when kept, 0 when the caller unmaps it. */
static int keep_stack(void *mapping, size_t mapped, size_t guard) {
    int kept = 0;
    if (!stacks_reusable() || __atomic_test_and_set(&kept_stacks.busy, __ATOMIC_ACQUIRE)) return 0;
    if (kept_stacks.count == 0) {
        kept_stacks.mapped = mapped;
        kept_stacks.guard = guard;
    }
    if (kept_stacks.mapped == mapped && kept_stacks.count < STACKS_KEPT) {
        kept_stacks.mappings[kept_stacks.count] = mapping;
        __atomic_store_n(&kept_stacks.count, kept_stacks.count + 1, __ATOMIC_RELAXED);
        kept = 1;
    }
    __atomic_clear(&kept_stacks.busy, __ATOMIC_RELEASE);
    return kept;
}

/* Zeroes what an operation left on a stack, so no token or password outlives it: the pages it touched are the
 * resident ones (mincore), from the deepest up to the top, where a stack starts. Writing zeros costs no TLB
 * shootdown, and the next operation finds those pages mapped. mincore looks 128 KiB at a time from the top (an
 * operation uses 13-16 KiB, so one call) and stops below 64 KiB with nothing resident: a frame that leaves that
 * much untouched would also step over the guard region, which has that size for the same reason. 0 when done, -1 when
 * mincore could not tell (the caller then empties the stack with MADV_DONTNEED). */
static int zero_used_stack(char *stack, size_t size) {
    long page_size = sysconf(_SC_PAGESIZE);
    size_t page = page_size > 0 ? (size_t)page_size : 4096, pages = size / page;
    size_t stretch = GUARD_BYTES / page > 0 ? GUARD_BYTES / page : 1, untouched = 0, top = pages;
    unsigned char resident[256];
    size_t window = 2 * stretch < sizeof resident ? 2 * stretch : sizeof resident; /* one call, as a rule */
    while (top > 0 && untouched < stretch) {
        size_t count = top < window ? top : window, first = top - count;
        if (mincore(stack + first * page, count * page, resident) != 0) return -1;
        /* Only the resident pages: writing to the others would make them resident for nothing. */
        for (size_t i = count; i > 0 && untouched < stretch; i--) {
            if (resident[i - 1] & 1) {
                memset(stack + (first + i - 1) * page, 0, page);
                untouched = 0;
            } else {
                untouched++;
            }
        }
        top = first;
    }
    return 0;
}

/* Zeroed while fewer than STACKS_RESIDENT are kept (the next operation finds its pages mapped), emptied beyond:
 * a burst of a thousand operations keeps a thousand stacks mapped but holds the pages of only a few (1 000
 * zeroed stacks would hold 16 MiB). The count is read without the lock: the budget is a bound, not a figure. */
static void release_stack(void *mapping, size_t mapped, size_t guard) {
    if (!stacks_reusable() || mapped <= guard) {
        munmap(mapping, mapped);
        return;
    }
    char *stack = (char *)mapping + guard;
    /* memcheck marks a finished stack inaccessible below where its fiber's stack pointer last was. */
    (void)VALGRIND_MAKE_MEM_UNDEFINED(stack, mapped - guard);
    int few = __atomic_load_n(&kept_stacks.count, __ATOMIC_RELAXED) < STACKS_RESIDENT;
    if (!few || zero_used_stack(stack, mapped - guard) != 0) madvise(stack, mapped - guard, MADV_DONTNEED);
    if (!keep_stack(mapping, mapped, guard)) munmap(mapping, mapped);
}

void jumpi_fiber_trim_stacks(void) {
    void *surplus[STACKS_KEPT];
    int count = 0;
    size_t mapped = 0, guard = 0;
    if (__atomic_test_and_set(&kept_stacks.busy, __ATOMIC_ACQUIRE)) return;
    while (kept_stacks.count > STACKS_KEPT_IDLE) {
        surplus[count++] = kept_stacks.mappings[kept_stacks.count - 1];
        __atomic_store_n(&kept_stacks.count, kept_stacks.count - 1, __ATOMIC_RELAXED);
    }
    mapped = kept_stacks.mapped;
    guard = kept_stacks.guard;
    /* The idle ones give their pages back too: a process that has gone quiet keeps no stack memory. */
    for (int i = 0; i < kept_stacks.count && mapped > guard; i++)
        madvise((char *)kept_stacks.mappings[i] + guard, mapped - guard, MADV_DONTNEED);
    __atomic_clear(&kept_stacks.busy, __ATOMIC_RELEASE);
    for (int i = 0; i < count; i++) munmap(surplus[i], mapped);
}

jumpi_fiber *jumpi_fiber_new(size_t stack_bytes, void (*entry)(void *), void *argument) {
    long page_size = sysconf(_SC_PAGESIZE);
    size_t page = page_size > 0 ? (size_t)page_size : 4096;
    if (entry == NULL || stack_bytes > ((size_t)1 << 30)) return NULL;
    size_t usable = (stack_bytes + page - 1) / page * page;
    if (usable < 16 * page) usable = 16 * page;
    size_t guard = (GUARD_BYTES + page - 1) / page * page;
    jumpi_fiber *fiber = calloc(1, sizeof *fiber);
    if (fiber == NULL) return NULL;
    fiber->mapped = usable + guard;
    fiber->mapping = take_kept_stack(fiber->mapped);
    if (fiber->mapping == NULL) {
        fiber->mapping = mmap(NULL, fiber->mapped, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (fiber->mapping == MAP_FAILED) {
            free(fiber);
            return NULL;
        }
        if (mprotect(fiber->mapping, guard, PROT_NONE) != 0) {
            munmap(fiber->mapping, fiber->mapped);
            free(fiber);
            return NULL;
        }
    }
    fiber->stack = (char *)fiber->mapping + guard;
    fiber->stack_size = usable;
    fiber->entry = entry;
    fiber->argument = argument;
    fiber->state = FIBER_NEW;
#if JUMPI_SWITCH_ASM
    fiber->sp = jumpi_switch_prepare(fiber->stack, fiber->stack_size, fiber_main, fiber);
#else
    if (getcontext(&fiber->context) != 0) {
        release_stack(fiber->mapping, fiber->mapped, guard);
        free(fiber);
        return NULL;
    }
    fiber->context.uc_stack.ss_sp = fiber->stack;
    fiber->context.uc_stack.ss_size = fiber->stack_size;
    fiber->context.uc_link = NULL;
    makecontext(&fiber->context, fiber_main, 0);
#endif
    fiber->valgrind_stack = VALGRIND_STACK_REGISTER(fiber->stack, (char *)fiber->stack + fiber->stack_size);
    if (__tsan_create_fiber) fiber->tsan_fiber = __tsan_create_fiber(0);
    live_add(fiber);
    return fiber;
}

void jumpi_fiber_set_argument(jumpi_fiber *fiber, void *argument) {
    if (fiber != NULL && fiber->state == FIBER_NEW) fiber->argument = argument;
}

int jumpi_fiber_resume(jumpi_fiber *fiber) {
    if (fiber == NULL || running_here != NULL) return -1;
    if (fiber->state != FIBER_NEW && fiber->state != FIBER_SUSPENDED) return -1;
#if !JUMPI_SWITCH_ASM
    ucontext_t here;
    memset(&here, 0, sizeof here);
    fiber->caller = &here;
#endif
    fiber->state = FIBER_RUNNING;
    running_here = fiber;
    swift_task_enterThreadLocalContext(fiber->swift_state);
    void *fake_stack = NULL;
    if (__sanitizer_start_switch_fiber) __sanitizer_start_switch_fiber(&fake_stack, fiber->stack, fiber->stack_size);
    if (__tsan_switch_to_fiber) {
        fiber->tsan_caller = __tsan_get_current_fiber();
        __tsan_switch_to_fiber(fiber->tsan_fiber, 0);
    }
#if JUMPI_SWITCH_ASM
    jumpi_switch(&fiber->caller_sp, fiber->sp);
    int switched = 0;
#else
    int switched = swapcontext(&here, &fiber->context);
#endif
    if (__sanitizer_finish_switch_fiber) __sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
    swift_task_exitThreadLocalContext(fiber->swift_state);
    running_here = NULL;
    if (switched != 0) {
        fiber->state = FIBER_SUSPENDED; /* never ran: it can be resumed again */
        return -1;
    }
    return fiber->state == FIBER_FINISHED ? 1 : 0;
}

int jumpi_fiber_suspend(void) {
    jumpi_fiber *fiber = running_here;
    if (fiber == NULL) return -1;
    fiber->state = FIBER_SUSPENDED;
    leaving_fiber(fiber, 0);
    /* Only `fiber` is used from here on, never the thread-local: a fiber that has run no host code may be
     * handed to another thread while its own is blocked (docs/design-io.md). */
#if JUMPI_SWITCH_ASM
    jumpi_switch(&fiber->sp, fiber->caller_sp);
    if (0) {
#else
    if (swapcontext(&fiber->context, fiber->caller) != 0) {
#endif
        arrived_in_fiber(fiber);
        fiber->state = FIBER_RUNNING;
        return -1;
    }
    arrived_in_fiber(fiber);
    return 0;
}

void jumpi_fiber_free(jumpi_fiber *fiber) {
    if (fiber == NULL || fiber->state == FIBER_RUNNING || fiber->state == FIBER_SUSPENDED) return;
    if (fiber->tsan_fiber != NULL && __tsan_destroy_fiber) __tsan_destroy_fiber(fiber->tsan_fiber);
    live_remove(fiber);
    VALGRIND_STACK_DEREGISTER(fiber->valgrind_stack);
    release_stack(fiber->mapping, fiber->mapped, (size_t)((char *)fiber->stack - (char *)fiber->mapping));
    free(fiber);
}
