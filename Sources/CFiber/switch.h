/*
 * switch.h - the register switch between a thread's stack and a fiber's: the callee-saved registers go on
 * the stack being left, the stack pointer into *from, and the other stack's are restored, as Boost.Context's
 * fcontext does. No system call: glibc's swapcontext also saves and restores the signal mask
 * (rt_sigprocmask) at every switch, which a fiber does not need (a thread keeps its own mask).
 *
 * Private to libjump (included by fiber.c) and by the standalone test Tests/fiber/switch_test.c, which runs
 * the aarch64 version under qemu-user. JUMPI_SWITCH_ASM is 1 where one is written (x86_64, aarch64); other
 * architectures use ucontext.
 */
#ifndef JUMPI_SWITCH_H
#define JUMPI_SWITCH_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__aarch64__)
#define JUMPI_SWITCH_ASM 1

/* Saves the caller's registers on its stack, stores that stack pointer in *from, and goes on where `to` was
 * saved (a previous jumpi_switch, or a stack prepared by jumpi_switch_prepare). */
void jumpi_switch(void **from, void *to) __attribute__((visibility("hidden")));
/* The first frame of a prepared stack: calls entry(argument), which must never return. */
void jumpi_switch_trampoline(void) __attribute__((visibility("hidden")));

#if defined(__x86_64__)
/* Frame (from the saved stack pointer up): mxcsr + x87 control word (8 bytes), r12, r13, r14, r15, rbx, rbp,
 * the return address. The trampoline gets entry in r13 and its argument in r12. */
__asm__(
    ".text\n"
    ".globl jumpi_switch\n"
    ".hidden jumpi_switch\n"
    ".type jumpi_switch,@function\n"
    ".p2align 4\n"
    "jumpi_switch:\n"
    "    .cfi_startproc\n"
    "    pushq %rbp\n"
    "    pushq %rbx\n"
    "    pushq %r15\n"
    "    pushq %r14\n"
    "    pushq %r13\n"
    "    pushq %r12\n"
    "    subq $8, %rsp\n"
    "    stmxcsr (%rsp)\n"
    "    fnstcw 4(%rsp)\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    ldmxcsr (%rsp)\n"
    "    fldcw 4(%rsp)\n"
    "    addq $8, %rsp\n"
    "    popq %r12\n"
    "    popq %r13\n"
    "    popq %r14\n"
    "    popq %r15\n"
    "    popq %rbx\n"
    "    popq %rbp\n"
    "    ret\n"
    "    .cfi_endproc\n"
    ".size jumpi_switch,.-jumpi_switch\n"
    ".globl jumpi_switch_trampoline\n"
    ".hidden jumpi_switch_trampoline\n"
    ".type jumpi_switch_trampoline,@function\n"
    ".p2align 4\n"
    "jumpi_switch_trampoline:\n"
    "    .cfi_startproc\n"
    "    .cfi_undefined rip\n" /* the outermost frame: backtraces end here */
    "    movq %r12, %rdi\n"
    "    callq *%r13\n"
    "    ud2\n"
    "    .cfi_endproc\n"
    ".size jumpi_switch_trampoline,.-jumpi_switch_trampoline\n");

enum { JUMPI_SWITCH_FRAME_WORDS = 8 };

/* Lays out a first frame at the top of [stack, stack + size): returns the stack pointer to switch to. */
static inline void *jumpi_switch_prepare(void *stack, size_t size, void (*entry)(void *), void *argument) {
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    /* After the final ret the trampoline runs with rsp 16-aligned, so its call leaves the callee's frame as
     * the ABI wants (rsp + 8 aligned at entry). */
    uint64_t *frame = (uint64_t *)(top - 16 - JUMPI_SWITCH_FRAME_WORDS * 8);
    frame[0] = 0x1F80 | ((uint64_t)0x037F << 32); /* default mxcsr; default x87 control word */
    frame[1] = (uint64_t)(uintptr_t)argument;      /* r12 */
    frame[2] = (uint64_t)(uintptr_t)entry;         /* r13 */
    frame[3] = frame[4] = frame[5] = frame[6] = 0; /* r14, r15, rbx, rbp */
    frame[7] = (uint64_t)(uintptr_t)jumpi_switch_trampoline;
    return frame;
}

#elif defined(__aarch64__)
/* Frame (160 bytes from the saved sp): x19..x28, x29 (fp), x30 (lr), d8..d15. The trampoline gets its
 * argument in x19 and entry in x20. */
__asm__(
    ".text\n"
    ".globl jumpi_switch\n"
    ".hidden jumpi_switch\n"
    ".type jumpi_switch,%function\n"
    ".p2align 4\n"
    "jumpi_switch:\n"
    "    sub sp, sp, #160\n"
    "    stp x19, x20, [sp, #0]\n"
    "    stp x21, x22, [sp, #16]\n"
    "    stp x23, x24, [sp, #32]\n"
    "    stp x25, x26, [sp, #48]\n"
    "    stp x27, x28, [sp, #64]\n"
    "    stp x29, x30, [sp, #80]\n"
    "    stp d8, d9, [sp, #96]\n"
    "    stp d10, d11, [sp, #112]\n"
    "    stp d12, d13, [sp, #128]\n"
    "    stp d14, d15, [sp, #144]\n"
    "    mov x9, sp\n"
    "    str x9, [x0]\n"
    "    mov sp, x1\n"
    "    ldp x19, x20, [sp, #0]\n"
    "    ldp x21, x22, [sp, #16]\n"
    "    ldp x23, x24, [sp, #32]\n"
    "    ldp x25, x26, [sp, #48]\n"
    "    ldp x27, x28, [sp, #64]\n"
    "    ldp x29, x30, [sp, #80]\n"
    "    ldp d8, d9, [sp, #96]\n"
    "    ldp d10, d11, [sp, #112]\n"
    "    ldp d12, d13, [sp, #128]\n"
    "    ldp d14, d15, [sp, #144]\n"
    "    add sp, sp, #160\n"
    "    ret\n"
    ".size jumpi_switch,.-jumpi_switch\n"
    ".globl jumpi_switch_trampoline\n"
    ".hidden jumpi_switch_trampoline\n"
    ".type jumpi_switch_trampoline,%function\n"
    ".p2align 4\n"
    "jumpi_switch_trampoline:\n"
    "    .cfi_startproc\n"
    "    .cfi_undefined x30\n" /* the outermost frame: backtraces end here */
    "    mov x29, #0\n"
    "    mov x0, x19\n"
    "    blr x20\n"
    "    brk #0\n"
    "    .cfi_endproc\n"
    ".size jumpi_switch_trampoline,.-jumpi_switch_trampoline\n");

enum { JUMPI_SWITCH_FRAME_WORDS = 20 };

static inline void *jumpi_switch_prepare(void *stack, size_t size, void (*entry)(void *), void *argument) {
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    uint64_t *frame = (uint64_t *)(top - JUMPI_SWITCH_FRAME_WORDS * 8);
    for (int i = 0; i < JUMPI_SWITCH_FRAME_WORDS; i++) frame[i] = 0;
    frame[0] = (uint64_t)(uintptr_t)argument;  /* x19 */
    frame[1] = (uint64_t)(uintptr_t)entry;     /* x20 */
    frame[11] = (uint64_t)(uintptr_t)jumpi_switch_trampoline; /* x30: where the first ret goes */
    return frame;
}
#endif

#else
#define JUMPI_SWITCH_ASM 0
#endif

#endif
