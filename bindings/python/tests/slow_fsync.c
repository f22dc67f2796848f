/*
 * slow_fsync.c - an LD_PRELOAD shim for test_busy_client.py: while the file named by $JUMP_TEST_FSYNC_FLAG
 * exists, fsync and fdatasync take $JUMP_TEST_FSYNC_MS longer, as on a busy or network file system.
 * slow_fsync_running says how many are in progress (read through ctypes by the process that preloads this).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int slow_fsync_running, slow_fsync_count;

static void slow_down(void) {
    const char *flag = getenv("JUMP_TEST_FSYNC_FLAG");
    if (flag == NULL || access(flag, F_OK) != 0) return;
    const char *ms = getenv("JUMP_TEST_FSYNC_MS");
    long delay = ms != NULL ? atol(ms) : 2000;
    __atomic_add_fetch(&slow_fsync_count, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&slow_fsync_running, 1, __ATOMIC_SEQ_CST);
    struct timespec pause = {delay / 1000, (delay % 1000) * 1000000L};
    while (nanosleep(&pause, &pause) != 0) {
    }
    __atomic_sub_fetch(&slow_fsync_running, 1, __ATOMIC_SEQ_CST);
}

int fsync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    slow_down();
    return real != NULL ? real(fd) : 0;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    slow_down();
    return real != NULL ? real(fd) : 0;
}
