/*
 * emulator.h - runs a private jump-emulator for one test program and drives its admin API.
 *
 * The binary is $JUMP_EMULATOR, else build/bin/jump-emulator, else .build-emu/debug/jump-emulator (paths
 * relative to the repository root, the tests' working directory). It is started on first use with
 * `--port 0 --db <tmp>/emu.sqlite --password-hash-cost 4`; its first stdout line is the base URL. It is
 * stopped (SIGTERM + waitpid) at exit.
 */
#ifndef JUMP_TEST_EMULATOR_H
#define JUMP_TEST_EMULATOR_H

#include <jansson.h>
#include <stddef.h>

/* The emulator's base URL (e.g. "http://127.0.0.1:40123"), starting it when needed; NULL when it cannot
 * be started (the reason is printed once). */
const char *emu_url(void);
/* Stops the emulator (also registered with atexit). */
void emu_stop(void);
/* A fresh temporary directory (0700) removed at exit; never NULL (aborts the test program otherwise). */
const char *emu_tmpdir(void);

/* A response body as libcurl delivers it: CURLOPT_WRITEFUNCTION emu_body_writer, CURLOPT_WRITEDATA &body
 * (start at {NULL, 0}); data is NUL-terminated, NULL when nothing came; the caller frees it. */
typedef struct emu_body {
    char *data;
    size_t size;
} emu_body;
size_t emu_body_writer(char *ptr, size_t size, size_t nmemb, void *userdata);

/* One admin or API call: method, path (appended to the base URL), optional JSON body. Returns the parsed
 * JSON reply (new reference; NULL when the reply is not JSON) and stores the HTTP status (0 when the call
 * failed) in *http_status if not NULL. */
json_t *emu_call(const char *method, const char *path, const char *body, long *http_status);
/* emu_call for any request: url_or_path absolute ("http://...") or a path on the emulator, body sent with
 * content_type (NULL: application/json). Redirects are followed. */
json_t *emu_http(const char *method, const char *url_or_path, const char *content_type, const char *body,
                 long *http_status);

/* Admin helpers; 0 on success, -1 on failure (a message is printed). */
int emu_reset(void);
int emu_advance_clock(long seconds);
int emu_settings(const char *settings_json);
int emu_fault(const char *kind, int count, const char *path, int delay_ms);
int emu_clear_faults(void);
int emu_clear_counters(void);
/* The value of one counter ("POST /entity.update"); 0 when absent, -1 when the counters are unreadable. */
long emu_counter(const char *name);
/* Every counter (new reference) or NULL. */
json_t *emu_counters(void);

/* Creates a user; record_json is a JSON object of record attributes or NULL. Returns the new user's uuid
 * (malloc'd; free()) or NULL. */
char *emu_create_user(const char *email, const char *password, const char *record_json);
/* GET /emulator/users/{uuid}: the "user" object (new reference) or NULL; active_sessions if not NULL. */
json_t *emu_get_user(const char *uuid, long *active_sessions);
/* GET /emulator/users: the "users" array (new reference) or NULL. */
json_t *emu_list_users(void);

/* POST /emulator/token_users: a new sign-in-token user of the default team; its id (malloc'd; free()) or NULL. */
char *emu_token_user(void);
/* A fresh sign-in token for token user `user_id` (malloc'd; free()) or NULL. */
char *emu_sign_in_token(const char *user_id);

/* A loopback port nothing listens on. */
int emu_closed_port(void);

#endif
