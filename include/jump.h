/*
 * jump.h - the public C API of libjump, the JUMP sign-in and user-record SDK core.
 *
 * Conventions (they hold for every function below unless its comment says otherwise):
 *  - Fallible functions return a jump_status: JUMP_OK (0) or a negative code. Codes are never renumbered.
 *    After a failure, jump_error_last() on the same thread gives a JSON detail object (see "Errors").
 *  - Handles (jump_config, jump_client, jump_record, jump_request) are opaque. They are created through an
 *    out-parameter and released with their own _free function, which accepts NULL. A freed or wrong handle
 *    is detected and reported as JUMP_E_INVALID_HANDLE; it never corrupts memory.
 *  - Strings in are NUL-terminated UTF-8, borrowed for the duration of the call (the library copies what
 *    it keeps). Invalid UTF-8 is refused with JUMP_E_INVALID_ARGUMENT.
 *  - Strings out (char **out) are NUL-terminated UTF-8 owned by the caller: free them with
 *    jump_string_free(), never free(). On failure *out is set to NULL.
 *  - JSON crosses in two forms: UTF-8 text, and jansson's json_t* (the _jansson functions). A json_t*
 *    argument is borrowed (its reference count is untouched); a json_t* returned through an out-parameter
 *    is a new reference the caller releases with json_decref(). Results of sign-in, registration and sync
 *    are small summaries and exist as text only; the record they concern is readable in both forms through
 *    jump_record. Arrays and objects may nest at most JUMP_JSON_MAX_DEPTH levels, in either form, from
 *    the caller or from a server: deeper JSON is refused with a status (so no call can exhaust the stack
 *    of a host thread, even one of 128 KiB).
 *  - Thread safety: every handle may be used from any thread at once; a client serializes its own state.
 *  - Host code run by libjump (storage callbacks, open_url, authenticate) runs on the calling thread, or
 *    for an _async call on a thread libjump owns (named "jump-work": one per core, whatever the number of
 *    calls in flight, and up to 8 more while some are blocked in host code), never on a thread pool worker.
 *    All the host code of one _async operation runs on one thread, before and after its requests.
 *  - Answered from memory: jump_client_state, jump_client_is_signed_in, jump_client_access_token (while
 *    the token is within its lifetime: no refresh due), jump_client_record and the jump_record getters,
 *    element lists and counts and jump_record_changes never wait for a save, a host callback or the
 *    network, so a UI thread may call them every frame. While a save of the same client runs they answer
 *    with the state as that save found it (its change is not acknowledged yet). Every other call may wait
 *    for the client's earlier operations and their saves (host storage callbacks, fsync).
 *  - No call waits for ever behind another: a wait for another operation of the same client (a sync, a
 *    credential change) ends after requestTimeoutMs with JUMP_E_TIMEOUT (detail reason "busy"), and a wait
 *    for a token refresh in progress after the longest the refresh may take (3 x requestTimeoutMs + 1 s:
 *    the store's lock, the request with its retries, the lock again).
 *  - Writes and their outcome: a request with side effects (a form, a sign-in or registration, a record
 *    sync, a share, a sign-in-token call, a POST, PUT, PATCH or DELETE of jump_client_request) is sent once:
 *    a kept-alive connection that dies under it never makes it go again unseen. When its answer is lost
 *    after it left, libjump settles what it can and answers with the truth: a plural append is looked up
 *    on the server (found, it counts as answered and takes the server's id; not found, it goes once more),
 *    a record update or replace is sent again (the server answers it the same), and a registration or a
 *    password change is settled by a sign-in with the same credentials (the result is the one the lost
 *    answer would have given; that sign-in's session replaces the current one). What cannot be settled (a
 *    share, a record delete, a sign-in-token call, jump_client_request) fails with JUMP_E_NETWORK and
 *    detail reason "outcome_unknown": the server may or may not have applied it; read back before sending
 *    it again. A write that left and then ran out of time fails with JUMP_E_TIMEOUT and the same detail
 *    reason, and is not settled (a server too slow to answer is not sent more): a plural append is looked
 *    up by the next sync; anything else, read back before sending it again.
 *  - Callbacks (and userdata_free) run on a plain thread owned by libjump (named "jump-events"; never the
 *    caller's thread, never a thread pool worker): one thread for every client of the process, which exits
 *    when idle, so callbacks run one at a time and in order, and a slow callback delays the others. Unless
 *    a dispatcher is installed (jump_client_set_dispatcher) or the host pumps a queue instead
 *    (jump_client_use_event_queue). A callback may call any jump_* function, except jump_request_wait
 *    (which returns JUMP_E_BUSY there). The JSON text given to a callback is valid only until it returns.
 *  - fork(): a process may fork after using libjump (Python multiprocessing, pre-fork servers). libjump
 *    takes its process-wide locks around fork() (pthread_atfork), so both processes go on. In the child
 *    only the thread that forked exists: an _async operation still running in the parent completes in the
 *    child with JUMP_E_CANCELLED when the child first calls a jump_* function that takes a handle (its
 *    callback runs then, on the child's callback thread; a child that only execs gets no libjump thread and
 *    runs no callback), handles
 *    made before fork() keep working, and new ones work. Do not fork while another thread of yours is inside
 *    a jump_* call (its locks may be copied held, as with any library). Connections opened before fork()
 *    are left to the parent; the child opens its own.
 *  - Each function has its own entry below, generated from include/jump_api.json (make generate): what it does,
 *    who owns what it takes and gives, "Returns:" each status it may return and when, and "May wait for:" what
 *    it may block on ("nothing" for calls answered from memory and for the _async calls, which return at once).
 *  - Secrets (passwords, access tokens, refresh secrets) never appear in error messages, events or logs.
 *  - The library is never unloaded: dlclose() leaves it mapped (Swift code does not survive unloading).
 */
#ifndef JUMP_H
#define JUMP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* jansson's value type (jansson.h); declared here so the header needs no jansson unless you use the
 * _jansson functions. A tag declaration, not a typedef: it coexists with jansson.h in any order. */
struct json_t;

/* ---------------------------------------------------------------------------------------------------- */
/* Versions                                                                                             */
/* ---------------------------------------------------------------------------------------------------- */

#define JUMP_VERSION_MAJOR 0
#define JUMP_VERSION_MINOR 1
#define JUMP_VERSION_PATCH 0
#define JUMP_VERSION "0.1.0"
/* (major << 16) | (minor << 8) | patch */
#define JUMP_VERSION_NUMBER 0x000100
#define JUMP_VERSION_CHECK(major, minor, patch) \
    (JUMP_VERSION_NUMBER >= (((major) << 16) | ((minor) << 8) | (patch)))
/* Bumped only when the ABI breaks; equals the soname suffix (libjump.so.1). */
#define JUMP_ABI_VERSION 1
/* The deepest nesting of arrays and objects any JSON argument or server answer may have. */
#define JUMP_JSON_MAX_DEPTH 64

/* BEGIN FUNCTIONS from jump_version: generated from jump_api.json (make generate); do not edit */
/* The library's version string, e.g. "0.1.0". Static storage; never NULL.
 * Ownership: the returned string is in static storage: never freed, never NULL.
 * May wait for: nothing.
 */
const char *jump_version(void);

/* The library's version as (major << 16) | (minor << 8) | patch; compare with JUMP_VERSION_NUMBER.
 * May wait for: nothing.
 */
uint32_t jump_version_number(void);

/* The library's ABI version; a host built against this header should refuse a library where it differs.
 * May wait for: nothing.
 */
int32_t jump_abi_version(void);
/* END FUNCTIONS */

/* ---------------------------------------------------------------------------------------------------- */
/* Status codes and errors                                                                              */
/* ---------------------------------------------------------------------------------------------------- */

typedef enum jump_status {
    JUMP_OK = 0,
    JUMP_E_INVALID_ARGUMENT = -1,      /* NULL where a value is needed, bad UTF-8/JSON, unknown config key  */
    JUMP_E_INVALID_HANDLE = -2,        /* freed, NULL or wrong kind of handle                                 */
    JUMP_E_NETWORK = -3,               /* could not reach the server (DNS, refused, TLS, reset)              */
    JUMP_E_TIMEOUT = -4,               /* the server did not answer in time                                  */
    JUMP_E_SERVER = -5,                /* the server answered with an error, or with something not JSON      */
    JUMP_E_NOT_SIGNED_IN = -6,         /* the operation needs a signed-in user                               */
    JUMP_E_BAD_CREDENTIALS = -7,       /* wrong user name, email or password                                 */
    JUMP_E_MERGE_REQUIRED = -8,        /* the email belongs to another identity: merge flow (detail: merge_token) */
    JUMP_E_REGISTRATION_REQUIRED = -9, /* two-step registration needed (detail: social_registration_token)   */
    JUMP_E_VALIDATION = -10,           /* form validation failed (detail: invalid_fields)                   */
    JUMP_E_NOT_FOUND = -11,            /* no such attribute, path, user or flow                              */
    JUMP_E_EXPIRED = -12,              /* the session can no longer be refreshed: sign in again              */
    JUMP_E_STORAGE = -13,              /* the session store could not be read or written (nothing deleted)  */
    JUMP_E_CANCELLED = -14,            /* the operation was cancelled (jump_request_cancel, client freed)    */
    JUMP_E_UNSUPPORTED = -15,          /* not possible with this configuration or not implemented           */
    JUMP_E_BUSY = -16,                 /* would deadlock or conflict (e.g. jump_request_wait in a callback)  */
    JUMP_E_INTERNAL = -17,             /* a bug in libjump; the detail says where                            */
    JUMP_E_CONFLICT = -18,             /* the record changed both here and on the server (detail: conflicts) */
    JUMP_E_ALREADY_SIGNED_IN = -19     /* another user is signed in (detail: mismatch, current_user_id)      */
} jump_status;

/* BEGIN FUNCTIONS from jump_status_str: generated from jump_api.json (make generate); do not edit */
/* A static, human-readable description of a status code; never NULL (unknown codes included).
 * Ownership: the returned string is in static storage: never freed, never NULL.
 * May wait for: nothing.
 */
const char *jump_status_str(jump_status status);

/* The detail of the last failure on the calling thread, as JSON text owned by the library (valid until the next
 * jump_* call on this thread; never NULL). Keys: "status", "status_name", "message", and when known "server"
 * {"code","error","error_description","http_status", and the other keys of the server's answer}, "invalid_fields"
 * {field: [messages]}, "argument", "merge_token", "existing_provider", "conflicting_provider",
 * "social_registration_token", "prereg_record", "conflicts" [{"path","local","server","base"}], "synced" and
 * "pending" (paths, after a partial sync). Only meaningful right after a call returned non-JUMP_OK.
 * Ownership: the returned string is the library's, valid until the next jump_* call on this thread.
 * May wait for: nothing.
 */
const char *jump_error_last(void);

/* The same detail as a new jansson reference (caller json_decref()s it). out NULL: JUMP_E_INVALID_ARGUMENT, and
 * that becomes the last error.
 * Ownership: out: receives a new reference the caller releases with json_decref.
 * Returns:
 *   JUMP_OK: *out holds the detail of the thread's last failure.
 *   JUMP_E_INVALID_ARGUMENT: out is NULL (which becomes the last error).
 * May wait for: nothing.
 */
jump_status jump_error_last_jansson(struct json_t **out);

/* Frees a string returned by libjump. NULL is a no-op.
 * Ownership: string: a string returned by libjump, freed by this call (NULL is a no-op).
 * May wait for: nothing.
 */
void jump_string_free(char *string);
/* END FUNCTIONS */

/* ---------------------------------------------------------------------------------------------------- */
/* Callbacks                                                                                            */
/* ---------------------------------------------------------------------------------------------------- */

/* Receives a JSON document: {"version":1,"kind":"completion"|"event"|"log", ...}. Unknown kinds and
 * fields must be ignored. The text is valid only during the call. */
typedef void (*jump_callback)(void *userdata, const char *json);
/* Releases userdata; libjump calls it exactly once, when it drops the callback. */
typedef void (*jump_free_fn)(void *userdata);
/* A host dispatcher: run job(arg) later on the host's thread (exactly once, or the job leaks). */
typedef void (*jump_dispatch_fn)(void *context, void (*job)(void *arg), void *arg);

/* BEGIN FUNCTIONS from jump_set_log_callback: generated from jump_api.json (make generate); do not edit */
/* Installs a process-wide log callback (NULL removes it). Each call receives
 * {"version":1,"kind":"log","level":"debug"|"info"|"warning"|"error","message":"..."}; lines are redacted. The
 * callback may run on any thread, concurrently, and while libjump holds the lock of the client that logs (a failed
 * save logs under it): it must not call jump_* functions of a client; write the line down.
 * Ownership: callback: kept until libjump drops it, then userdata_free(userdata) runs exactly once.
 * Returns:
 *   JUMP_OK: installed (or removed, callback NULL); the previous userdata_free runs.
 * May wait for: nothing.
 */
jump_status jump_set_log_callback(jump_callback callback, void *userdata, jump_free_fn userdata_free);
/* END FUNCTIONS */

