/* bench_load.h - fills a benchmark's `jump` table (one function pointer per name in its JUMP_FUNCTIONS
 * list) from a dlopen'd libjump; the file's own die(what, detail) reports a missing symbol. */
#ifndef JUMP_BENCH_LOAD_H
#define JUMP_BENCH_LOAD_H

#include <dlfcn.h>
#include <string.h>

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
