#ifndef JUMP_CFIBER_H
#define JUMP_CFIBER_H
/*
 * Fibers: an _async operation's stack, so that the operation can wait for its answer without holding a
 * thread (docs/design-io.md). A fiber goes on on the pool thread that first ran it and gives the thread back
 * at each wait. A register switch does the switching (switch.h; ucontext elsewhere); ThreadSanitizer,
 * AddressSanitizer and Valgrind are told of each stack and switch, and Swift's exclusivity-checking state is
 * the fiber's own, as it is a Swift task's.
 */
#include <stddef.h>
#include <stdint.h>

/* Internal to libjump.so: never exported (the version script exports jump_* names). */
#pragma GCC visibility push(hidden)

typedef struct jumpi_fiber jumpi_fiber;

/* A fiber that will run entry(argument) on a stack of stack_bytes (rounded up to pages, plus a 64 KiB guard),
 * reserved but only touched as used. NULL when the system gives no memory. Owned by the caller until
 * jumpi_fiber_free. */
jumpi_fiber *jumpi_fiber_new(size_t stack_bytes, void (*entry)(void *), void *argument);

/* Replaces the argument entry will get (before the fiber first runs). */
void jumpi_fiber_set_argument(jumpi_fiber *fiber, void *argument);

/* Runs the fiber on the calling thread until it suspends or its entry returns: 1 when it has finished,
 * 0 when it suspended (resume it again later, from any thread), -1 when it could not be resumed (it has
 * finished, or runs elsewhere). Never called from inside a fiber. */
int jumpi_fiber_resume(jumpi_fiber *fiber);

/* From inside a fiber: gives the thread back to whoever resumed it (jumpi_fiber_resume returns 0). Returns
 * when the fiber is resumed again, perhaps on another thread. 0 on success, -1 outside a fiber. */
int jumpi_fiber_suspend(void);

/* The fiber running on this thread, or NULL on a thread's own stack. */
jumpi_fiber *jumpi_fiber_current(void);

/* The argument the running fiber was made with (NULL on a thread's own stack). */
void *jumpi_fiber_current_argument(void);

/* Frees a fiber that has finished or never ran: its stack is zeroed where it was used and kept for the next
 * fiber, or unmapped. */
void jumpi_fiber_free(jumpi_fiber *fiber);

/* Unmaps the kept stacks beyond a few, and empties those (MADV_DONTNEED): for a pool that has gone idle. */
void jumpi_fiber_trim_stacks(void);

/* How many of libjump's locks (Lock.withLock) this thread holds. A fiber never parks while its thread holds
 * one: the fiber could go on on another thread, and a fiber run meanwhile on this one would wait for a mutex
 * its own thread holds. Functions, not inline code: a caller that inlined the thread-local's address could
 * keep it across a switch and go on counting in the thread the fiber left. */
void jumpi_lock_taken(void);
/* The pool thread running on this thread (FiberPool's), or NULL: set once by the thread itself. */
void jumpi_pool_thread_set(void *thread);
void *jumpi_pool_thread_here(void);
void jumpi_lock_released(void);
unsigned jumpi_locks_held_here(void);

/* The deadline (CLOCK_MONOTONIC milliseconds, 0 for none) of the call in progress: the running fiber's own,
 * or on a thread's own stack the thread's. Functions for the same reason as the lock count. */
int64_t jumpi_call_deadline(void);
void jumpi_call_deadline_set(int64_t deadline);

#pragma GCC visibility pop

#endif
