/* bench_load.h - fills a benchmark's `jump` table (one function pointer per name in its JUMP_FUNCTIONS
 * list) from a dlopen'd libjump; the file's own die(what, detail) reports a missing symbol. */
#ifndef JUMP_BENCH_LOAD_H
#define JUMP_BENCH_LOAD_H

#include <dlfcn.h>
#include <string.h>

/* The `jump` table itself (one member per JUMP_FUNCTIONS name), and the file's die() under its program
 * name: BENCH_JUMP_TABLE; BENCH_DIE("bench_x"); */
#define BENCH_JUMP_MEMBER_(name) __typeof__(&jump_##name) name;
#define BENCH_JUMP_TABLE static struct { JUMP_FUNCTIONS(BENCH_JUMP_MEMBER_) } jump
#define BENCH_DIE(program)                                                                                \
    static void die(const char *what, const char *detail) {                                               \
        fprintf(stderr, program ": %s: %s\n", what, detail ? detail : "");                                 \
        exit(1);                                                                                          \
    }                                                                                                     \
    typedef int bench_die_defined_

#define BENCH_RESOLVE_JUMP_(name)                                                                        \
    {                                                                                                     \
        void *symbol = dlsym(bench_library_, "jump_" #name);                                              \
        if (symbol == NULL) die("dlsym", "jump_" #name);                                                  \
        memcpy(&jump.name, &symbol, sizeof symbol);                                                       \
    }

#define BENCH_LOAD_JUMP(library)                                                                          \
    do {                                                                                                  \
        void *bench_library_ = (library);                                                                 \
        JUMP_FUNCTIONS(BENCH_RESOLVE_JUMP_)                                                               \
    } while (0)

#endif
