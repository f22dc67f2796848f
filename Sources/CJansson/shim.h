#ifndef JUMP_CJANSSON_SHIM_H
#define JUMP_CJANSSON_SHIM_H
#include <jansson.h>
#include <malloc.h>

/* jansson's refcount helpers are inline/macros; these give Swift a stable name for them. */
static inline json_t *jumpi_json_incref(json_t *json) { return json_incref(json); }
static inline void jumpi_json_decref(json_t *json) { json_decref(json); }
static inline int jumpi_json_typeof(const json_t *json) { return (int)json_typeof(json); }

/* A large jansson tree is freed in small chunks that glibc keeps: this returns their free pages to the
 * system (glibc's malloc_trim; nothing elsewhere). */
static inline void jumpi_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

#endif
