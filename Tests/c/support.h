/*
 * support.h - helpers shared by the libjump C tests: clients configured for the emulator, users, JSON
 * access, and a thread-safe recorder for callbacks (completions, events, logs).
 * Functions that can fail print why (file:line of the caller) and count as a test failure.
 */
#ifndef JUMP_TEST_SUPPORT_H
#define JUMP_TEST_SUPPORT_H

#include "jump_loader.h"
#include "emulator.h"

#include <pthread.h>

/* Records failures into the running test (defined in harness.h, which every test program includes); the
 * plain one does not add the library's last error (for failures that are not the library's). */
void support_fail(const char *file, int line, const char *fmt, ...);
void support_fail_plain(const char *file, int line, const char *fmt, ...);

#define TEST_PASSWORD "correct-horse-42"

/* ---- JSON ---------------------------------------------------------------------------------------------- */

/* Parses JSON text (any value); NULL on failure. */
json_t *json_parse(const char *text);
/* A JSON object member as a string, or NULL. */
const char *json_str(json_t *object, const char *key);
/* 1 when the array contains the string. */
int json_array_has_string(json_t *array, const char *value);
/* Parses a string returned by libjump and frees it with jump_string_free. */
json_t *take_json(char *text);

/* ---- clients --------------------------------------------------------------------------------------------- */

/* `object` (taken) with the members of the JSON object text `members` (NULL: none) set on it, as compact JSON
 * text (malloc'd); bad members end the program, naming `who`. */
char *json_text_with_members(json_t *object, const char *members, const char *who);
/* The emulator client config as JSON text (malloc'd): captureDomain/captureFlowDomain = the emulator,
 * the default app, the given storage directory (NULL: a new temporary one), and the members of
 * extra_members (a JSON object text or NULL) on top. */
char *client_config_json(const char *storage_dir, const char *extra_members);
/* A client for client_config_json(storage_dir, extra); NULL (and a failure) when it cannot be made. */
#define new_client(storage_dir, extra) new_client_at(__FILE__, __LINE__, storage_dir, extra)
jump_client *new_client_at(const char *file, int line, const char *storage_dir, const char *extra);
/* The client's state (new reference) or NULL. */
#define get_state(c) client_state_at(__FILE__, __LINE__, c)
json_t *client_state_at(const char *file, int line, jump_client *client);
/* A unique email address for this run. */
char *unique_email(const char *tag);
/* Creates a user through the admin API and signs the client in as that user. Returns the uuid (malloc'd)
 * and the email through *email_out when not NULL (malloc'd); NULL on failure. */
#define sign_in_new_user(c, email_out, record) sign_in_new_user_at(__FILE__, __LINE__, c, email_out, record)
char *sign_in_new_user_at(const char *file, int line, jump_client *client, char **email_out,
                          const char *record_json);
/* The status of a sign-in as email/password by a new client of its own (nothing is kept). */
jump_status sign_in_status(const char *email, const char *password);
/* Reads a string attribute of the record view ("/aboutMe"); malloc'd, NULL for null or on failure. */
char *record_string(jump_record *record, const char *path);

/* The emulator must be up; it is reset for a test that starts from nothing (harness REQUIRE macros). */
#define REQUIRE_EMULATOR()                                                                                 \
    do {                                                                                                   \
        REQUIRE_MSG(emu_url() != NULL, "the emulator is not available");                                   \
        REQUIRE_MSG(emu_reset() == 0, "POST /emulator/reset failed");                                      \
    } while (0)
/* The last error's detail (new reference). */
json_t *error_detail(void);
/* invalid_fields[key] of the last error (new reference) or NULL. */
json_t *invalid_field(const char *key);
/* 1 when array is a non-empty array of non-empty strings (validation messages). */
int non_empty_string_array(json_t *array);
/* 1 when path is among the record's unsynced changes (jump_record_changes "changed"). */
int record_has_pending(jump_record *record, const char *path);

/* ---- callbacks --------------------------------------------------------------------------------------- */

typedef struct recorder {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int calls;            /* callback invocations                            */
    int frees;            /* userdata_free invocations                       */
    int active, max_active;/* concurrently running callbacks                  */
    pthread_t last_thread;/* thread of the last callback                     */
    char **payloads;      /* every payload, in order (malloc'd copies)       */
    int payload_count, payload_capacity;
    int hold_ms;          /* sleep this long inside each callback            */
    /* Optional extra work in the callback (after recording). */
    void (*hook)(struct recorder *self, const char *json);
    void *hook_data;
} recorder;

void recorder_init(recorder *r);
/* Frees the payloads; the recorder must not be in use any more. */
void recorder_destroy(recorder *r);
/* jump_callback / jump_free_fn with userdata = the recorder. */
void recorder_callback(void *userdata, const char *json);
void recorder_free(void *userdata);
/* Waits until calls >= n (or frees >= n); returns 1 when reached within timeout_ms. */
int recorder_wait_calls(recorder *r, int n, int timeout_ms);
int recorder_wait_frees(recorder *r, int n, int timeout_ms);
int recorder_calls(recorder *r);
int recorder_frees(recorder *r);
/* Payload i parsed (new reference) or NULL. */
json_t *recorder_payload(recorder *r, int i);
/* Number of payloads recorded so far. */
int recorder_count(recorder *r);
/* Index of the first payload at or after `from` whose member `key` equals `value`; -1 if none. */
int recorder_find(recorder *r, int from, const char *key, const char *value);
/* 1 when any payload contains the substring. */
int recorder_contains(recorder *r, const char *needle);

/* Sleeps for ms milliseconds. */
void sleep_ms(int ms);
/* Milliseconds from a monotonic clock. */
double now_ms(void);

/* ---- files ----------------------------------------------------------------------------------------------- */

/* Reads a whole file (malloc'd, NUL-terminated; size in *size if not NULL) or NULL. */
char *read_file(const char *path, size_t *size);
int write_file(const char *path, const char *data, size_t size);
/* 1 when `needle` occurs in the bytes of any regular file under dir (recursively). */
int tree_contains(const char *dir, const char *needle);

#endif