/* ---------------------------------------------------------------------------------------------------- */
/* jump_config: settings for a client. Keys (JSON names; unknown keys and wrong types are errors; a     */
/* key set to NULL gets its default again), one entry per key: its name, type (and allowed values or    */
/* range), default and meaning. The same list, as a table: docs/config.md.                              */
/* BEGIN CONFIG KEYS, generated by scripts/generate-bindings.py from include/jump_api.json; do not edit */
/*   captureDomain                                                                                      */
/*       Type: string. Default: unset.                                                                  */
/*       Host, host:port or URL of Capture; https required except for loopback hosts; needed with       */
/*       captureClientId for Capture calls only.                                                        */
/*   captureClientId                                                                                    */
/*       Type: string. Default: unset.                                                                  */
/*       The Capture API client id.                                                                     */
/*   captureLocale                                                                                      */
/*       Type: string. Default: "en-US".                                                                */
/*       The locale of form validation messages.                                                        */
/*   captureAppId                                                                                       */
/*       Type: string. Default: unset.                                                                  */
/*       The Capture app id.                                                                            */
/*   captureFlowName                                                                                    */
/*       Type: string. Default: unset.                                                                  */
/*       The Capture flow.                                                                              */
/*   captureFlowVersion                                                                                 */
/*       Type: string. Default: "HEAD".                                                                 */
/*       The flow version; "HEAD" is the newest.                                                        */
/*   captureFlowDomain                                                                                  */
/*       Type: string. Default: "https://d1lqe9temigv1p.cloudfront.net".                                */
/*       The base URL of the CDN the flow file is downloaded from.                                      */
/*   captureTraditionalSignInFormName                                                                   */
/*       Type: string. Default: "signInForm".                                                           */
/*       The flow's traditional sign-in form; its user field (an email or a user name) and password     */
/*       field are what a sign-in posts.                                                                */
/*   captureTraditionalRegistrationFormName                                                             */
/*       Type: string. Default: "registrationForm".                                                     */
/*       The traditional registration form.                                                             */
/*   captureSocialRegistrationFormName                                                                  */
/*       Type: string. Default: "socialRegistrationForm".                                               */
/*       The social registration form.                                                                  */
/*   captureEditUserProfileFormName                                                                     */
/*       Type: string. Default: "editProfileForm".                                                      */
/*       The edit-profile form.                                                                         */
/*   captureForgotPasswordFormName                                                                      */
/*       Type: string. Default: "forgotPasswordForm".                                                   */
/*       The forgot-password form.                                                                      */
/*   captureResendEmailVerificationFormName                                                             */
/*       Type: string. Default: "resendVerificationForm".                                               */
/*       The resend-verification form.                                                                  */
/*   captureChangePasswordFormName                                                                      */
/*       Type: string. Default: "changePasswordForm".                                                   */
/*       The change-password form.                                                                      */
/*   captureSchemaFile                                                                                  */
/*       Type: string. Default: unset.                                                                  */
/*       Path of a Capture entity-type JSON {"attr_defs":[..]}, optionally with                         */
/*       "access_schema":{"write_with_token":[paths]}; see jump_client_load_schema.                     */
/*   signInTokenAuthBaseUrl                                                                             */
/*       Type: string. Default: unset.                                                                  */
/*       The sign-in token endpoint server; unset: derived from the token's environment and region.     */
/*   signInTokenApiBaseUrl                                                                              */
/*       Type: string. Default: unset.                                                                  */
/*       The API server of sign-in-token sessions; unset: derived from the token's environment and      */
/*       region.                                                                                        */
/*   apiKeyHeader                                                                                       */
/*       Type: string. Default: "x-jump-api-key".                                                       */
/*       The header that carries the API key.                                                           */
/*   webLoginCookieName                                                                                 */
/*       Type: string. Default: "oauth_token".                                                          */
/*       The cookie (or title prefix) holding a web login's token.                                      */
/*   captureEnableThinRegistration                                                                      */
/*       Type: boolean. Default: false.                                                                 */
/*       Social sign-in registers new users without a form.                                             */
/*   captureRedirectUri                                                                                 */
/*       Type: string. Default: unset.                                                                  */
/*       The OAuth redirect URI; unset: the Capture base URL.                                           */
/*   captureResponseType                                                                                */
/*       Type: string, one of "token", "code_and_token". Default: "token".                              */
/*       What a sign-in returns.                                                                        */
/*   engageAppId                                                                                        */
/*       Type: string. Default: unset.                                                                  */
/*       The Engage app id.                                                                             */
/*   engageDomain                                                                                       */
/*       Type: string. Default: "https://rpxnow.com".                                                   */
/*       The Engage server.                                                                             */
/*   engageWhitelistedDomain                                                                            */
/*       Type: string. Default: unset.                                                                  */
/*       Where the browser is sent with ?token= in "token" mode.                                        */
/*   engageResponseType                                                                                 */
/*       Type: string, one of "token_profile", "token". Default: "token_profile".                       */
/*       Token_profile: the browser ends on /signin/device; token: it is sent to                        */
/*       engageWhitelistedDomain with ?token=.                                                          */
/*   engageCustomProviders                                                                              */
/*       Type: JSON object. Default: unset.                                                             */
/*       {id:{"friendly_name", "openid_identifier" (with %@ for the user's input) and optional          */
/*       "opx_blob", or "saml_provider"}}.                                                              */
/*   engageTokenUrl                                                                                     */
/*       Type: string. Default: unset.                                                                  */
/*       Engage-only mode: the app backend URL the Engage token is POSTed to.                           */
/*   engageDevice                                                                                       */
/*       Type: string, one of "android", "iphone", "ipad". Default: "android".                          */
/*       The device type Engage's mobile endpoints are told; each has its own provider set in the app's */
/*       Engage configuration.                                                                          */
/*   userAgentApp                                                                                       */
/*       Type: string. Default: unset.                                                                  */
/*       E.g. "MyApp/2.3": put before "libjump/<version> (<os>; <arch>)" in the User-Agent header every */
/*       request carries.                                                                               */
/*   emulatorHost                                                                                       */
/*       Type: string. Default: unset.                                                                  */
/*       "host:port" of a jump-emulator: every endpoint (Capture, flow, Engage, sign-in tokens) goes    */
/*       there over plain http, whatever the URL keys say, and the client logs one warning; unset:      */
/*       $JUMP_EMULATOR_HOST if set; "" ignores $JUMP_EMULATOR_HOST.                                    */
/*   storageDirectory                                                                                   */
/*       Type: string. Default: unset.                                                                  */
/*       Where sessions are kept; unset: $XDG_DATA_HOME/jump or ~/.local/share/jump; ":memory:" keeps   */
/*       the session in memory only.                                                                    */
/*   secretStore                                                                                        */
/*       Type: string, one of "auto", "secret-service", "file". Default: "auto".                        */
/*       Where the secrets of storageDirectory (access token, refresh secret, sign-in-token             */
/*       credentials, sharing tokens) go. "auto": the Secret Service (libsecret, loaded at run time)    */
/*       when a session bus answers within 2 s and the default collection is unlocked, else files with  */
/*       one warning per process; "secret-service": that or jump_client_new fails with JUMP_E_STORAGE   */
/*       saying how to fix it; "file": files only, mode 0600. Once a session's secrets are in the       */
/*       keyring, a locked or absent keyring is JUMP_E_STORAGE, never "signed out", and nothing is      */
/*       copied to files. Each Secret Service access is a few blocking D-Bus round trips (about a       */
/*       millisecond on a desktop; a daemon that hangs: up to 5 s for the lock check, then D-Bus's 25 s */
/*       per call), made where storage I/O is made: on the calling thread or a libjump thread, never on */
/*       the thread of jump_client_is_signed_in or a callback. Host storage (jump_config_set_storage)   */
/*       overrides it.                                                                                  */
/*   connectTimeoutMs                                                                                   */
/*       Type: integer, 1..600000. Default: 10000.                                                      */
/*       Connection timeout in milliseconds.                                                            */
/*   requestTimeoutMs                                                                                   */
/*       Type: integer, 1..600000. Default: 30000.                                                      */
/*       How long one HTTP attempt may take, in milliseconds; without operationTimeoutMs it also bounds */
/*       a request's retries and pauses together, and each wait of a call for another operation (a      */
/*       sync, a flow load, a credential change, the shared store's lock).                              */
/*   operationTimeoutMs                                                                                 */
/*       Type: integer, 0..3600000. Default: 0.                                                         */
/*       The deadline of a whole call, in milliseconds (0: none, each wait keeps its own bound): every  */
/*       wait inside the call draws on it (the waits for another operation, a refresh in progress and   */
/*       the shared store's lock, each HTTP attempt, the retries and their pauses), and a call that     */
/*       reaches it fails with JUMP_E_TIMEOUT, reason "operation_timeout" (a write already sent: the    */
/*       attempt's own timeout, reason "outcome_unknown"). Host callbacks are not interrupted.          */
/*   tokenRefreshMarginSeconds                                                                          */
/*       Type: integer, 0..86400. Default: 60.                                                          */
/*       An access token expiring within this is refreshed first.                                       */
/*   maxResponseBytes                                                                                   */
/*       Type: integer, 1..1073741824. Default: 16777216.                                               */
/*       A response body larger than this is refused with JUMP_E_SERVER while it arrives; a 100         */
/*       000-element record is about 8 MiB.                                                             */
/*   maxRetries                                                                                         */
/*       Type: integer, 0..10. Default: 2.                                                              */
/*       On real networks, how often a read (/entity, the flow, the schema, the Engage configuration,   */
/*       GETs of jump_client_request) or the token refresh is sent again after HTTP 429, 500, 502, 503  */
/*       or 504, a reset connection or a proxy's HTML or empty answer, with capped exponential backoff  */
/*       and full jitter, honouring Retry-After, all within requestTimeoutMs; writes (forms, sign-ins,  */
/*       record updates) go again only when they never left (connection refused, host not found); the   */
/*       retries of all of a process's clients to one server draw on one budget of 100 that answers     */
/*       which worked (below HTTP 400) refill, so an outage costs a bounded number of extra requests    */
/*       however many clients the process has; 0: no retries.                                           */
/*   proxy                                                                                              */
/*       Type: string. Default: unset.                                                                  */
/*       Unset: the environment's http_proxy, https_proxy, all_proxy and no_proxy as libcurl reads      */
/*       them; "": no proxy at all; a URL such as "http://proxy.example:3128" (schemes http, https,     */
/*       socks4, socks4a, socks5, socks5h): every request goes through it, no_proxy ignored.            */
/*   caFile                                                                                             */
/*       Type: string. Default: unset.                                                                  */
/*       A PEM file of CA certificates trusted in addition to the system's roots (a private or          */
/*       corporate CA); an untrusted certificate is JUMP_E_NETWORK with detail reason "tls_untrusted".  */
/*   pinnedPublicKeys                                                                                   */
/*       Type: list of strings. Default: unset.                                                         */
/*       A JSON array, or jump_config_set_string text '["sha256//<base64>",...]' or                     */
/*       "sha256//a;sha256//b": the server's public key (its SubjectPublicKeyInfo) must hash (SHA-256)  */
/*       to one of these; a key not pinned is JUMP_E_NETWORK with detail reason "pin_mismatch" (other   */
/*       TLS failures: "tls_failed"); the session is kept.                                              */
/*   accounts                                                                                           */
/*       Type: string, one of "single", "multiple". Default: "single".                                  */
/*       How many users stay signed in. "single": one, as always (a sign-in of another user replaces    */
/*       the session; its unsynced edits are set aside); "multiple": a sign-in of another user adds a   */
/*       saved account and makes it the active one, the others stay signed in, each with its own        */
/*       session, journal, quarantine and secrets on storage; the client's calls go to the active       */
/*       account (jump_client_accounts, jump_client_switch_account, jump_client_remove_account), and    */
/*       jump_client_sign_out signs out the active one only. Switching back to "single" keeps using the */
/*       first account's session.                                                                       */
/* END CONFIG KEYS                                                                                      */
/* ---------------------------------------------------------------------------------------------------- */

typedef struct jump_config jump_config;

/* BEGIN FUNCTIONS from jump_config_new: generated from jump_api.json (make generate); do not edit */
/* Creates a config holding the defaults.
 * Ownership: out: receives a new handle the caller frees with jump_config_free.
 * Returns:
 *   JUMP_OK: *out holds a config with the defaults.
 *   JUMP_E_INVALID_ARGUMENT: out is NULL.
 * May wait for: nothing.
 */
jump_status jump_config_new(jump_config **out);

/* Creates a config from a JSON object of the keys above.
 * Ownership: json: borrowed for the call; out: receives a new handle the caller frees with jump_config_free.
 * Returns:
 *   JUMP_OK: *out holds the config.
 *   JUMP_E_INVALID_ARGUMENT: json is NULL, not UTF-8, not a JSON object or deeper than JUMP_JSON_MAX_DEPTH, or a
 *       key is unknown or has a wrong type or value (detail names it).
 * May wait for: nothing.
 */
jump_status jump_config_from_json(const char *json, jump_config **out);

/* Creates a config from a jansson object (borrowed).
 * Ownership: json: borrowed (its reference count untouched); out: receives a new handle the caller frees with
 * jump_config_free.
 * Returns:
 *   JUMP_OK: *out holds the config.
 *   JUMP_E_INVALID_ARGUMENT: json is NULL or not an object, or a key is unknown or has a wrong type or value
 *       (detail names it).
 * May wait for: nothing.
 */
jump_status jump_config_from_jansson(const struct json_t *json, jump_config **out);

/* Sets a string key; NULL restores the key's default.
 * Ownership: key, value: borrowed for the call.
 * Returns:
 *   JUMP_OK: the key is set (or back to its default).
 *   JUMP_E_INVALID_HANDLE: config is NULL, freed or not a jump_config.
 *   JUMP_E_INVALID_ARGUMENT: key is unknown or not a string key, or value is not UTF-8 or not allowed for the key.
 * May wait for: nothing.
 */
