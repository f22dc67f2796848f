/* jump_loader.c - see jump_loader.h. */
#include "jump_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

jump_api J;

#define JUMP_LOADER_COUNT(name) +1
const int jump_api_function_count = 0 JUMP_API_FUNCTIONS(JUMP_LOADER_COUNT);
#undef JUMP_LOADER_COUNT

static void *library_handle;

const char *jump_library_path(void) {
    const char *path = getenv("JUMP_LIBRARY_PATH");
    return (path != NULL && path[0] != '\0') ? path : "build/lib/libjump.so";
}

int jump_load(char *err, size_t err_size) {
    const char *path = jump_library_path();
    size_t used = 0;
    int missing = 0;
    void *handle;

    if (err_size > 0) err[0] = '\0';
    if (library_handle != NULL) return 0;

    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(err, err_size, "cannot load %s: %s", path, why != NULL ? why : "unknown dlopen error");
        return -1;
    }

    /* ISO C has no conversion between object and function pointers; copy the bits (POSIX guarantees the
     * representation is the same). */
#define JUMP_LOADER_RESOLVE(name)                                                                          \
    {                                                                                                      \
        void *symbol;                                                                                      \
        dlerror();                                                                                         \
        symbol = dlsym(handle, "jump_" #name);                                                             \
        if (symbol == NULL) {                                                                              \
            if (missing == 0) {                                                                            \
                int n = snprintf(err, err_size, "%s does not export:", path);                              \
                used = n > 0 ? (size_t)n : 0;                                                              \
            }                                                                                              \
            missing++;                                                                                     \
            if (used < err_size) {                                                                         \
                int n = snprintf(err + used, err_size - used, " jump_%s", #name);                          \
                used += n > 0 ? (size_t)n : 0;                                                             \
            }                                                                                              \
        } else {                                                                                           \
            memcpy(&J.name, &symbol, sizeof J.name);                                                       \
        }                                                                                                  \
    }
    JUMP_API_FUNCTIONS(JUMP_LOADER_RESOLVE)
#undef JUMP_LOADER_RESOLVE

    if (missing > 0) {
        memset(&J, 0, sizeof J);
        /* Never dlclose: the library is documented as non-unloadable. */
        return -1;
    }
    library_handle = handle;
    return 0;
}
