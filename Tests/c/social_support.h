/*
 * social_support.h - helpers shared by the social sign-in tests (Tests/c/test_social_*.c): Capture + Engage
 * clients for the emulator, a libcurl "browser" that plays the emulator's fake identity provider page (no
 * redirect following), test identities, and thin wrappers of the jump_client_social_* calls.
 * Tests/c/run.sh compiles social_support.c into every test_social_* program.
 * Functions that can fail print why (file:line of the caller) and count as a test failure.
 */
#ifndef JUMP_TEST_SOCIAL_SUPPORT_H
#define JUMP_TEST_SOCIAL_SUPPORT_H

#include "support.h"

#define ENGAGE_APP "jump-default-engage"
#define ENGAGE_API_KEY "jump-engage-api-key"

/* ---- small JSON helpers ---------------------------------------------------------------------------------- */

/* A string member, or "(none)" (for messages). */
const char *str_or(json_t *object, const char *key);
/* 1 when the string member `key` equals value. */
int str_is(json_t *object, const char *key, const char *value);
int has_prefix(const char *s, const char *prefix);
char *dup_or_null(const char *s);
/* JSON text for a failure message: a few rotating static buffers, so messages need no freeing. */
const char *dump(json_t *json);
/* 1 when the last error's detail has key == value. */
int last_detail_is(const char *key, const char *value);
/* 1 when a JSON array of objects has an element whose `key` is `value`. */
int array_has_member(json_t *array, const char *key, const char *value);

/* ---- clients --------------------------------------------------------------------------------------------- */

/* A Capture + Engage client for the emulator (the emulator serves Engage on the same address as Capture),
 * with its own storage directory; `more` (JSON object text or NULL) adds config members. */
#define social_client(more) social_client_at(__FILE__, __LINE__, more)
jump_client *social_client_at(const char *file, int line, const char *more);
/* The same in a given storage directory (a restart of the app). */
#define social_client_in(dir, more) social_client_in_at(__FILE__, __LINE__, dir, more)
jump_client *social_client_in_at(const char *file, int line, const char *dir, const char *more);

#define THIN "{\"captureEnableThinRegistration\":true}"

/* An Engage-only client: no captureDomain at all. */
jump_client *engage_only_client(const char *more);

/* ---- HTTP as a browser does it (no redirect following) --------------------------------------------------- */

typedef struct http_reply {
    long status;
    char *location; /* the Location header, or NULL */
    char *body;     /* never NULL after http_raw */
} http_reply;

/* One request; form_body (x-www-form-urlencoded) makes it a POST. Returns 0 when an answer came. */
int http_raw(const char *method, const char *url, const char *form_body, http_reply *reply);
void http_reply_free(http_reply *reply);
/* The decoded value of query parameter `name` of url (malloc'd) or NULL. */
char *query_param(const char *url, const char *name);
/* url with query parameter `name`'s value replaced by `value` (already URL-safe) (malloc'd). */
char *with_param(const char *url, const char *name, const char *value);

/* ---- the fake identity provider's page ------------------------------------------------------------------- */

/* The emulator base URL + path, or url when it is absolute (malloc'd). */
char *absolute(const char *url_or_path);
/* Plays the browser on the fake identity provider: GETs start_url (no redirect following); when the provider
 * shows its page, presses the button whose attr is value (overrides: NULL-terminated name/value pairs that
 * fill the form's inputs) and returns the URL the provider then sends the browser to (malloc'd). When the
 * start itself redirects, that URL. NULL (and a failure) otherwise. *page_out (may be NULL) receives the
 * page HTML (malloc'd). */
#define idp_press(url, attr, value, overrides, page) idp_press_at(__FILE__, __LINE__, url, attr, value, overrides, page)
char *idp_press_at(const char *file, int line, const char *start_url, const char *attr, const char *value,
                   const char *const *overrides, char **page_out);
/* Creating a new identity on the page: the "create-identity" button with the name and email typed in. */
#define idp_create(url, name, email, page) idp_create_at(__FILE__, __LINE__, url, name, email, page)
char *idp_create_at(const char *file, int line, const char *url, const char *name, const char *email, char **page);

/* ---- test identities --------------------------------------------------------------------------------------- */

typedef struct identity {
    char id[128];
    char identifier[512];
} identity;

/* POST /emulator/identities; 0 on success. */
int create_identity(const char *provider, const char *display_name, const char *email, identity *out);

/* ---- social calls ------------------------------------------------------------------------------------------ */

/* jump_client_social_begin -> its JSON (new reference) or NULL (with a failure). */
#define begin(c, provider, options) begin_at(__FILE__, __LINE__, c, provider, options)
json_t *begin_at(const char *file, int line, jump_client *client, const char *provider, const char *options);
/* Begins and signs in on the page with an existing identity (its id) -> the completion URL (malloc'd). */
#define browser_existing(c, provider, options, ident)                                                      \
    browser_existing_at(__FILE__, __LINE__, c, provider, options, ident)
char *browser_existing_at(const char *file, int line, jump_client *client, const char *provider,
                          const char *options, const identity *ident);
/* Begins and creates a new identity on the page -> the completion URL (malloc'd). */
#define browser_new(c, provider, options, name, email) browser_new_at(__FILE__, __LINE__, c, provider, options, name, email)
char *browser_new_at(const char *file, int line, jump_client *client, const char *provider, const char *options,
                     const char *name, const char *email);
/* jump_client_social_complete -> (status, result JSON or NULL). */
jump_status complete(jump_client *client, const char *url, json_t **result);
/* jump_client_social_sign_in_native -> (status, result JSON or NULL). */
jump_status native(jump_client *client, const char *provider, const char *token, const char *secret,
                   const char *options, json_t **result);
/* The provider token the emulator's /signin/oauth_token takes: a JSON profile (malloc'd). */
char *profile_token(const char *display_name, const char *email);
/* The same naming only the identifier (malloc'd). */
char *identifier_token(const char *identifier);
/* jump_client_linked_profiles (new reference) or NULL. */
json_t *linked(jump_client *client);
/* 1 when the client's record view has a /profiles element with this identifier. */
int record_has_identity(jump_client *client, const char *identifier);
/* 1 when the emulator's copy of the user mentions the identifier (its profiles). */
int server_user_has_identity(const char *uuid, const char *identifier);
/* jump_client_state's text (malloc'd; "(no state)" when it fails). */
char *state_text(jump_client *client);
/* POST /emulator/merge_conflict (new reference) or NULL. */
json_t *merge_conflict(const char *email, const char *existing_provider, const char *provider);

/* ---- async and out-parameters ------------------------------------------------------------------------------ */

/* Runs until the recorder has one completion; returns it (new reference) or NULL. */
json_t *completion_of(recorder *r);

/* A pointer no libjump call hands out: put in an out-parameter before a call, to see what the call wrote there. */
extern char sentinel_byte;
#define SENTINEL ((void *)&sentinel_byte)

#endif
