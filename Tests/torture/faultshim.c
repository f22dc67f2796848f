/*
 * faultshim.c - an LD_PRELOAD library that makes chosen libc storage calls fail, for the torture suite.
 *
 * libjump's session store (Swift's Glibc module) calls libc's open/write/fsync/rename/unlink through the
 * PLT, so symbols defined here win over libc's. Only calls on paths containing FAULT_PATH_SUBSTR are
 * touched (the storage directory), so the driver's ledger, sockets and libraries are never affected.
 *
 *   FAULT_OP           comma-separated: open_creat, write, fsync, rename, unlink
 *   FAULT_ERRNO        ENOSPC (default), EROFS, EIO, EACCES
 *   FAULT_AFTER        let this many matching calls succeed first (default 0)
 *   FAULT_COUNT        fail at most this many calls (default: all after FAULT_AFTER)
 *   FAULT_PATH_SUBSTR  required; without it the shim does nothing
 *   FAULT_LOG          file that gets one line per injected failure ("<op> <path>")
 *
 * Built with: cc -shared -fPIC -o faultshim.so faultshim.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

enum { OP_OPEN_CREAT = 1, OP_WRITE = 2, OP_FSYNC = 4, OP_RENAME = 8, OP_UNLINK = 16 };

static int ops;               /* OP_* mask; 0: inactive */
static int fault_errno = ENOSPC;
static long fault_after;
static long fault_count = -1; /* -1: unlimited */
static const char *substr;
static int log_fd = -1;
static long matched;          /* matching calls seen (atomic) */
static long injected;         /* failures injected (atomic) */

__attribute__((constructor)) static void shim_init(void) {
    const char *op = getenv("FAULT_OP");
    const char *err = getenv("FAULT_ERRNO");
    const char *log = getenv("FAULT_LOG");
    substr = getenv("FAULT_PATH_SUBSTR");
    if (op == NULL || substr == NULL || substr[0] == '\0') return;
    if (strstr(op, "open_creat")) ops |= OP_OPEN_CREAT;
    if (strstr(op, "write")) ops |= OP_WRITE;
    if (strstr(op, "fsync")) ops |= OP_FSYNC;
    if (strstr(op, "rename")) ops |= OP_RENAME;
    if (strstr(op, "unlink")) ops |= OP_UNLINK;
    if (err != NULL) {
        if (strcmp(err, "EROFS") == 0) fault_errno = EROFS;
        else if (strcmp(err, "EIO") == 0) fault_errno = EIO;
        else if (strcmp(err, "EACCES") == 0) fault_errno = EACCES;
        else fault_errno = ENOSPC;
    }
    if (getenv("FAULT_AFTER") != NULL) fault_after = atol(getenv("FAULT_AFTER"));
    if (getenv("FAULT_COUNT") != NULL) fault_count = atol(getenv("FAULT_COUNT"));
    /* A raw syscall: open() here would be our own wrapper. */
    if (log != NULL) log_fd = (int)syscall(SYS_openat, AT_FDCWD, log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
}

static int path_matches(const char *path) { return path != NULL && strstr(path, substr) != NULL; }

static int fd_matches(int fd) {
    char link[64], target[4096];
    ssize_t n;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, target, sizeof target - 1);
    if (n <= 0) return 0;
    target[n] = '\0';
    return path_matches(target);
}

/* Decides one matching call: 1 = fail it (errno set). Logs the injection. */
static int inject(const char *op, const char *path) {
    long seen = __atomic_fetch_add(&matched, 1, __ATOMIC_SEQ_CST);
    if (seen < fault_after) return 0;
    if (fault_count >= 0 && __atomic_load_n(&injected, __ATOMIC_SEQ_CST) >= fault_count) return 0;
    __atomic_fetch_add(&injected, 1, __ATOMIC_SEQ_CST);
    if (log_fd >= 0) {
        char line[4200];
        int n = snprintf(line, sizeof line, "%s %s\n", op, path != NULL ? path : "?");
        if (n > 0) syscall(SYS_write, log_fd, line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1));
    }
    errno = fault_errno;
    return 1;
}

static int fd_inject(const char *op, int fd) {
    char link[64], target[4096];
    ssize_t n;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, target, sizeof target - 1);
    target[n > 0 ? n : 0] = '\0';
    return inject(op, target);
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* ---- open family: only creating opens fail (reads of the saved session keep working) ---- */

static int open_common(int dirfd, const char *path, int flags, mode_t mode, int at) {
    if ((ops & OP_OPEN_CREAT) && (flags & O_CREAT) && path_matches(path) && inject("open_creat", path)) return -1;
    return at ? (int)syscall(SYS_openat, dirfd, path, flags, mode) : (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

#define MODE_ARG(flags)                                                                                     \
    mode_t mode = 0;                                                                                        \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                                                  \
        va_list ap;                                                                                         \
        va_start(ap, flags);                                                                                \
        mode = (mode_t)va_arg(ap, int);                                                                     \
        va_end(ap);                                                                                         \
    }

int open(const char *path, int flags, ...) { MODE_ARG(flags) return open_common(AT_FDCWD, path, flags, mode, 0); }
int open64(const char *path, int flags, ...) { MODE_ARG(flags) return open_common(AT_FDCWD, path, flags, mode, 0); }
int openat(int dirfd, const char *path, int flags, ...) { MODE_ARG(flags) return open_common(dirfd, path, flags, mode, 1); }
int openat64(int dirfd, const char *path, int flags, ...) { MODE_ARG(flags) return open_common(dirfd, path, flags, mode, 1); }

/* ---- data ---- */

ssize_t write(int fd, const void *buf, size_t count) {
    static __typeof__(&write) real;
    if (real == NULL) real = REAL(write);
    if ((ops & OP_WRITE) && fd > 2 && fd_matches(fd) && fd_inject("write", fd)) return -1;
    return real(fd, buf, count);
}

int fsync(int fd) {
    static __typeof__(&fsync) real;
    if (real == NULL) real = REAL(fsync);
    if ((ops & OP_FSYNC) && fd_matches(fd) && fd_inject("fsync", fd)) return -1;
    return real(fd);
}

int fdatasync(int fd) {
    static __typeof__(&fdatasync) real;
    if (real == NULL) real = REAL(fdatasync);
    if ((ops & OP_FSYNC) && fd_matches(fd) && fd_inject("fsync", fd)) return -1;
    return real(fd);
}

/* ---- names ---- */

int rename(const char *from, const char *to) {
    static __typeof__(&rename) real;
    if (real == NULL) real = REAL(rename);
    if ((ops & OP_RENAME) && (path_matches(from) || path_matches(to)) && inject("rename", to)) return -1;
    return real(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
    static __typeof__(&renameat) real;
    if (real == NULL) real = REAL(renameat);
    if ((ops & OP_RENAME) && (path_matches(from) || path_matches(to)) && inject("rename", to)) return -1;
    return real(fromfd, from, tofd, to);
}

int unlink(const char *path) {
    static __typeof__(&unlink) real;
    if (real == NULL) real = REAL(unlink);
    /* The temp file removed after a failed save is not a store change: never fail that one. */
    if ((ops & OP_UNLINK) && path_matches(path) && strstr(path, ".tmp-") == NULL && inject("unlink", path)) return -1;
    return real(path);
}

int unlinkat(int dirfd, const char *path, int flags) {
    static __typeof__(&unlinkat) real;
    if (real == NULL) real = REAL(unlinkat);
    if ((ops & OP_UNLINK) && path_matches(path) && strstr(path, ".tmp-") == NULL && inject("unlink", path)) return -1;
    return real(dirfd, path, flags);
}