jump_status jump_config_set_string(jump_config *config, const char *key, const char *value);

/* Sets a boolean key (value 0 or 1).
 * Ownership: key: borrowed for the call.
 * Returns:
 *   JUMP_OK: the key is set.
 *   JUMP_E_INVALID_HANDLE: config is NULL, freed or not a jump_config.
 *   JUMP_E_INVALID_ARGUMENT: key is unknown or not a boolean key, or value is neither 0 nor 1.
 * May wait for: nothing.
 */
jump_status jump_config_set_bool(jump_config *config, const char *key, int value);

/* Sets an integer key.
 * Ownership: key: borrowed for the call.
 * Returns:
 *   JUMP_OK: the key is set.
 *   JUMP_E_INVALID_HANDLE: config is NULL, freed or not a jump_config.
 *   JUMP_E_INVALID_ARGUMENT: key is unknown or not an integer key, or value is outside its range.
 * May wait for: nothing.
 */
jump_status jump_config_set_int(jump_config *config, const char *key, int64_t value);
/* END FUNCTIONS */
/* Host storage (a keychain, keystore or encrypted preferences) in place of storageDirectory's files.
 * libjump keeps a few entries under short ASCII keys: "session-*" and "journal-*" (the Capture session and
 * its pending record edits), "credential-*" (the sign-in-token or API-key secrets), "gist-*" (no secret:
 * keep it readable while the secret store is locked, so status still works), "social-*" (sharing device
 * tokens: secrets), "flow-*", "schema-*", "engage-*" (the Engage configuration), "quarantine-*" and
 * "quarantined-*" (sessions set aside: record edits, no credentials). The callbacks run on the thread of
 * the jump_* call that needs them, which for _async calls is a libjump thread ("jump-work"), never on a
 * thread pool worker and never concurrently for one key of one client; they must not call jump_* functions
 * of the client they serve. Each returns JUMP_OK or a negative jump_status. */
/* Receives the bytes a load found (at most 64 MiB); libjump copies them before the sink returns. */
typedef void (*jump_storage_sink)(void *sink_context, const char *data, size_t length);
/* Loads key: calls sink once with the bytes and returns JUMP_OK, or returns JUMP_E_NOT_FOUND when nothing is
 * saved. Any other status is a read failure: libjump never takes it for "signed out" and deletes nothing. */
typedef jump_status (*jump_storage_load_fn)(void *context, const char *key, jump_storage_sink sink,
                                            void *sink_context);
/* Saves length bytes under key, replacing what was there (atomically, as far as the store allows). */
typedef jump_status (*jump_storage_save_fn)(void *context, const char *key, const char *data, size_t length);
/* Deletes key; a missing key is JUMP_OK (or JUMP_E_NOT_FOUND). */
typedef jump_status (*jump_storage_erase_fn)(void *context, const char *key);
/* BEGIN FUNCTIONS from jump_config_set_storage: generated from jump_api.json (make generate); do not edit */
/* Makes clients created from config use these callbacks (all three, or all NULL to go back to files). Save and
 * erase run while the client's state is locked: a slow store delays that client's other calls.
 * context_free(context) runs exactly once: on a libjump thread when no config or client uses the storage any more,
 * or during this call when it fails or the callbacks are all NULL.
 * Ownership: load, save, erase: host code, called as its typedef says; context_free: called exactly once.
 * Returns:
 *   JUMP_OK: clients created from config use the callbacks (or files again, all NULL).
 *   JUMP_E_INVALID_HANDLE: config is NULL, freed or not a jump_config.
 *   JUMP_E_INVALID_ARGUMENT: some but not all of load, save and erase are NULL (context_free runs during the call).
 * May wait for: nothing.
 */
jump_status jump_config_set_storage(jump_config *config, jump_storage_load_fn load, jump_storage_save_fn save,
                                    jump_storage_erase_fn erase, void *context, jump_free_fn context_free);

/* The effective settings, defaults included, as JSON text.
 * Ownership: out: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out holds the effective settings.
 *   JUMP_E_INVALID_HANDLE: config is NULL, freed or not a jump_config.
 *   JUMP_E_INVALID_ARGUMENT: out is NULL.
 * May wait for: nothing.
 */
jump_status jump_config_to_json(const jump_config *config, char **out);

/* The effective settings as a new jansson reference.
 * Ownership: out: receives a new reference the caller releases with json_decref.
 * Returns:
 *   JUMP_OK: *out holds the effective settings.
 *   JUMP_E_INVALID_HANDLE: config is NULL, freed or not a jump_config.
 *   JUMP_E_INVALID_ARGUMENT: out is NULL.
 * May wait for: nothing.
 */
jump_status jump_config_to_jansson(const jump_config *config, struct json_t **out);

/* Releases a config. Clients created from it keep their own copy. NULL is a no-op.
 * Ownership: config: released by this call (NULL is a no-op).
 * May wait for: nothing.
 */
void jump_config_free(jump_config *config);
/* END FUNCTIONS */

/* ---------------------------------------------------------------------------------------------------- */
/* jump_client: one app installation's session with Capture.                                           */
/* Async variants take (callback, userdata, userdata_free, out_request): the callback receives          */
/* {"version":1,"kind":"completion","operation":"sign_in","status":0,"result":{...}} or, on failure,    */
/* {"version":1,"kind":"completion","operation":..,"status":<negative>,"error":{<error detail>}}.       */
/* out_request may be NULL; otherwise it receives a jump_request the caller frees. The callback runs    */
/* exactly once, also when the call itself fails to start (then the function returns that status too, */
/* and the callback still runs later, on a libjump thread).                                             */
/* ---------------------------------------------------------------------------------------------------- */

typedef struct jump_client jump_client;
typedef struct jump_record jump_record;
typedef struct jump_request jump_request;

/* BEGIN FUNCTIONS from jump_client_new: generated from jump_api.json (make generate); do not edit */
/* Creates a client from a copy of config and restores the saved session, if any (no network). A saved session that
 * cannot be read leaves the client signed out with "restore_error" in its state; nothing is deleted, and
 * jump_client_restore() retries.
 * Ownership: out: receives a new handle the caller frees with jump_client_free.
 * Returns:
 *   JUMP_OK: *out holds the client (also when the saved session could not be read: then signed out, "restore_error"
 *       in its state).
 *   JUMP_E_INVALID_HANDLE: config is NULL, freed or not a jump_config.
 *   JUMP_E_INVALID_ARGUMENT: out is NULL, or a setting cannot be used (e.g. a malformed emulatorHost or
 *       $JUMP_EMULATOR_HOST, a control character in userAgentApp; the detail names the key).
 *   JUMP_E_STORAGE: secretStore "secret-service" and the Secret Service is not usable (the detail says how to fix
 *       it).
 *   JUMP_E_INTERNAL: the handle could not be registered.
 * May wait for: a host storage callback (or the session files, fsync, the Secret Service); the Secret Service's
 * lock check (up to 5 s with a hung daemon).
 */
jump_status jump_client_new(const jump_config *config, jump_client **out);

/* Releases a client. In-flight operations are cancelled: their callbacks still run once, later, with
 * JUMP_E_CANCELLED (or their result, if they had already finished); the event callback's userdata_free runs once no
 * delivery needs it. NULL is a no-op.
 * Ownership: client: released by this call (NULL is a no-op).
 * May wait for: nothing: in-flight operations are cancelled, not waited for.
 */
void jump_client_free(jump_client *client);

/* The client's state as JSON: {"signed_in","uuid","email","reauthentication_required", "access_token_expires_at"
 * (epoch seconds by the local clock, or null when the server gave no lifetime), "unsynced_changes","restore_error"
 * (error detail or null: the saved session could not be read), "storage_error" (error detail or null: the last save
 * or erase failed), "flow_version" (or null), "quarantine" (sessions set aside:
 * [{"entry","reason":"unreadable"|"replaced","uuid","unsynced_changes", "quarantined_at","message"}]),
 * "secret_store" (where the secrets are kept: "secret-service", "file", "host" or "memory"; see the secretStore
 * key), "clock_offset_seconds" (Capture's clock minus this device's, learned from the Date header of its answers
 * and kept with the session: the refresh is signed with Capture's time; 0 until Capture answered once)}.
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the state.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out_json is NULL.
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_client_state(jump_client *client, char **out_json);

/* 1 when a user is signed in, 0 otherwise (and for an invalid handle).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
int jump_client_is_signed_in(jump_client *client);

/* Reads the saved session and credential again (after a JUMP_E_STORAGE restore error); with accounts "multiple",
 * every saved account that could not be read too.
 * Returns:
 *   JUMP_OK: the saved session and credential were read again (or none is saved).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_STORAGE: the saved session or credential still cannot be read (nothing deleted; "restore_error" stays).
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_client_restore(jump_client *client);

/* Erases the sessions set aside ("quarantine" in the state): a saved session that could not be read when another
 * sign-in replaced it, or another user's session with unsynced edits (which that user's next sign-in would
 * otherwise take back).
 * Returns:
 *   JUMP_OK: the sessions set aside are erased.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_STORAGE: an erase failed (the entry stays listed).
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_client_erase_quarantine(jump_client *client);

/* Downloads the Capture flow now (normally fetched when first needed) and caches it (in storageDirectory or the
 * host storage); falls back to the cached copy when the download fails.
 * Returns:
 *   JUMP_OK: the flow is downloaded and cached, or the download failed and a cached copy is used.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: a required argument is NULL or not UTF-8, or Capture is not configured (captureDomain,
 *       captureClientId).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_STORAGE: the flow could not be cached.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_load_flow(jump_client *client);

/* Registers a traditional account: attributes is a JSON object of record attributes (e.g. {"email":..,
 * "givenName":..,"birthday":"1990-05-17"}) mapped to the registration form's fields through the flow; password
 * fills the form's password fields. Signs the new user in. out_result (may be NULL) receives
 * {"is_new":true,"uuid":..,"authorization_code":..|null}. JUMP_E_VALIDATION carries invalid_fields.
 * Ownership: attributes_json, password: borrowed for the call; out_result: receives a string the caller frees with
 * jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: registered and signed in; *out_result (when not NULL) holds
 *       {"is_new":true,"uuid","authorization_code"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: attributes_json or password is NULL, not UTF-8 or not a JSON object, an attribute has
 *       no field in the registration form, or Capture is not configured.
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_STORAGE: another user's unsynced edits could not be set aside, or a saved session can neither be read
 *       nor set aside ("reason":"unreadable_session"): the previous user stays signed in.
 *   JUMP_E_CONFLICT: signed in all the same, but a kept unsynced edit also changed on the server (detail:
 *       conflicts, "signed_in":true).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_register_traditional(jump_client *client, const char *attributes_json, const char *password,
                                             char **out_result);

/* jump_client_register_traditional with the attributes as a jansson object (borrowed).
 * Ownership: attributes: borrowed (its reference count untouched); password: borrowed for the call; out_result:
 * receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: as jump_client_register_traditional.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: attributes is NULL or not an object, password is NULL or not UTF-8, or as
 *       jump_client_register_traditional.
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_STORAGE: another user's unsynced edits could not be set aside, or a saved session can neither be read
 *       nor set aside ("reason":"unreadable_session"): the previous user stays signed in.
 *   JUMP_E_CONFLICT: signed in all the same, but a kept unsynced edit also changed on the server (detail:
 *       conflicts, "signed_in":true).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_register_traditional_jansson(jump_client *client, const struct json_t *attributes,
                                                     const char *password, char **out_result);

/* Asynchronous jump_client_register_traditional; the completion's result is the same object.
 * Ownership: attributes_json, password: borrowed for the call; callback: kept until libjump drops it, then
 * userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_register_traditional, and its result or error detail)
 *       comes to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_register_traditional: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_register_traditional runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_register_traditional_async(jump_client *client, const char *attributes_json,
                                                   const char *password, jump_callback callback, void *userdata,
                                                   jump_free_fn userdata_free, jump_request **out_request);

/* Signs in with an email or user name (as the configured sign-in form expects) and a password. out_result (may be
 * NULL) receives {"is_new":false,"uuid":..,"authorization_code":..|null, "kept_changes":[paths]}. The same user's
 * unsynced edits (of the session in memory, one refused with JUMP_E_EXPIRED, or one set aside) are kept on top of
 * the fresh record ("kept_changes"); when the server changed one of them too: JUMP_E_CONFLICT, signed in all the
 * same, "conflicts" and "signed_in":true in the detail. Another user's unsynced edits are set aside ("quarantine"
 * in jump_client_state) for that user's next sign-in; when they cannot be saved aside the sign-in is refused with
 * JUMP_E_STORAGE and that user stays signed in; a saved session that cannot be read, nor set aside, refuses it too
 * ("reason": "unreadable_session": retry jump_client_restore, or jump_client_sign_out to discard it). A session
 * whose save failed still works in memory ("storage_error" in the state). The same holds for every call that signs
 * in (registration, social sign-in).
 * Ownership: user, password: borrowed for the call; out_result: receives a string the caller frees with
 * jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: signed in; *out_result (when not NULL) holds
 *       {"is_new":false,"uuid","authorization_code","kept_changes"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: a required argument is NULL or not UTF-8, or Capture is not configured (captureDomain,
 *       captureClientId).
 *   JUMP_E_BAD_CREDENTIALS: wrong user name, email or password.
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_STORAGE: another user's unsynced edits could not be set aside, or a saved session can neither be read
 *       nor set aside ("reason":"unreadable_session"): the previous user stays signed in.
 *   JUMP_E_CONFLICT: signed in all the same, but a kept unsynced edit also changed on the server (detail:
 *       conflicts, "signed_in":true).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_sign_in(jump_client *client, const char *user, const char *password, char **out_result);

/* Asynchronous jump_client_sign_in.
 * Ownership: user, password: borrowed for the call; callback: kept until libjump drops it, then
 * userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_sign_in, and its result or error detail) comes to the
 *       callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_sign_in: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_sign_in runs on a libjump thread ("jump-work").
 */
