/*
 * jump_loader.h - loads libjump.so with dlopen and resolves every function of include/jump.h.
 *
 * The tests never link against libjump: they call it through `J`, a struct of function pointers whose
 * types are taken from the header with __typeof__(&jump_xxx), so the compiler checks every call against
 * the header's prototypes. JUMP_API_FUNCTIONS lists every function the header declares: it is generated from
 * include/jump_api.json, which Tests/abi/check_abi.py compares with the header and the library's exports.
 */
#ifndef JUMP_TEST_LOADER_H
#define JUMP_TEST_LOADER_H

/* jansson first: jump.h names `struct json_t` in prototypes. */
#include <jansson.h>
#include "jump.h"

#include "jump_loader_generated.inc" /* JUMP_API_FUNCTIONS, JUMP_API_STATUS_NAMES (make generate) */

typedef struct jump_api {
#define JUMP_LOADER_MEMBER(name) __typeof__(&jump_##name) name;
    JUMP_API_FUNCTIONS(JUMP_LOADER_MEMBER)
#undef JUMP_LOADER_MEMBER
} jump_api;

/* The resolved functions; valid after jump_load() returned 0. */
extern jump_api J;

/* Number of functions in JUMP_API_FUNCTIONS. */
extern const int jump_api_function_count;

/* Loads the library named by $JUMP_LIBRARY_PATH, else build/lib/libjump.so (RTLD_NOW), and resolves every
 * function. Returns 0 on success; otherwise writes a description (which file, which symbols are missing)
 * into err and returns -1. Loading twice is a no-op. */
int jump_load(char *err, size_t err_size);

/* The path that was (or will be) loaded. */
const char *jump_library_path(void);

#endif
