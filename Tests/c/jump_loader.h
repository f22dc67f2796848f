/*
 * jump_loader.h - loads libjump.so with dlopen and resolves every function of include/jump.h.
 *
 * The tests never link against libjump: they call it through `J`, a struct of function pointers whose
 * types are taken from the header with __typeof__(&jump_xxx), so the compiler checks every call against
 * the header's prototypes. JUMP_API_FUNCTIONS must list every function the header declares (the ABI check
 * Tests/abi/check_abi.py compares the header with the library's exports).
 */
#ifndef JUMP_TEST_LOADER_H
#define JUMP_TEST_LOADER_H

/* jansson first: jump.h names `struct json_t` in prototypes. */
#include <jansson.h>
#include "jump.h"

#define JUMP_API_FUNCTIONS(X)                                                                              \
    X(version)                                                                                             \
    X(version_number)                                                                                      \
    X(abi_version)                                                                                         \
    X(status_str)                                                                                          \
    X(error_last)                                                                                          \
    X(error_last_jansson)                                                                                  \
    X(string_free)                                                                                         \
    X(set_log_callback)                                                                                    \
    X(config_new)                                                                                          \
    X(config_from_json)                                                                                    \
    X(config_from_jansson)                                                                                 \
    X(config_set_string)                                                                                   \
    X(config_set_bool)                                                                                     \
    X(config_set_int)                                                                                      \
    X(config_set_storage)                                                                                  \
    X(config_to_json)                                                                                      \
    X(config_to_jansson)                                                                                   \
    X(config_free)                                                                                         \
    X(client_new)                                                                                          \
    X(client_free)                                                                                         \
    X(client_state)                                                                                        \
    X(client_is_signed_in)                                                                                 \
    X(client_restore)                                                                                      \
    X(client_erase_quarantine)                                                                             \
    X(client_load_flow)                                                                                    \
    X(client_register_traditional)                                                                         \
    X(client_register_traditional_jansson)                                                                 \
    X(client_register_traditional_async)                                                                   \
    X(client_sign_in)                                                                                      \
    X(client_sign_in_async)                                                                                \
    X(client_sign_out)                                                                                     \
    X(client_record)                                                                                       \
    X(client_fetch_record)                                                                                 \
    X(client_fetch_record_async)                                                                           \
    X(client_sync)                                                                                         \
    X(client_sync_async)                                                                                   \
    X(client_load_schema)                                                                                  \
    X(client_update_profile)                                                                               \
    X(client_update_profile_async)                                                                         \
    X(client_change_password)                                                                              \
    X(client_change_password_async)                                                                        \
    X(client_forgot_password)                                                                              \
    X(client_forgot_password_async)                                                                        \
    X(client_resend_verification_email)                                                                    \
    X(client_resend_verification_email_async)                                                              \
    X(sign_in_token_decode)                                                                                \
    X(client_sign_in_with_token)                                                                           \
    X(client_sign_in_with_token_async)                                                                     \
    X(client_use_api_key)                                                                                  \
    X(client_status)                                                                                       \
    X(client_identify_external_user)                                                                       \
    X(client_request)                                                                                      \
    X(client_use_web_login)                                                                                \
    X(client_access_token)                                                                                 \
    X(client_refresh_access_token)                                                                         \
    X(client_credentials)                                                                                  \
    X(client_credentials_async)                                                                            \
    X(client_has_valid_credentials)                                                                        \
    X(client_set_event_callback)                                                                           \
    X(client_set_dispatcher)                                                                               \
    X(client_use_event_queue)                                                                              \
    X(client_event_fd)                                                                                     \
    X(client_next_event)                                                                                   \
    X(client_load_engage_config)                                                                   \
    X(client_providers)                                                                            \
    X(client_social_begin)                                                                         \
    X(client_social_complete)                                                                      \
    X(client_social_complete_async)                                                                \
    X(client_social_sign_in_loopback)                                                              \
    X(client_social_sign_in_loopback_async)                                                        \
    X(client_social_sign_in_native)                                                                \
    X(client_social_sign_in_native_async)                                                          \
    X(client_set_token_url)                                                                        \
    X(client_register_social)                                                                      \
    X(client_register_social_async)                                                                \
    X(client_sign_in_merge)                                                                        \
    X(client_sign_in_merge_async)                                                                  \
    X(client_linked_profiles)                                                                      \
    X(client_unlink_account)                                                                       \
    X(client_unlink_account_async)                                                                 \
    X(client_share)                                                                                \
    X(client_share_async)                                                                          \
    X(client_share_content)                                                                        \
    X(record_get)                                                                                          \
    X(record_get_jansson)                                                                                  \
    X(record_get_string)                                                                                   \
    X(record_set)                                                                                          \
    X(record_set_jansson)                                                                                  \
    X(record_set_string)                                                                                   \
    X(record_changes)                                                                                      \
    X(record_get_int64)                                                                                    \
    X(record_get_double)                                                                                   \
    X(record_get_bool)                                                                                     \
    X(record_clear)                                                                                        \
    X(record_append)                                                                                       \
    X(record_append_jansson)                                                                               \
    X(record_remove)                                                                                       \
    X(record_replace_plural)                                                                               \
    X(record_replace_plural_jansson)                                                                       \
    X(record_element_count)                                                                                \
    X(record_element_paths)                                                                                \
    X(record_revert)                                                                                       \
    X(record_discard_changes)                                                                              \
    X(record_free)                                                                                         \
    X(request_cancel)                                                                                      \
    X(request_wait)                                                                                        \
    X(request_id)                                                                                          \
    X(request_free)

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