jump_status jump_client_sign_in_async(jump_client *client, const char *user, const char *password,
                                      jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                      jump_request **out_request);

/* The saved accounts as JSON: {"accounts":
 * [{"uuid","email","display_name","signed_in","reauthentication_required","last_used","active"}], "active": the
 * active account's uuid or null}, the active one first, then the most recently used. An account whose saved session
 * could not be read is listed with "signed_in": false (jump_client_restore reads it again; a switch makes it active
 * with its restore_error; a removal erases it). With accounts "single": the signed-in user, if any (the accounts of
 * an earlier "multiple" stay on storage, unlisted, until "multiple" again). Reads the saved index again, so that
 * accounts another process sharing the storage directory added are listed (their sessions are restored then).
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the list.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out_json is NULL.
 *   JUMP_E_STORAGE: the index of saved accounts could not be read.
 *   JUMP_E_TIMEOUT: another process held the index's lock longer than requestTimeoutMs.
 * May wait for: the index of saved accounts on storage and its lock (at most requestTimeoutMs), and the restore of
 * an account another process added (a host storage callback, or the session files, the Secret Service).
 */
jump_status jump_client_accounts(jump_client *client, char **out_json);

/* Makes the saved account of uuid the active one, without a password: the client's calls go to it from now on, and
 * event account_switched tells the app. Its session was kept (the record, its unsynced edits, its journal); a
 * refresh runs first when its token is stale, and a refresh that fails leaves the switch done (jump_client_accounts
 * and jump_client_state say whether its user must sign in again). Unsynced edits stay with the account that made
 * them: a jump_record handle taken before the switch still edits its own account's record.
 * Ownership: uuid: borrowed for the call.
 * Returns:
 *   JUMP_OK: the account is active.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: uuid is NULL or not UTF-8.
 *   JUMP_E_NOT_FOUND: no saved account has this uuid.
 *   JUMP_E_STORAGE: the index of saved accounts could not be read or written: the switch is not made.
 *   JUMP_E_TIMEOUT: another process held the index's lock longer than requestTimeoutMs.
 * May wait for: the index of saved accounts and its lock (at most requestTimeoutMs); the token refresh when the
 * token is stale (the network, up to requestTimeoutMs per request, with retries; its save).
 */
jump_status jump_client_switch_account(jump_client *client, const char *uuid);

/* Asynchronous jump_client_switch_account.
 * Ownership: uuid: borrowed for the call; callback: kept until libjump drops it, then userdata_free(userdata) runs
 * exactly once; out_request: receives a new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_switch_account, and its result or error detail) comes to
 *       the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_switch_account: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_switch_account runs on a libjump thread ("jump-work").
 */
jump_status jump_client_switch_account_async(jump_client *client, const char *uuid, jump_callback callback,
                                             void *userdata, jump_free_fn userdata_free,
                                             jump_request **out_request);

/* Signs the saved account of uuid out and erases everything of it on storage: its session, its record journal
 * (unsynced edits are discarded), the sessions set aside in its quarantine and its secrets. The other accounts stay
 * signed in and usable. Capture has no token revocation: the refresh secret is erased with the session. A removed
 * active account leaves no user active (jump_client_is_signed_in is false until a sign-in or a switch): removing
 * one account never signs another in. Event signed_out names it.
 * Ownership: uuid: borrowed for the call.
 * Returns:
 *   JUMP_OK: the account is signed out and erased.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: uuid is NULL or not UTF-8.
 *   JUMP_E_NOT_FOUND: no saved account has this uuid.
 *   JUMP_E_STORAGE: an erase failed: the account is signed out in memory but something of it is still stored; call
 *       again.
 *   JUMP_E_TIMEOUT: another operation of the account held it longer than requestTimeoutMs (detail reason "busy"),
 *       or another process held the index's lock.
 * May wait for: the account's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service); the index of saved accounts
 * and its lock.
 */
jump_status jump_client_remove_account(jump_client *client, const char *uuid);

/* Signs out of everything: the Capture session, the sign-in-token or API-key credential, its gist and the
 * identified external user are forgotten in memory and erased from storage; then, best effort, the refresh token is
 * revoked on the server. Unsynced changes are discarded. With accounts "multiple", the Capture part is the active
 * account only: it leaves the saved accounts, the others stay signed in, and no user is active until a sign-in or
 * jump_client_switch_account. JUMP_E_STORAGE when an erase failed: the session is gone from memory but still
 * stored; call again.
 * Returns:
 *   JUMP_OK: signed out in memory and on storage (the revocation is best effort: its failure is not reported).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_STORAGE: an erase failed: the session is gone from memory but still stored; call again.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service); the revocation request (best
 * effort, up to requestTimeoutMs).
 */
jump_status jump_client_sign_out(jump_client *client);

/* A view of the signed-in user's record (see jump_record). The caller frees it with jump_record_free.
 * Ownership: out: receives a new handle the caller frees with jump_record_free.
 * Returns:
 *   JUMP_OK: *out holds a record view of the signed-in user's record.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out is NULL.
 *   JUMP_E_NOT_SIGNED_IN: no user is signed in.
 *   JUMP_E_INTERNAL: the handle could not be registered.
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_client_record(jump_client *client, jump_record **out);

/* Fetches the record from the server (/entity), keeping unsynced local edits on top. Refreshes an expired access
 * token transparently. When an attribute with an unsynced edit also changed on the server, the record is still
 * updated but keeps the local value there and the call returns JUMP_E_CONFLICT, whose detail lists "conflicts"
 * [{"path","local","server","base"}]: jump_record_revert(path) takes the server's value, jump_client_sync sends the
 * local one.
 * Returns:
 *   JUMP_OK: the record is fetched; unsynced edits stay on top.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_NOT_SIGNED_IN: no user is signed in, or the session ended while the call ran.
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_CONFLICT: the record was updated, but an edited value also changed on the server (detail: conflicts; the
 *       local value is kept).
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_STORAGE: the fetched record could not be saved.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_fetch_record(jump_client *client);

/* Asynchronous jump_client_fetch_record; the completion's result is {}.
 * Ownership: callback: kept until libjump drops it, then userdata_free(userdata) runs exactly once; out_request:
 * receives a new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_fetch_record, and its result or error detail) comes to
 *       the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_fetch_record: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_fetch_record runs on a libjump thread ("jump-work").
 */
jump_status jump_client_fetch_record_async(jump_client *client, jump_callback callback, void *userdata,
                                           jump_free_fn userdata_free, jump_request **out_request);

/* Sends the record's unsynced changes with the fewest requests: one entity.update per changed object (the record
 * root with its nested objects; each changed plural element), one entity.update per plural that gained elements at
 * its end (only the new ones: the server appends them, other elements keep their ids), one entity.replace per
 * plural reordered or given elements before its existing ones (or none of whose elements stay), one entity.delete
 * per removed element. An append is applied once: it is saved as pending before it is sent, and when its answer is
 * lost (a dropped connection, a killed process) the next sync first reads the plural (/entity) and takes elements
 * the server already has as acknowledged, never sending them twice (one extra request, only then). A json attribute
 * is sent whole when any of it changed (Capture replaces its value, where it merges an object's members): libjump
 * knows one from the schema (jump_client_load_schema, captureSchemaFile); without a schema it looks like an object,
 * and only its changed members are sent, which Capture keeps alone. A change stays unsynced until the server
 * acknowledged it, and an acknowledged one is never sent again (also after a partial failure, whose detail lists
 * "synced" and "pending" paths). out_result (may be NULL): {"changed":["/aboutMe",..],
 * "requests":N,"renamed":{"/photos#-1":"/photos#57",..}} (element paths whose id the server assigned).
 * Ownership: out_result: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: every unsynced change is acknowledged; *out_result (when not NULL) holds
 *       {"changed","requests","renamed"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_NOT_SIGNED_IN: no user is signed in, or the session ended while the call ran.
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_INVALID_ARGUMENT: the server refused a change (detail: synced, pending).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_STORAGE: a pending append or an acknowledgement could not be saved (detail: synced, pending).
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_sync(jump_client *client, char **out_result);

/* Asynchronous jump_client_sync.
 * Ownership: callback: kept until libjump drops it, then userdata_free(userdata) runs exactly once; out_request:
 * receives a new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_sync, and its result or error detail) comes to the
 *       callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_sync: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_sync runs on a libjump thread ("jump-work").
 */
jump_status jump_client_sync_async(jump_client *client, jump_callback callback, void *userdata,
                                   jump_free_fn userdata_free, jump_request **out_request);

/* Downloads the record schema (POST /entityType; with the client's write_with_token access schema when the server
 * gives it) and caches it like the flow. From then on record edits are checked against it locally: unknown
 * attributes, wrong types, over-long strings, reserved attributes and attributes outside the access schema are
 * refused with JUMP_E_INVALID_ARGUMENT naming the path. Without a schema (neither this nor captureSchemaFile), an
 * edit must name an attribute the record already has. Needs a signed-in user (Capture answers /entityType to an
 * access token or owner credentials only): JUMP_E_NOT_SIGNED_IN otherwise; an app that needs the schema before
 * sign-in ships it in captureSchemaFile.
 * Returns:
 *   JUMP_OK: the schema is loaded and cached; edits are checked against it from now on.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_NOT_SIGNED_IN: no user is signed in (Capture answers /entityType only to an access token or owner
 *       credentials).
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_INVALID_ARGUMENT: a required argument is NULL or not UTF-8, or Capture is not configured (captureDomain,
 *       captureClientId).
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_STORAGE: the schema could not be cached.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_load_schema(jump_client *client);
/* END FUNCTIONS */

/* Profile and password forms. Validation failures are JUMP_E_VALIDATION with "invalid_fields"
 * {field or form name: [messages in captureLocale]}. Each has an _async variant (completion result {}). */

/* BEGIN FUNCTIONS from jump_client_update_profile: generated from jump_api.json (make generate); do not edit */
/* Updates the profile through the edit-profile form (update_profile_native). The form's fields are filled from the
 * record (unsynced edits included) after applying attributes_json (a JSON object of record attributes, or NULL).
 * Then the record is fetched again: the edits the form carried are synced.
 * Ownership: attributes_json: borrowed for the call.
 * Returns:
 *   JUMP_OK: the form was accepted and the record fetched again.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: attributes_json is not UTF-8 or not a JSON object, or Capture is not configured.
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_NOT_SIGNED_IN: no user is signed in, or the session ended while the call ran.
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_STORAGE: the fetched record could not be saved.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_update_profile(jump_client *client, const char *attributes_json);

/* Asynchronous jump_client_update_profile.
 * Ownership: attributes_json: borrowed for the call; callback: kept until libjump drops it, then
 * userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_update_profile, and its result or error detail) comes to
 *       the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_update_profile: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_update_profile runs on a libjump thread ("jump-work").
 */
jump_status jump_client_update_profile_async(jump_client *client, const char *attributes_json,
                                             jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                             jump_request **out_request);

/* Changes the signed-in user's password through the change-password form (captureChangePasswordFormName).
 * Ownership: current_password, new_password: borrowed for the call.
 * Returns:
 *   JUMP_OK: the password is changed.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: a password is NULL or not UTF-8, or Capture is not configured.
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_NOT_SIGNED_IN: no user is signed in, or the session ended while the call ran.
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_BAD_CREDENTIALS: current_password is wrong.
 *   JUMP_E_STORAGE: the renewed session could not be saved.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_change_password(jump_client *client, const char *current_password,
                                        const char *new_password);

/* Asynchronous jump_client_change_password.
 * Ownership: current_password, new_password: borrowed for the call; callback: kept until libjump drops it, then
 * userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_change_password, and its result or error detail) comes
 *       to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_change_password: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_change_password runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_change_password_async(jump_client *client, const char *current_password,
                                              const char *new_password, jump_callback callback, void *userdata,
                                              jump_free_fn userdata_free, jump_request **out_request);

/* Asks Capture to email a password-reset link to email (forgot_password_native); no sign-in needed.
 * Ownership: email: borrowed for the call.
 * Returns:
 *   JUMP_OK: Capture accepted the request (it emails the link).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: email is NULL or not UTF-8, or Capture is not configured.
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy").
 */
jump_status jump_client_forgot_password(jump_client *client, const char *email);

/* Asynchronous jump_client_forgot_password.
 * Ownership: email: borrowed for the call; callback: kept until libjump drops it, then userdata_free(userdata) runs
 * exactly once; out_request: receives a new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_forgot_password, and its result or error detail) comes
 *       to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_forgot_password: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_forgot_password runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_forgot_password_async(jump_client *client, const char *email, jump_callback callback,
                                              void *userdata, jump_free_fn userdata_free,
                                              jump_request **out_request);

/* Asks Capture to send the email-verification message again (verify_email_native); no sign-in needed.
 * Ownership: email: borrowed for the call.
 * Returns:
 *   JUMP_OK: Capture accepted the request.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: email is NULL or not UTF-8, or Capture is not configured.
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy").
 */
jump_status jump_client_resend_verification_email(jump_client *client, const char *email);

