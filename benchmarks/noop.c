/* noop.c - the baseline for bench_ffi.py: C functions that do nothing, with the same C signatures as the
 * jump_* functions measured, so a ratio isolates what libjump itself costs per call (ctypes' own argument
 * and result conversion is the same on both sides). Built by bench_ffi.py into build/bench/libnoop.so. */
#include <stdint.h>

/* like int32_t jump_abi_version(void) */
int32_t noop_int(void) { return 1; }

/* like int jump_client_is_signed_in(jump_client *) */
int noop_ptr(void *handle) { return handle != 0; }

/* like const char *jump_status_str(jump_status) */
const char *noop_str(int status) { return status == 0 ? "success" : "failure"; }