/* Asynchronous jump_client_resend_verification_email.
 * Ownership: email: borrowed for the call; callback: kept until libjump drops it, then userdata_free(userdata) runs
 * exactly once; out_request: receives a new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_resend_verification_email, and its result or error
 *       detail) comes to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_resend_verification_email: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_resend_verification_email runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_resend_verification_email_async(jump_client *client, const char *email,
                                                        jump_callback callback, void *userdata,
                                                        jump_free_fn userdata_free, jump_request **out_request);
/* END FUNCTIONS */

/* ---- Social sign-in (Engage), registration, merge, linking and sharing ---- */
/* Social outcomes (jump_client_social_complete, _sign_in_loopback, _sign_in_native) give out_result:
 *   Capture configured: {"outcome":"signed_in"|"registered" (thin registration made the user)|"linked",
 *     "provider","is_new","uuid","authorization_code"|null,"merged" (a merge_token identity was added),
 *     "identifier" (the social identity, or null when Engage gave no profile)};
 *   Engage only (no captureDomain): {"outcome":"authenticated","provider","token" (the Engage token, a
 *     secret),"device_token"|null,"profile":{..},"token_url_response":null|{"status","headers":[[n,v]],
 *     "cookies":[{"name","value","domain","path"}],"body"}} (a token URL answer of any HTTP status; an
 *     unreachable token URL fails the call with its network status).
 * Failures: JUMP_E_REGISTRATION_REQUIRED {"social_registration_token","provider","prereg_record":{record
 * attributes},"prereg_fields":{form fields}}; JUMP_E_MERGE_REQUIRED {"merge_token","existing_provider"
 * ("capture" for a password account),"conflicting_provider"}; JUMP_E_CANCELLED {"reason":"user_canceled"}
 * when the user cancelled on the provider; JUMP_E_VALIDATION {"invalid_fields":{"input":[..]}} for a bad
 * OpenID input; JUMP_E_BAD_CREDENTIALS when the provider refused ("engage_error"); linking an identity that
 * belongs to another account: JUMP_E_VALIDATION (server code 361); a link begun by a session that has ended
 * since: JUMP_E_NOT_SIGNED_IN ("reason":"session_changed"). Redirect and native completions ask Engage's
 * mobile endpoint for the profile and device token (best effort). The social
 * registration and merge tokens are secrets: hand them back, do not log them. */

/* BEGIN FUNCTIONS from jump_client_load_engage_config: generated from jump_api.json (make generate); do not edit */
/* Fetches the Engage app configuration (mobile_config_and_baseurl with If-None-Match) and caches it with its ETag;
 * a cached copy is used at start-up and kept when the server says 304 or cannot be reached. Normally loaded when
 * first needed. out_json (may be NULL): {"changed":bool,"from_cache":bool}.
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: the configuration is current (downloaded, 304, or the cached copy when the server cannot be reached);
 *       *out_json (when not NULL) holds {"changed","from_cache"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not UTF-8, or Engage is not configured (engageAppId).
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_STORAGE: the configuration could not be cached.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_load_engage_config(jump_client *client, char **out_json);

/* The providers: {"sign_in":[{"name","friendly_name","requires_input","input_prompt","input_label",
 * "custom":null|"openid"|"saml"}] (server order, custom providers last),"sharing":[{"name","friendly_name",
 * "properties":{social_sharing_properties}}],"hide_tagline"}. Loads the configuration if needed.
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the providers.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not UTF-8, or Engage is not configured (engageAppId).
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries) when the configuration is not loaded
 * yet; the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a
 * host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_client_providers(jump_client *client, char **out_json);

/* Begins a browser sign-in (RFC 8252: open the URL in the system browser). options_json (may be NULL): {"input":
 * text for requires_input providers,"force_reauth":bool,"link":bool (add the identity to the signed-in
 * user),"merge_token": from JUMP_E_MERGE_REQUIRED (sign in with the existing provider and merge), "redirect_uri":
 * where the browser is sent with ?token= (default engageWhitelistedDomain in "token" mode; in "token_profile" mode
 * the browser ends on <baseurl>/signin/device)}. out_json: {"url","state",
 * "completion":"device"|"redirect","completion_prefix"}. Pending for 10 minutes; at most 16 at once. Engage does
 * not echo "state" on /signin/device, so a new "device" sign-in replaces one still pending there.
 * Ownership: provider, options_json: borrowed for the call; out_json: receives a string the caller frees with
 * jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds {"url","state","completion","completion_prefix"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: provider is unknown, options_json is not a JSON object, a requires_input provider has
 *       no "input", or Engage is not configured.
 *   JUMP_E_NOT_SIGNED_IN: "link" without a signed-in user.
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries) when the Engage configuration is not
 * loaded yet; the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_client_social_begin(jump_client *client, const char *provider, const char *options_json,
                                     char **out_json);

/* Completes a begun sign-in with the URL the browser ended on (the /signin/device URL or the redirect with ?token=;
 * a /signin/device URL without "state" completes this client's pending "device" sign-in). A URL that is not the
 * completion of a pending sign-in (wrong place, unknown or used state) is JUMP_E_INVALID_ARGUMENT and changes
 * nothing. See "Social outcomes" above.
 * Ownership: url: borrowed for the call; out_result: receives a string the caller frees with jump_string_free (NULL
 * on failure).
 * Returns:
 *   JUMP_OK: signed in, registered, linked or authenticated: *out_result (when not NULL) holds the social outcome.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: url is not the completion of a pending sign-in (wrong place, unknown or used state):
 *       nothing changes.
 *   JUMP_E_STORAGE: another user's unsynced edits could not be set aside, or a saved session can neither be read
 *       nor set aside ("reason":"unreadable_session"): the previous user stays signed in.
 *   JUMP_E_CONFLICT: signed in all the same, but a kept unsynced edit also changed on the server (detail:
 *       conflicts, "signed_in":true).
 *   JUMP_E_REGISTRATION_REQUIRED: the identity has no account yet and thin registration is off (detail:
 *       social_registration_token, prereg_record, prereg_fields).
 *   JUMP_E_MERGE_REQUIRED: the identity's email belongs to another account (detail: merge_token, existing_provider,
 *       conflicting_provider).
 *   JUMP_E_CANCELLED: the user cancelled on the provider (detail "reason":"user_canceled").
 *   JUMP_E_VALIDATION: a bad OpenID input, or linking an identity that belongs to another account (server code
 *       361).
 *   JUMP_E_BAD_CREDENTIALS: the provider refused ("engage_error").
 *   JUMP_E_NOT_SIGNED_IN: a link begun by a session that has ended since ("reason":"session_changed").
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_social_complete(jump_client *client, const char *url, char **out_result);

/* Asynchronous jump_client_social_complete.
 * Ownership: url: borrowed for the call; callback: kept until libjump drops it, then userdata_free(userdata) runs
 * exactly once; out_request: receives a new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_social_complete, and its result or error detail) comes
 *       to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_social_complete: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_social_complete runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_social_complete_async(jump_client *client, const char *url, jump_callback callback,
                                              void *userdata, jump_free_fn userdata_free,
                                              jump_request **out_request);
/* END FUNCTIONS */
/* Asks the host to open url in the system browser; return JUMP_OK once it is opened (or handed over). */
typedef jump_status (*jump_open_url_fn)(void *userdata, const char *url);
/* BEGIN FUNCTIONS from jump_client_social_sign_in_loopback: generated from jump_api.json (make generate); do not edit */
/* Browser sign-in for desktop and command-line hosts: listens on 127.0.0.1 (ephemeral port), calls open_url once
 * with the sign-in URL, and completes when the browser lands on the listener (it shows a "you may close this
 * window" page). timeout_ms <= 0: 5 minutes; then JUMP_E_TIMEOUT. options_json as for jump_client_social_begin
 * (without redirect_uri). open_url runs on the calling thread.
 * Ownership: provider, options_json: borrowed for the call; open_url: host code, called as its typedef says;
 * out_result: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: as jump_client_social_complete.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: provider is unknown, open_url is NULL, options_json is not a JSON object, or Engage is
 *       not configured.
 *   JUMP_E_TIMEOUT: the browser did not land on the listener within timeout_ms (<= 0: 5 minutes), or a request
 *       timed out; or another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 *   JUMP_E_NETWORK: the listener could not be opened, or the server could not be reached.
 *   JUMP_E_CANCELLED: the user cancelled on the provider, or the listener was closed.
 *   JUMP_E_SERVER: open_url failed: its own negative status is returned (JUMP_E_SERVER when it is not a
 *       jump_status); or the server answered with an error or with something not JSON, or a body over
 *       maxResponseBytes.
 *   JUMP_E_STORAGE: another user's unsynced edits could not be set aside, or a saved session can neither be read
 *       nor set aside ("reason":"unreadable_session"): the previous user stays signed in.
 *   JUMP_E_CONFLICT: signed in all the same, but a kept unsynced edit also changed on the server (detail:
 *       conflicts, "signed_in":true).
 *   JUMP_E_REGISTRATION_REQUIRED: the identity has no account yet and thin registration is off (detail:
 *       social_registration_token, prereg_record, prereg_fields).
 *   JUMP_E_MERGE_REQUIRED: the identity's email belongs to another account (detail: merge_token, existing_provider,
 *       conflicting_provider).
 *   JUMP_E_VALIDATION: a bad OpenID input, or linking an identity that belongs to another account (server code
 *       361).
 *   JUMP_E_BAD_CREDENTIALS: the provider refused ("engage_error").
 *   JUMP_E_NOT_SIGNED_IN: a link begun by a session that has ended since ("reason":"session_changed").
 * May wait for: the user in the browser (up to timeout_ms; 5 minutes when <= 0); open_url (host code, on the
 * calling thread); the network (up to requestTimeoutMs per request, with retries); the client's earlier operations
 * and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_social_sign_in_loopback(jump_client *client, const char *provider, const char *options_json,
                                                jump_open_url_fn open_url, void *userdata, int32_t timeout_ms,
                                                char **out_result);

/* Asynchronous jump_client_social_sign_in_loopback: open_url runs on a libjump thread with userdata, then the
 * callback; jump_request_cancel stops the wait (JUMP_E_CANCELLED). userdata_free runs after both.
 * Ownership: provider, options_json: borrowed for the call; open_url: host code, called as its typedef says;
 * callback: kept until libjump drops it, then userdata_free(userdata) runs exactly once; out_request: receives a
 * new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_social_sign_in_loopback, and its result or error detail)
 *       comes to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_social_sign_in_loopback: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_social_sign_in_loopback runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_social_sign_in_loopback_async(jump_client *client, const char *provider,
                                                      const char *options_json, jump_open_url_fn open_url,
                                                      int32_t timeout_ms, jump_callback callback, void *userdata,
                                                      jump_free_fn userdata_free, jump_request **out_request);

/* Signs in with a provider SDK's own token (/signin/oauth_token): token is its access token, token_secret the
 * OAuth1 secret (twitter) or NULL. options_json: {"link","merge_token"} as for jump_client_social_begin. Engage
 * issues no device token for it, so such a sign-in cannot share. See "Social outcomes" above.
 * Ownership: provider, token, token_secret, options_json: borrowed for the call; out_result: receives a string the
 * caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: as jump_client_social_complete.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: provider or token is NULL or not UTF-8, options_json is not a JSON object, or Engage
 *       is not configured.
 *   JUMP_E_STORAGE: another user's unsynced edits could not be set aside, or a saved session can neither be read
 *       nor set aside ("reason":"unreadable_session"): the previous user stays signed in.
 *   JUMP_E_CONFLICT: signed in all the same, but a kept unsynced edit also changed on the server (detail:
 *       conflicts, "signed_in":true).
 *   JUMP_E_REGISTRATION_REQUIRED: the identity has no account yet and thin registration is off (detail:
 *       social_registration_token, prereg_record, prereg_fields).
 *   JUMP_E_MERGE_REQUIRED: the identity's email belongs to another account (detail: merge_token, existing_provider,
 *       conflicting_provider).
 *   JUMP_E_CANCELLED: the user cancelled on the provider (detail "reason":"user_canceled").
 *   JUMP_E_VALIDATION: a bad OpenID input, or linking an identity that belongs to another account (server code
 *       361).
 *   JUMP_E_BAD_CREDENTIALS: the provider refused ("engage_error").
 *   JUMP_E_NOT_SIGNED_IN: a link begun by a session that has ended since ("reason":"session_changed").
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_social_sign_in_native(jump_client *client, const char *provider, const char *token,
                                              const char *token_secret, const char *options_json,
                                              char **out_result);

/* Asynchronous jump_client_social_sign_in_native.
 * Ownership: provider, token, token_secret, options_json: borrowed for the call; callback: kept until libjump drops
 * it, then userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_social_sign_in_native, and its result or error detail)
 *       comes to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_social_sign_in_native: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_social_sign_in_native runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_social_sign_in_native_async(jump_client *client, const char *provider, const char *token,
                                                    const char *token_secret, const char *options_json,
                                                    jump_callback callback, void *userdata,
                                                    jump_free_fn userdata_free, jump_request **out_request);

/* Engage-only mode: sets the token URL the Engage token is POSTed to after each social sign-in (token=..); NULL
 * removes it. Starts as engageTokenUrl.
 * Ownership: url: borrowed for the call.
 * Returns:
 *   JUMP_OK: the token URL is set (or removed).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: url is not UTF-8 or not a usable URL.
 * May wait for: nothing.
 */
jump_status jump_client_set_token_url(jump_client *client, const char *url);

/* Two-step social registration (register_native) after JUMP_E_REGISTRATION_REQUIRED: attributes_json (a JSON object
 * of record attributes, e.g. the detail's prereg_record completed by the user) is mapped to the social registration
 * form. Signs the new user in; out_result (may be NULL) {"is_new":true,"uuid",..}. JUMP_E_VALIDATION carries
 * invalid_fields; a spent or unknown token is JUMP_E_INVALID_ARGUMENT ("reason":"token_not_usable").
 * Ownership: social_registration_token, attributes_json: borrowed for the call; out_result: receives a string the
 * caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: registered and signed in; *out_result (when not NULL) holds {"is_new":true,"uuid",..}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL, not UTF-8 or not a JSON object, or the token is spent or unknown
 *       ("reason":"token_not_usable").
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_STORAGE: another user's unsynced edits could not be set aside, or a saved session can neither be read
 *       nor set aside ("reason":"unreadable_session"): the previous user stays signed in.
 *   JUMP_E_CONFLICT: signed in all the same, but a kept unsynced edit also changed on the server (detail:
 *       conflicts, "signed_in":true).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_register_social(jump_client *client, const char *social_registration_token,
                                        const char *attributes_json, char **out_result);

/* Asynchronous jump_client_register_social.
 * Ownership: social_registration_token, attributes_json: borrowed for the call; callback: kept until libjump drops
 * it, then userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_register_social, and its result or error detail) comes
 *       to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_register_social: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_register_social runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_register_social_async(jump_client *client, const char *social_registration_token,
                                              const char *attributes_json, jump_callback callback, void *userdata,
                                              jump_free_fn userdata_free, jump_request **out_request);

/* jump_client_sign_in that also merges merge_token's identity (JUMP_E_MERGE_REQUIRED with existing_provider
 * "capture") into the account; out_result as for jump_client_sign_in plus "merged":true.
 * Ownership: user, password, merge_token: borrowed for the call; out_result: receives a string the caller frees
 * with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: signed in and merged; *out_result as jump_client_sign_in's plus "merged":true.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not UTF-8, or Capture is not configured.
 *   JUMP_E_BAD_CREDENTIALS: wrong user name, email or password, or a merge_token Engage no longer accepts.
 *   JUMP_E_VALIDATION: the form was refused (detail: invalid_fields, messages in captureLocale).
 *   JUMP_E_STORAGE: another user's unsynced edits could not be set aside, or a saved session can neither be read
 *       nor set aside ("reason":"unreadable_session"): the previous user stays signed in.
 *   JUMP_E_CONFLICT: signed in all the same, but a kept unsynced edit also changed on the server (detail:
 *       conflicts, "signed_in":true).
 *   JUMP_E_NOT_FOUND: the flow, or the form or field the call needs in it, does not exist (captureFlowName, the
 *       *FormName keys).
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service).
 */
jump_status jump_client_sign_in_merge(jump_client *client, const char *user, const char *password,
                                      const char *merge_token, char **out_result);

/* Asynchronous jump_client_sign_in_merge.
 * Ownership: user, password, merge_token: borrowed for the call; callback: kept until libjump drops it, then
 * userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_sign_in_merge, and its result or error detail) comes to
 *       the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_sign_in_merge: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_sign_in_merge runs on a libjump thread ("jump-work").
 */
jump_status jump_client_sign_in_merge_async(jump_client *client, const char *user, const char *password,
                                            const char *merge_token, jump_callback callback, void *userdata,
                                            jump_free_fn userdata_free, jump_request **out_request);

/* The signed-in user's linked identities, from the record's profiles: [{"identifier","domain","provider",
 * "display_name","email","path"}].
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the identities (an empty array when there are none).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out_json is NULL.
 *   JUMP_E_NOT_SIGNED_IN: no user is signed in.
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy").
 */
jump_status jump_client_linked_profiles(jump_client *client, char **out_json);

/* Unlinks the identity (unlink_account_native), then fetches the record. The last identity of an account without a
 * password is refused before any unlink request (the record is re-read first, in case a password was set
 * elsewhere): JUMP_E_INVALID_ARGUMENT with "reason":"last_identity". Unknown: JUMP_E_NOT_FOUND.
 * Ownership: identifier: borrowed for the call.
 * Returns:
 *   JUMP_OK: the identity is unlinked and the record fetched again.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: identifier is NULL or not UTF-8, or the last identity of an account without a password
 *       ("reason":"last_identity").
 *   JUMP_E_NOT_FOUND: no linked identity has this identifier.
 *   JUMP_E_NOT_SIGNED_IN: no user is signed in, or the session ended while the call ran.
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_STORAGE: the fetched record could not be saved.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_unlink_account(jump_client *client, const char *identifier);

/* Asynchronous jump_client_unlink_account.
 * Ownership: identifier: borrowed for the call; callback: kept until libjump drops it, then userdata_free(userdata)
 * runs exactly once; out_request: receives a new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_unlink_account, and its result or error detail) comes to
 *       the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_unlink_account: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_unlink_account runs on a libjump thread ("jump-work").
 */
jump_status jump_client_unlink_account_async(jump_client *client, const char *identifier, jump_callback callback,
                                             void *userdata, jump_free_fn userdata_free,
                                             jump_request **out_request);

/* Shares activity_json ({"action" (required),"url","user_generated_content","title","description",
 * "action_links":[{"text","href"}],"media":[{"type":"image"|"flash"|"mp3",..}],"properties":{..}}) to each provider
 * of providers_json (a JSON array of sharing providers the user signed in with through the browser: their device
 * token is kept with the session): /api/v2/activity, or set_status for providers that use it when there is no url.
 * out_result (may be NULL): {"results":{"<provider>":{"ok":true, "method":"activity"|"set_status"}}}. When any
 * provider failed: JUMP_E_SERVER whose detail has the same "results", a failed one
 * {"ok":false,"error_class":"invalid_parameter"|"reauthenticate"|"rate_limit"|
 * "media"|"duplicate"|"character_limit"|"provider"|"not_signed_in"|"failed","code","message"}. A share that left
 * and lost its answer (its entry has "reason":"outcome_unknown") is not sent again: the call fails with
 * JUMP_E_NETWORK (JUMP_E_TIMEOUT when its time ran out) and detail {"reason":"outcome_unknown",
 * "results","failed","unknown":[providers]}.
 * Ownership: activity_json, providers_json: borrowed for the call; out_result: receives a string the caller frees
 * with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: every provider took the activity; *out_result (when not NULL) holds {"results"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: activity_json has no "action" or is not a JSON object, providers_json is not an array
 *       of strings, or Engage is not configured.
 *   JUMP_E_SERVER: a provider failed (detail: results, with each failed provider's error_class).
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 *   JUMP_E_NETWORK: a provider could not be reached, or a share left and lost its answer (detail reason
 *       "outcome_unknown": not sent again).
 *   JUMP_E_TIMEOUT: a share ran out of time (detail reason "outcome_unknown" when it had left); or another
 *       operation of this client (a sync, a credential change) held it longer than requestTimeoutMs (detail reason
 *       "busy").
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy").
 */
jump_status jump_client_share(jump_client *client, const char *activity_json, const char *providers_json,
                              char **out_result);

/* Asynchronous jump_client_share.
 * Ownership: activity_json, providers_json: borrowed for the call; callback: kept until libjump drops it, then
 * userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_share, and its result or error detail) comes to the
 *       callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_share: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_share runs on a libjump thread ("jump-work").
 */
jump_status jump_client_share_async(jump_client *client, const char *activity_json, const char *providers_json,
                                    jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                    jump_request **out_request);

/* Email and SMS content for the host to send, from the activity's "email" {"subject","message_body", "urls":[..]}
 * and "sms" {"message","urls":[..]} (defaults from title, description and url), with URLs shortened through
 * get_urls (kept long when that fails): {"email":{"subject","body","urls":{long:short}},
 * "sms":{"message","urls":{..}}}.
 * Ownership: activity_json: borrowed for the call; out_json: receives a string the caller frees with
 * jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds {"email","sms"} (URLs kept long when shortening fails).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: activity_json is NULL or not a JSON object, or Engage is not configured.
 * May wait for: the network (up to requestTimeoutMs per request, with retries) (get_urls; its failure is not
 * reported); the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy").
 */
jump_status jump_client_share_content(jump_client *client, const char *activity_json, char **out_json);
/* END FUNCTIONS */

/* ---- Sign-in tokens and API keys (the backend-issued session; docs/protocol.md section 12) ---- */

/* BEGIN FUNCTIONS from jump_sign_in_token_decode: generated from jump_api.json (make generate); do not edit */
/* Decodes a sign-in token without using it: {"user_id","team_id","environment","region","expires_at"}. A malformed
 * token is JUMP_E_INVALID_ARGUMENT saying what is wrong. No client, no network.
 * Ownership: sign_in_token: borrowed for the call; out_json: receives a string the caller frees with
 * jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds {"user_id","team_id","environment","region","expires_at"}.
 *   JUMP_E_INVALID_ARGUMENT: the token is NULL or malformed (the message says what is wrong), or out_json is NULL.
 * May wait for: nothing.
 */
jump_status jump_sign_in_token_decode(const char *sign_in_token, char **out_json);

/* Exchanges a sign-in token (from the app's backend) for an access + refresh session at /v1/token and forgets the
 * token. The same user already signed in: nothing to do ({"changed":false}), unless re-authentication is pending.
 * An API-key session of the same user, environment and region migrates in place ({"migrated":true}); another
 * signed-in user is JUMP_E_ALREADY_SIGNED_IN naming the "mismatch" (user_id, environment or region). Refused by the
 * server: JUMP_E_BAD_CREDENTIALS (detail error_type). out_result (may be NULL): {"user_id","changed","migrated"}.
 * Ownership: sign_in_token: borrowed for the call; out_result: receives a string the caller frees with
 * jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: signed in, unchanged or migrated; *out_result (when not NULL) holds {"user_id","changed","migrated"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: sign_in_token is NULL or malformed.
 *   JUMP_E_ALREADY_SIGNED_IN: another user is signed in (detail: mismatch, current_user_id).
 *   JUMP_E_BAD_CREDENTIALS: the server refused the token (detail: error_type).
 *   JUMP_E_NOT_SIGNED_IN: the credential changed while the token was being exchanged.
 *   JUMP_E_STORAGE: the new credential could not be saved.
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the store lock of another process.
 */
jump_status jump_client_sign_in_with_token(jump_client *client, const char *sign_in_token, char **out_result);

/* Asynchronous jump_client_sign_in_with_token.
 * Ownership: sign_in_token: borrowed for the call; callback: kept until libjump drops it, then
 * userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_sign_in_with_token, and its result or error detail)
 *       comes to the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_sign_in_with_token: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_sign_in_with_token runs on a libjump thread
 * ("jump-work").
 */
jump_status jump_client_sign_in_with_token_async(jump_client *client, const char *sign_in_token,
                                                 jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                                 jump_request **out_request);

/* API-key mode: requests carry api_key in the apiKeyHeader header. user_id may be NULL (configured, no user).
 * environment: "production", "sandbox", "dev" or "local"; region "us" or "eu". Another signed-in user is
 * JUMP_E_ALREADY_SIGNED_IN. api_key is a secret: never logged.
 * Ownership: api_key, user_id, environment, region: borrowed for the call.
 * Returns:
 *   JUMP_OK: the client is in API-key mode.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: api_key is NULL, or environment or region is not one of the listed values.
 *   JUMP_E_ALREADY_SIGNED_IN: another user is signed in.
 *   JUMP_E_STORAGE: the credential could not be saved.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service); the store lock of another
 * process.
 */
jump_status jump_client_use_api_key(jump_client *client, const char *api_key, const char *user_id,
                                    const char *environment, const char *region);

/* The sign-in status: {"configured","signed_in","use_api_key","use_sign_in_token",
 * "pending_reauthentication","user_id","team_id","environment","region","external_user_id", "restore_error"}. When
 * the saved credential cannot be read it comes from the secret-free gist, with restore_error set (never "signed
 * out" for a storage failure). Changes are events "status_changed".
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the status (from the secret-free gist, with restore_error, when the credential cannot
 *       be read).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out_json is NULL.
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy").
 */
jump_status jump_client_status(jump_client *client, char **out_json);
/* END FUNCTIONS */
/* The app's answer for identify: calls sink once with JSON {"type":"sign_in_token","sign_in_token":..} or
 * {"type":"api_key","api_key":..,"user_id":..,"environment":..,"region":..} and returns JUMP_OK, or
 * returns another status to fail the identify. Runs on the thread calling identify; it may block (e.g. ask
 * the app's backend) but must not call jump_* functions of this client. */
typedef jump_status (*jump_authenticate_fn)(void *userdata, const char *external_user_id, jump_storage_sink sink,
                                            void *sink_context);
/* BEGIN FUNCTIONS from jump_client_identify_external_user: generated from jump_api.json (make generate); do not edit */
/* Makes the signed-in user the one of the app's external_user_id: nothing (and no callback) when it already is;
 * otherwise authenticate supplies a credential; a different signed-in user is signed out first, the same user keeps
 * the session. Serialized per client. out_result (may be NULL): {"action":"none"|"kept"|
 * "reauthenticated"|"signed_in"|"switched","user_id"}.
 * Ownership: external_user_id: borrowed for the call; authenticate: host code, called as its typedef says;
 * out_result: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: the signed-in user is external_user_id's; *out_result (when not NULL) holds {"action","user_id"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: external_user_id or authenticate is NULL, or authenticate answered JUMP_OK without one
 *       JSON answer, or with a malformed credential.
 *   JUMP_E_BAD_CREDENTIALS: the server refused the sign-in token authenticate gave.
 *   JUMP_E_ALREADY_SIGNED_IN: the credential's user is not the one identify switched to.
 *   JUMP_E_CANCELLED: authenticate failed: its own negative status is returned (JUMP_E_CANCELLED when it is not a
 *       jump_status).
 *   JUMP_E_STORAGE: the credential could not be saved, or the previous user's erase failed.
 *   JUMP_E_NETWORK: the server could not be reached, or the write left and its answer was lost and could not be
 *       settled (detail reason "outcome_unknown").
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: authenticate (host code, on the calling thread; it may ask the app's backend); the network (up to
 * requestTimeoutMs per request, with retries); the client's earlier operations and their saves (at most
 * requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session files, fsync, the Secret
 * Service); the store lock of another process.
 */
jump_status jump_client_identify_external_user(jump_client *client, const char *external_user_id,
                                               jump_authenticate_fn authenticate, void *userdata,
                                               char **out_result);
/* END FUNCTIONS */

/* ---- Authorized requests ---- */

/* BEGIN FUNCTIONS from jump_client_request: generated from jump_api.json (make generate); do not edit */
/* Sends method (GET, POST, PUT, PATCH, DELETE) to url with the client's credential: the sign-in-token session's
 * bearer token, else the API key, else the Capture access token. url is relative ("/v2/...") to that credential's
 * server, or absolute on it (never another server). headers_json: a JSON object of extra headers, or NULL; body:
 * body_length bytes, or NULL. Expiring tokens are refreshed first; a 401 refreshes once and replays once.
 * out_response: {"status","headers":[[name,value],..],"body"} ("body" is null and "body_base64" set when the body
 * is not UTF-8). An HTTP error status is not a failure.
 * Ownership: method, url, headers_json, body: borrowed for the call; out_response: receives a string the caller
 * frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: the server answered (any HTTP status); *out_response holds {"status","headers","body"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: method is not GET, POST, PUT, PATCH or DELETE, url is not on the credential's server,
 *       headers_json is not an object of strings, or out_response is NULL.
 *   JUMP_E_NOT_SIGNED_IN: the client holds no credential.
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_STORAGE: a saved sign-in-token credential could not be read.
 *   JUMP_E_NETWORK: the server could not be reached, or a write left and lost its answer (detail reason
 *       "outcome_unknown": read back before sending it again).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs ("outcome_unknown" for a write that had left); or another
 *       operation of this client (a sync, a credential change) held it longer than requestTimeoutMs (detail reason
 *       "busy").
 *   JUMP_E_SERVER: a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_request(jump_client *client, const char *method, const char *url, const char *headers_json,
                                const char *body, size_t body_length, char **out_response);

/* Asynchronous jump_client_request (the body is copied before it returns); the completion's result is the same
 * object; jump_request_cancel stops it between and during its HTTP requests (JUMP_E_CANCELLED).
 * Ownership: method, url, headers_json, body: borrowed for the call; callback: kept until libjump drops it, then
 * userdata_free(userdata) runs exactly once; out_request: receives a new handle the caller frees with
 * jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_request, and its result or error detail) comes to the
 *       callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_request: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_request runs on a libjump thread ("jump-work").
 */
jump_status jump_client_request_async(jump_client *client, const char *method, const char *url,
                                      const char *headers_json, const char *body, size_t body_length,
                                      jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                      jump_request **out_request);

/* Web login (a login page in a browser or web view): takes the token the page left in its cookies (a Cookie header
 * or Set-Cookie lines; either may be NULL) or its title ("oauth_token=..."), under the name webLoginCookieName, and
 * keeps it for page_url's origin: jump_client_request then sends it as a bearer token to URLs on that origin, and
 * to relative URLs when the client holds no other credential. Kept in memory only. out_token (may be NULL) receives
 * it (a secret). JUMP_E_NOT_FOUND when neither holds it.
 * Ownership: page_url, cookies, title: borrowed for the call; out_token: receives a string the caller frees with
 * jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: the token is kept for page_url's origin; *out_token (when not NULL) holds it.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: page_url is NULL or not an http(s) URL, or an argument is not UTF-8.
 *   JUMP_E_NOT_FOUND: neither the cookies nor the title hold webLoginCookieName.
 * May wait for: nothing.
 */
jump_status jump_client_use_web_login(jump_client *client, const char *page_url, const char *cookies,
                                      const char *title, char **out_token);

/* A valid access token: the sign-in-token session's when there is one, else the Capture session's; refreshed first
 * if it expires within tokenRefreshMarginSeconds. A secret: free it with jump_string_free and do not log it.
 * Ownership: out_token: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_token holds a token valid for more than tokenRefreshMarginSeconds.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out_token is NULL.
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_NOT_SIGNED_IN: no credential is held (signed out), or the session ended while its token was being
 *       refreshed.
 *   JUMP_E_STORAGE: a saved sign-in-token credential could not be read (never the Capture session's token instead).
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 *   JUMP_E_UNSUPPORTED: a TLS or proxy key (pinnedPublicKeys, caFile, proxy) this libcurl cannot enforce: refused
 *       rather than ignored.
 * May wait for: nothing while the token is within its lifetime (answered from memory); when a refresh is due: the
 * network (up to requestTimeoutMs per request, with retries); the client's earlier operations and their saves (at
 * most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session files, fsync, the
 * Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of another process.
 */
jump_status jump_client_access_token(jump_client *client, char **out_token);

/* Refreshes now: the sign-in-token session at /v1/token (rotating the refresh token; invalid_token signs everything
 * out, event "user_invalidated"; reauthentication_required keeps the session pending and is JUMP_E_EXPIRED), else
 * the Capture session (refresh_access_token, signed with its refresh secret). Concurrent refreshes of one session
 * are coalesced into one request whose outcome every caller gets.
 * Returns:
 *   JUMP_OK: the token is refreshed (or a concurrent refresh of the same session succeeded).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_UNSUPPORTED: the client is in API-key mode.
 *   JUMP_E_EXPIRED: the session can no longer be refreshed (reauthentication_required keeps a sign-in-token session
 *       pending).
 *   JUMP_E_NOT_SIGNED_IN: no credential is held, or the refresh token was invalid: everything was signed out (event
 *       "user_invalidated").
 *   JUMP_E_STORAGE: the saved credential could not be read, or the refreshed one not saved.
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 * May wait for: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations and
 * their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_refresh_access_token(jump_client *client);
/* END FUNCTIONS */

/* ---- Credentials (one call before every API request) ---- */

/* jump_client_credentials flag: refresh now even when the token lasts long enough (e.g. after a 401). */
#define JUMP_CREDENTIALS_FORCE_REFRESH 1u
/* BEGIN FUNCTIONS from jump_client_credentials: generated from jump_api.json (make generate); do not edit */
/* The credential jump_client_request would send: {"kind":"capture"|"sign_in_token"|"api_key", "access_token" (a
 * secret; for "api_key" the API key),"expires_at" (epoch s),"expires_in" (s; both null when unknown),"refreshed"}.
 * Refreshed first (single flight; failures as jump_client_refresh_access_token) only when it has min_ttl_seconds or
 * less left, or with JUMP_CREDENTIALS_FORCE_REFRESH (JUMP_E_UNSUPPORTED for an API key); otherwise no request is
 * made. A saved sign-in-token credential that could not be read gives JUMP_E_STORAGE here, as in
 * jump_client_request, _access_token and _refresh_access_token: never the Capture session's token instead.
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds {"kind","access_token","expires_at","expires_in","refreshed"}.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out_json is NULL, min_ttl_seconds is negative or flags has unknown bits.
 *   JUMP_E_UNSUPPORTED: JUMP_CREDENTIALS_FORCE_REFRESH with an API key.
 *   JUMP_E_EXPIRED: the access token had to be refreshed and the session can no longer be refreshed: sign in again.
 *   JUMP_E_NOT_SIGNED_IN: no credential is held (signed out), or the session ended while its token was being
 *       refreshed.
 *   JUMP_E_STORAGE: a saved sign-in-token credential could not be read (never the Capture session's token instead).
 *   JUMP_E_NETWORK: the server could not be reached (DNS, refused, TLS, reset, pin_mismatch).
 *   JUMP_E_TIMEOUT: no answer within requestTimeoutMs (retries included), or another operation of this client held
 *       it longer (detail reason "busy").
 *   JUMP_E_SERVER: the server answered with an error or with something not JSON, or a body over maxResponseBytes.
 * May wait for: nothing when the credential lasts more than min_ttl_seconds and no refresh is forced (answered from
 * memory); else: the network (up to requestTimeoutMs per request, with retries); the client's earlier operations
 * and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT "busy"); a host storage callback (or the session
 * files, fsync, the Secret Service); the refresh in flight (at most 3 x requestTimeoutMs + 1 s); the store lock of
 * another process.
 */
jump_status jump_client_credentials(jump_client *client, int64_t min_ttl_seconds, uint32_t flags, char **out_json);

/* Asynchronous jump_client_credentials; the completion's result is the same object.
 * Ownership: callback: kept until libjump drops it, then userdata_free(userdata) runs exactly once; out_request:
 * receives a new handle the caller frees with jump_request_free.
 * Returns:
 *   JUMP_OK: started: the outcome (a status of jump_client_credentials, and its result or error detail) comes to
 *       the callback as a completion document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client (the callback still runs once, later, with
 *       the same status).
 *   JUMP_E_INVALID_ARGUMENT: an argument is NULL or not valid UTF-8/JSON (the callback still runs once, later, with
 *       the same status).
 * Callback: runs exactly once, on libjump's "jump-events" thread (or through the host's dispatcher,
 * jump_client_set_dispatcher; in queue mode it is queued for jump_client_next_event), with the outcome of
 * jump_client_credentials: one of its statuses, and its result or error detail.
 * May wait for: nothing: it returns at once, and jump_client_credentials runs on a libjump thread ("jump-work").
 */
jump_status jump_client_credentials_async(jump_client *client, int64_t min_ttl_seconds, uint32_t flags,
                                          jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                          jump_request **out_request);

/* 1 when the credential held now lasts more than min_ttl_seconds (an API key always does), else 0 (also when signed
 * out, for a negative min_ttl_seconds or an invalid handle). Memory only: no network, no storage, and it never
 * waits for a refresh in flight (it answers for the token held at that moment).
 * May wait for: nothing (answered from memory: no save, no host callback, no network); never waits for a refresh in
 * flight.
 */
int jump_client_has_valid_credentials(jump_client *client, int64_t min_ttl_seconds);

/* Sets the event callback (NULL removes it; the previous userdata_free runs). Events:
 * {"version":1,"kind":"event","event":"signed_in"|"signed_out"|"token_refreshed"|"record_synced"|
 * "record_fetched"|"session_expired", "uuid":..}, and for sign-in tokens and API keys "status_changed"
 * {"status":{<jump_client_status>}} and "user_invalidated" {"user_id"}.
 * Ownership: callback: kept until libjump drops it, then userdata_free(userdata) runs exactly once.
 * Returns:
 *   JUMP_OK: set (or removed); the previous userdata_free runs.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 * May wait for: nothing.
 */
jump_status jump_client_set_event_callback(jump_client *client, jump_callback callback, void *userdata,
                                           jump_free_fn userdata_free);

/* Routes this client's callbacks through a host dispatcher (NULL restores libjump's own thread).
 * Ownership: dispatch: host code, called as its typedef says.
 * Returns:
 *   JUMP_OK: set (or libjump's own thread again, dispatch NULL).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 * May wait for: nothing.
 */
jump_status jump_client_set_dispatcher(jump_client *client, jump_dispatch_fn dispatch, void *context);

/* Queue mode (enabled 1; 0 turns it off, sending what still waits to the callbacks): this client's async
 * completions (with "request_id", see jump_request_id) and events wait in a queue the host pumps on its own thread
 * with jump_client_next_event, and no host code runs on a thread of libjump's. Pass NULL callbacks to the _async
 * calls (one given anyway runs inside jump_client_next_event); the event callback is not used. jump_request_wait
 * returns once the completion is queued. For game loops, Node.js, IL2CPP.
 * Returns:
 *   JUMP_OK: queue mode is on (or off, what still waited sent to the callbacks).
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: enabled is neither 0 nor 1.
 * May wait for: nothing.
 */
jump_status jump_client_use_event_queue(jump_client *client, int32_t enabled);

/* A file descriptor readable exactly while the queue holds a document (poll it: asyncio add_reader, libuv, Go);
 * owned by the client, valid until queue mode is turned off or the client freed. Outside queue mode
 * JUMP_E_UNSUPPORTED.
 * Returns:
 *   JUMP_OK: *out_fd holds the descriptor.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out_fd is NULL.
 *   JUMP_E_UNSUPPORTED: the client is not in queue mode.
 * May wait for: nothing.
 */
jump_status jump_client_event_fd(jump_client *client, int *out_fd);

/* Pops the oldest queued document (completion or event, as a callback would get it) into *out_json; never blocks.
 * JUMP_E_NOT_FOUND when none waits; JUMP_E_UNSUPPORTED outside queue mode.
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the oldest queued document.
 *   JUMP_E_INVALID_HANDLE: client is NULL, freed or not a jump_client.
 *   JUMP_E_INVALID_ARGUMENT: out_json is NULL.
 *   JUMP_E_NOT_FOUND: no document waits.
 *   JUMP_E_UNSUPPORTED: the client is not in queue mode.
 * May wait for: nothing (it never blocks).
 */
jump_status jump_client_next_event(jump_client *client, char **out_json);
/* END FUNCTIONS */

/* ---------------------------------------------------------------------------------------------------- */
/* jump_record: a live view of the signed-in user's record. Paths: "/" (the whole record), "/aboutMe",  */
/* "/primaryAddress/city", "/photos#12/value" (a plural element by id), "/profiles#5/friends". Elements */
/* appended locally have a negative id ("/photos#-1") until a sync gives them the server's. Edits are   */
/* local (saved with the session, so they survive a restart) until jump_client_sync. JUMP_OK on an edit */
/* means it is on storage: an edit that cannot be saved returns JUMP_E_STORAGE and is not made. A view  */
/* outlives neither the session it was made for: after sign-out or another sign-in its calls return     */
/* JUMP_E_NOT_SIGNED_IN.                                                                                */
/* ---------------------------------------------------------------------------------------------------- */

/* BEGIN FUNCTIONS from jump_record_get: generated from jump_api.json (make generate); do not edit */
/* The value at path as JSON text. JUMP_E_NOT_FOUND when the path does not exist.
 * Ownership: path: borrowed for the call; out_json: receives a string the caller frees with jump_string_free (NULL
 * on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the value as JSON text.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: path is NULL or malformed (it must start with "/"), or the out pointer is NULL.
 *   JUMP_E_NOT_FOUND: the path does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_get(jump_record *record, const char *path, char **out_json);

/* The value at path as a new jansson reference.
 * Ownership: path: borrowed for the call; out: receives a new reference the caller releases with json_decref.
 * Returns:
 *   JUMP_OK: *out holds a new reference to the value.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: path is NULL or malformed (it must start with "/"), or the out pointer is NULL.
 *   JUMP_E_NOT_FOUND: the path does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_get_jansson(jump_record *record, const char *path, struct json_t **out);

/* The string at path; *out is NULL for a JSON null. Another type is JUMP_E_INVALID_ARGUMENT.
 * Ownership: path: borrowed for the call; out: receives a string the caller frees with jump_string_free (NULL on
 * failure).
 * Returns:
 *   JUMP_OK: *out holds the string, or NULL for a JSON null.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: path is NULL or malformed (it must start with "/"), or the out pointer is NULL; the
 *       value is neither a string nor null.
 *   JUMP_E_NOT_FOUND: the path does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_get_string(jump_record *record, const char *path, char **out);

/* The number at path (a JSON integer, or a real with an integral value within int64). JSON null is
 * JUMP_E_NOT_FOUND; another type JUMP_E_INVALID_ARGUMENT.
 * Ownership: path: borrowed for the call.
 * Returns:
 *   JUMP_OK: *out holds the integer.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: path is NULL or malformed (it must start with "/"), or the out pointer is NULL; the
 *       value is not an integer within int64.
 *   JUMP_E_NOT_FOUND: the path does not exist or holds JSON null.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_get_int64(jump_record *record, const char *path, int64_t *out);

/* The number at path as a double (integers converted). JSON null is JUMP_E_NOT_FOUND.
 * Ownership: path: borrowed for the call.
 * Returns:
 *   JUMP_OK: *out holds the number.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: path is NULL or malformed (it must start with "/"), or the out pointer is NULL; the
 *       value is not a number.
 *   JUMP_E_NOT_FOUND: the path does not exist or holds JSON null.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_get_double(jump_record *record, const char *path, double *out);

/* The boolean at path as 0 or 1. JSON null is JUMP_E_NOT_FOUND.
 * Ownership: path: borrowed for the call.
 * Returns:
 *   JUMP_OK: *out holds 0 or 1.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: path is NULL or malformed (it must start with "/"), or the out pointer is NULL; the
 *       value is not a boolean.
 *   JUMP_E_NOT_FOUND: the path does not exist or holds JSON null.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_get_bool(jump_record *record, const char *path, int *out);

/* Sets the attribute at path (also inside a plural element) to a JSON value (text); an object value sets the
 * members it names. Reserved attributes (id, uuid, created, lastUpdated), unknown attributes, wrong types and whole
 * plurals are refused with JUMP_E_INVALID_ARGUMENT naming the path (see jump_client_load_schema).
 * Ownership: path, value_json: borrowed for the call.
 * Returns:
 *   JUMP_OK: the edit is made and saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: the path or value is malformed, or refused: reserved attributes, unknown attributes
 *       (schema or record), wrong types, over-long strings, whole plurals, attributes outside the access schema
 *       (detail names the path).
 *   JUMP_E_NOT_FOUND: the path, or the plural element it names, does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_set(jump_record *record, const char *path, const char *value_json);

/* Sets the attribute at path to a jansson value (borrowed).
 * Ownership: path: borrowed for the call; value: borrowed (its reference count untouched).
 * Returns:
 *   JUMP_OK: the edit is made and saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: the path or value is malformed, or refused: reserved attributes, unknown attributes
 *       (schema or record), wrong types, over-long strings, whole plurals, attributes outside the access schema
 *       (detail names the path).
 *   JUMP_E_NOT_FOUND: the path, or the plural element it names, does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_set_jansson(jump_record *record, const char *path, const struct json_t *value);

/* Sets the attribute at path to a string (NULL sets JSON null).
 * Ownership: path, value: borrowed for the call.
 * Returns:
 *   JUMP_OK: the edit is made and saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: the path or value is malformed, or refused: reserved attributes, unknown attributes
 *       (schema or record), wrong types, over-long strings, whole plurals, attributes outside the access schema
 *       (detail names the path).
 *   JUMP_E_NOT_FOUND: the path, or the plural element it names, does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_set_string(jump_record *record, const char *path, const char *value);

/* Clears the value at path: JSON null for a value or an object, no elements for a plural.
 * Ownership: path: borrowed for the call.
 * Returns:
 *   JUMP_OK: the value is cleared and the edit saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: path is NULL or malformed (it must start with "/"), or the attribute is required, a
 *       password or outside the schema.
 *   JUMP_E_NOT_FOUND: the path, or the plural element it names, does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_clear(jump_record *record, const char *path);

/* Appends an element (a JSON object, without "id") to the plural at plural_path. out_path (may be NULL) receives
 * the new element's path, e.g. "/photos#-1" (free with jump_string_free).
 * Ownership: plural_path, element_json: borrowed for the call; out_path: receives a string the caller frees with
 * jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: the element is appended and saved; *out_path (when not NULL) holds its path.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: plural_path is not a plural, the element is not a JSON object or has an "id", or it is
 *       refused by the schema or the access schema.
 *   JUMP_E_NOT_FOUND: the plural's parent element does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_append(jump_record *record, const char *plural_path, const char *element_json,
                               char **out_path);

/* jump_record_append with the element as a jansson object (borrowed).
 * Ownership: plural_path: borrowed for the call; element: borrowed (its reference count untouched); out_path:
 * receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: the element is appended and saved; *out_path (when not NULL) holds its path.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: plural_path is not a plural, the element is not a JSON object or has an "id", or it is
 *       refused by the schema or the access schema.
 *   JUMP_E_NOT_FOUND: the plural's parent element does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_append_jansson(jump_record *record, const char *plural_path, const struct json_t *element,
                                       char **out_path);

/* Removes the plural element at element_path ("/photos#12").
 * Ownership: element_path: borrowed for the call.
 * Returns:
 *   JUMP_OK: the element is removed and the edit saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: element_path is not a plural element (e.g. "/photos#12") or the plural is not
 *       writable.
 *   JUMP_E_NOT_FOUND: no such element.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_remove(jump_record *record, const char *element_path);

/* Replaces every element of the plural at plural_path with elements_json (a JSON array of objects; any "id" in them
 * is ignored: the elements are new).
 * Ownership: plural_path, elements_json: borrowed for the call.
 * Returns:
 *   JUMP_OK: the plural's elements are replaced and the edit saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: plural_path is not a plural, elements are not an array of JSON objects, or the plural
 *       is not writable.
 *   JUMP_E_NOT_FOUND: the plural's parent element does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_replace_plural(jump_record *record, const char *plural_path, const char *elements_json);

/* jump_record_replace_plural with the elements as a jansson array (borrowed).
 * Ownership: plural_path: borrowed for the call; elements: borrowed (its reference count untouched).
 * Returns:
 *   JUMP_OK: the plural's elements are replaced and the edit saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: plural_path is not a plural, elements are not an array of JSON objects, or the plural
 *       is not writable.
 *   JUMP_E_NOT_FOUND: the plural's parent element does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_replace_plural_jansson(jump_record *record, const char *plural_path,
                                               const struct json_t *elements);

/* The number of elements of the plural at plural_path.
 * Ownership: plural_path: borrowed for the call.
 * Returns:
 *   JUMP_OK: *out holds the number of elements.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: plural_path is not a plural, or out is NULL.
 *   JUMP_E_NOT_FOUND: the plural does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_element_count(jump_record *record, const char *plural_path, size_t *out);

/* The paths of the plural's elements in order, as a JSON array of strings: ["/photos#12","/photos#-1"].
 * Ownership: plural_path: borrowed for the call; out_json: receives a string the caller frees with jump_string_free
 * (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the element paths.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: plural_path is not a plural, or out_json is NULL.
 *   JUMP_E_NOT_FOUND: the plural does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_element_paths(jump_record *record, const char *plural_path, char **out_json);

/* The unsynced changes: {"changed":[paths],"update":{<attributes of the root entity.update>},
 * "requests":[{"endpoint":"entity.update"|"entity.replace"|"entity.delete","attribute_name":..,
 * "attributes":..},..]} - exactly what jump_client_sync would send now.
 * Ownership: out_json: receives a string the caller frees with jump_string_free (NULL on failure).
 * Returns:
 *   JUMP_OK: *out_json holds the unsynced changes.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: out_json is NULL.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 * May wait for: nothing (answered from memory: no save, no host callback, no network).
 */
jump_status jump_record_changes(jump_record *record, char **out_json);

/* Drops the unsynced edits at path and below, going back to the value the server last acknowledged.
 * Ownership: path: borrowed for the call.
 * Returns:
 *   JUMP_OK: the edits at path and below are dropped and that saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_INVALID_ARGUMENT: path is NULL or malformed (it must start with "/").
 *   JUMP_E_NOT_FOUND: the path, or the plural element it names, does not exist.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_revert(jump_record *record, const char *path);

/* Drops all unsynced changes, going back to the last state the server acknowledged.
 * Returns:
 *   JUMP_OK: every unsynced change is dropped and that saved.
 *   JUMP_E_INVALID_HANDLE: record is NULL, freed or not a jump_record.
 *   JUMP_E_NOT_SIGNED_IN: the view's session has ended (sign-out or another sign-in).
 *   JUMP_E_STORAGE: the edit could not be saved: it is not made.
 *   JUMP_E_TIMEOUT: another operation of this client (a sync, a credential change) held it longer than
 *       requestTimeoutMs (detail reason "busy").
 * May wait for: the client's earlier operations and their saves (at most requestTimeoutMs, then JUMP_E_TIMEOUT
 * "busy"); a host storage callback (or the session files, fsync, the Secret Service).
 */
jump_status jump_record_discard_changes(jump_record *record);

/* Releases a record view (the record itself belongs to the client). NULL is a no-op.
 * Ownership: record: released by this call (NULL is a no-op).
 * May wait for: nothing.
 */
void jump_record_free(jump_record *record);
/* END FUNCTIONS */

/* ---------------------------------------------------------------------------------------------------- */
/* jump_request: an in-flight asynchronous operation.                                                   */
/* ---------------------------------------------------------------------------------------------------- */

/* BEGIN FUNCTIONS from jump_request_cancel: generated from jump_api.json (make generate); do not edit */
/* Asks the operation to stop; its callback then reports JUMP_E_CANCELLED unless it had already finished. A request
 * waiting on the network stops within about 100 ms.
 * Returns:
 *   JUMP_OK: asked to stop (also when it had already finished).
 *   JUMP_E_INVALID_HANDLE: request is NULL, freed or not a jump_request.
 * May wait for: nothing.
 */
jump_status jump_request_cancel(jump_request *request);

/* Waits until the operation's callback has returned (in queue mode: until its completion is queued), at most
 * timeout_ms (negative: no limit). JUMP_E_TIMEOUT when it has not; JUMP_E_BUSY from a libjump callback.
 * Returns:
 *   JUMP_OK: the operation's callback has returned (in queue mode: its completion is queued).
 *   JUMP_E_INVALID_HANDLE: request is NULL, freed or not a jump_request.
 *   JUMP_E_TIMEOUT: it has not within timeout_ms.
 *   JUMP_E_BUSY: called from a libjump callback (it would deadlock).
 * May wait for: the operation's completion (up to timeout_ms; negative: no limit).
 */
jump_status jump_request_wait(jump_request *request, int32_t timeout_ms);

/* The request's id, the "request_id" of its completion document (how queue mode matches them).
 * Returns:
 *   JUMP_OK: *out_id holds the id.
 *   JUMP_E_INVALID_HANDLE: request is NULL, freed or not a jump_request.
 *   JUMP_E_INVALID_ARGUMENT: out_id is NULL.
 * May wait for: nothing.
 */
jump_status jump_request_id(jump_request *request, uint64_t *out_id);

/* Releases the handle; the operation goes on and its callback still runs. NULL is a no-op.
 * Ownership: request: released by this call (NULL is a no-op).
 * May wait for: nothing.
 */
void jump_request_free(jump_request *request);
/* END FUNCTIONS */

#ifdef __cplusplus
}
#endif

#endif /* JUMP_H */
