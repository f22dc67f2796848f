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

/* The library's version string, e.g. "0.1.0". Static storage; never NULL. */
const char *jump_version(void);
/* The library's version as (major << 16) | (minor << 8) | patch; compare with JUMP_VERSION_NUMBER. */
uint32_t jump_version_number(void);
/* The library's ABI version; a host built against this header should refuse a library where it differs. */
int32_t jump_abi_version(void);

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

/* A static, human-readable description of a status code; never NULL (unknown codes included). */
const char *jump_status_str(jump_status status);

/* The detail of the last failure on the calling thread, as JSON text owned by the library (valid until the
 * next jump_* call on this thread; never NULL). Keys: "status", "status_name", "message", and when known
 * "server" {"code","error","error_description"}, "invalid_fields" {field: [messages]}, "argument",
 * "merge_token", "existing_provider", "conflicting_provider", "social_registration_token",
 * "prereg_record", "conflicts" [{"path","local","server","base"}], "synced" and "pending" (paths, after a
 * partial sync). Only meaningful right after a call returned non-JUMP_OK. */
const char *jump_error_last(void);
/* The same detail as a new jansson reference (caller json_decref()s it). out NULL: JUMP_E_INVALID_ARGUMENT,
 * and that becomes the last error. */
jump_status jump_error_last_jansson(struct json_t **out);

/* Frees a string returned by libjump. NULL is a no-op. */
void jump_string_free(char *string);

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

/* Installs a process-wide log callback (NULL removes it). Each call receives
 * {"version":1,"kind":"log","level":"debug"|"info"|"warning"|"error","message":"..."}; lines are redacted.
 * The callback may run on any thread, concurrently, and while libjump holds the lock of the client that
 * logs (a failed save logs under it): it must not call jump_* functions of a client; write the line down. */
jump_status jump_set_log_callback(jump_callback callback, void *userdata, jump_free_fn userdata_free);

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
/*       Request timeout in milliseconds.                                                               */
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
/* END CONFIG KEYS                                                                                      */
/* ---------------------------------------------------------------------------------------------------- */

typedef struct jump_config jump_config;

/* Creates a config holding the defaults. */
jump_status jump_config_new(jump_config **out);
/* Creates a config from a JSON object of the keys above. */
jump_status jump_config_from_json(const char *json, jump_config **out);
/* Creates a config from a jansson object (borrowed). */
jump_status jump_config_from_jansson(const struct json_t *json, jump_config **out);
/* Sets a string key; NULL restores the key's default. */
jump_status jump_config_set_string(jump_config *config, const char *key, const char *value);
/* Sets a boolean key (value 0 or 1). */
jump_status jump_config_set_bool(jump_config *config, const char *key, int value);
/* Sets an integer key. */
jump_status jump_config_set_int(jump_config *config, const char *key, int64_t value);
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
/* Makes clients created from config use these callbacks (all three, or all NULL to go back to files).
 * Save and erase run while the client's state is locked: a slow store delays that client's other calls.
 * context_free(context) runs exactly once: on a libjump thread when no config or client uses the storage
 * any more, or during this call when it fails or the callbacks are all NULL. */
jump_status jump_config_set_storage(jump_config *config, jump_storage_load_fn load, jump_storage_save_fn save,
                                    jump_storage_erase_fn erase, void *context, jump_free_fn context_free);
/* The effective settings, defaults included, as JSON text. */
jump_status jump_config_to_json(const jump_config *config, char **out);
/* The effective settings as a new jansson reference. */
jump_status jump_config_to_jansson(const jump_config *config, struct json_t **out);
/* Releases a config. Clients created from it keep their own copy. NULL is a no-op. */
void jump_config_free(jump_config *config);

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

/* Creates a client from a copy of config and restores the saved session, if any (no network). A saved
 * session that cannot be read leaves the client signed out with "restore_error" in its state; nothing is
 * deleted, and jump_client_restore() retries. */
jump_status jump_client_new(const jump_config *config, jump_client **out);
/* Releases a client. In-flight operations are cancelled: their callbacks still run once, later, with
 * JUMP_E_CANCELLED (or their result, if they had already finished); the event callback's userdata_free
 * runs once no delivery needs it. NULL is a no-op. */
void jump_client_free(jump_client *client);

/* The client's state as JSON: {"signed_in","uuid","email","reauthentication_required",
 * "access_token_expires_at" (epoch seconds by the local clock, or null when the server gave no lifetime),
 * "unsynced_changes","restore_error" (error detail or null: the saved session could not be read),
 * "storage_error" (error detail or null: the last save or erase failed), "flow_version" (or null),
 * "quarantine" (sessions set aside: [{"entry","reason":"unreadable"|"replaced","uuid","unsynced_changes",
 * "quarantined_at","message"}]), "secret_store" (where the secrets are kept: "secret-service", "file",
 * "host" or "memory"; see the secretStore key), "clock_offset_seconds" (Capture's clock minus this device's,
 * learned from the Date header of its answers and kept with the session: the refresh is signed with
 * Capture's time; 0 until Capture answered once)}. */
jump_status jump_client_state(jump_client *client, char **out_json);
/* 1 when a user is signed in, 0 otherwise (and for an invalid handle). */
int jump_client_is_signed_in(jump_client *client);
/* Reads the saved session and credential again (after a JUMP_E_STORAGE restore error). */
jump_status jump_client_restore(jump_client *client);
/* Erases the sessions set aside ("quarantine" in the state): a saved session that could not be read when
 * another sign-in replaced it, or another user's session with unsynced edits (which that user's next
 * sign-in would otherwise take back). */
jump_status jump_client_erase_quarantine(jump_client *client);
/* Downloads the Capture flow now (normally fetched when first needed) and caches it (in storageDirectory
 * or the host storage); falls back to the cached copy when the download fails. */
jump_status jump_client_load_flow(jump_client *client);

/* Registers a traditional account: attributes is a JSON object of record attributes (e.g. {"email":..,
 * "givenName":..,"birthday":"1990-05-17"}) mapped to the registration form's fields through the flow;
 * password fills the form's password fields. Signs the new user in. out_result (may be NULL) receives
 * {"is_new":true,"uuid":..,"authorization_code":..|null}. JUMP_E_VALIDATION carries invalid_fields. */
jump_status jump_client_register_traditional(jump_client *client, const char *attributes_json,
                                             const char *password, char **out_result);
/* jump_client_register_traditional with the attributes as a jansson object (borrowed). */
jump_status jump_client_register_traditional_jansson(jump_client *client, const struct json_t *attributes,
                                                     const char *password, char **out_result);
/* Asynchronous jump_client_register_traditional; the completion's result is the same object. */
jump_status jump_client_register_traditional_async(jump_client *client, const char *attributes_json,
                                                   const char *password, jump_callback callback,
                                                   void *userdata, jump_free_fn userdata_free,
                                                   jump_request **out_request);

/* Signs in with an email or user name (as the configured sign-in form expects) and a password.
 * out_result (may be NULL) receives {"is_new":false,"uuid":..,"authorization_code":..|null,
 * "kept_changes":[paths]}. The same user's unsynced edits (of the session in memory, one refused with
 * JUMP_E_EXPIRED, or one set aside) are kept on top of the fresh record ("kept_changes"); when the server
 * changed one of them too: JUMP_E_CONFLICT, signed in all the same, "conflicts" and "signed_in":true in
 * the detail. Another user's unsynced edits are set aside ("quarantine" in jump_client_state) for that
 * user's next sign-in; when they cannot be saved aside the sign-in is refused with JUMP_E_STORAGE and that
 * user stays signed in; a saved session that cannot be read, nor set aside, refuses it too ("reason":
 * "unreadable_session": retry jump_client_restore, or jump_client_sign_out to discard it). A session whose
 * save failed still works in memory ("storage_error" in the state).
 * The same holds for every call that signs in (registration, social sign-in). */
jump_status jump_client_sign_in(jump_client *client, const char *user, const char *password,
                                char **out_result);
/* Asynchronous jump_client_sign_in. */
jump_status jump_client_sign_in_async(jump_client *client, const char *user, const char *password,
                                      jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                      jump_request **out_request);

/* Signs out of everything: the Capture session, the sign-in-token or API-key credential, its gist and the
 * identified external user are forgotten in memory and erased from storage; then, best effort, the
 * refresh token is revoked on the server. Unsynced changes are discarded. JUMP_E_STORAGE when an erase
 * failed: the session is gone from memory but still stored; call again. */
jump_status jump_client_sign_out(jump_client *client);

/* A view of the signed-in user's record (see jump_record). The caller frees it with jump_record_free. */
jump_status jump_client_record(jump_client *client, jump_record **out);
/* Fetches the record from the server (/entity), keeping unsynced local edits on top. Refreshes an expired
 * access token transparently. When an attribute with an unsynced edit also changed on the server, the
 * record is still updated but keeps the local value there and the call returns JUMP_E_CONFLICT, whose
 * detail lists "conflicts" [{"path","local","server","base"}]: jump_record_revert(path) takes the server's
 * value, jump_client_sync sends the local one. */
jump_status jump_client_fetch_record(jump_client *client);
/* Asynchronous jump_client_fetch_record; the completion's result is {}. */
jump_status jump_client_fetch_record_async(jump_client *client, jump_callback callback, void *userdata,
                                           jump_free_fn userdata_free, jump_request **out_request);
/* Sends the record's unsynced changes with the fewest requests: one entity.update per changed object (the
 * record root with its nested objects; each changed plural element), one entity.update per plural that
 * gained elements at its end (only the new ones: the server appends them, other elements keep their ids),
 * one entity.replace per plural reordered or given elements before its existing ones (or none of whose
 * elements stay), one entity.delete per removed element. An append is applied once: it is saved as pending
 * before it is sent, and when its answer is lost (a dropped connection, a killed process) the next sync first
 * reads the plural (/entity) and takes elements the server already has as acknowledged, never sending them
 * twice (one extra request, only then). A json attribute is sent whole when any of it changed (Capture
 * replaces its value, where it merges an object's members): libjump knows one from the schema
 * (jump_client_load_schema, captureSchemaFile); without a schema it looks like an object, and only its changed
 * members are sent, which Capture keeps alone. A change stays unsynced until the
 * server acknowledged it, and an acknowledged one is never sent again (also after a partial failure, whose
 * detail lists "synced" and "pending" paths). out_result (may be NULL): {"changed":["/aboutMe",..],
 * "requests":N,"renamed":{"/photos#-1":"/photos#57",..}} (element paths whose id the server assigned). */
jump_status jump_client_sync(jump_client *client, char **out_result);
/* Asynchronous jump_client_sync. */
jump_status jump_client_sync_async(jump_client *client, jump_callback callback, void *userdata,
                                   jump_free_fn userdata_free, jump_request **out_request);

/* Downloads the record schema (POST /entityType; with the client's write_with_token access schema when
 * the server gives it) and caches it like the flow. From then on record edits are checked against it
 * locally: unknown attributes, wrong types, over-long strings, reserved attributes and attributes outside
 * the access schema are refused with JUMP_E_INVALID_ARGUMENT naming the path. Without a schema (neither
 * this nor captureSchemaFile), an edit must name an attribute the record already has. Needs a signed-in
 * user (Capture answers /entityType to an access token or owner credentials only): JUMP_E_NOT_SIGNED_IN
 * otherwise; an app that needs the schema before sign-in ships it in captureSchemaFile. */
jump_status jump_client_load_schema(jump_client *client);

/* Profile and password forms. Validation failures are JUMP_E_VALIDATION with "invalid_fields"
 * {field or form name: [messages in captureLocale]}. Each has an _async variant (completion result {}). */

/* Updates the profile through the edit-profile form (update_profile_native). The form's fields are filled
 * from the record (unsynced edits included) after applying attributes_json (a JSON object of record
 * attributes, or NULL). Then the record is fetched again: the edits the form carried are synced. */
jump_status jump_client_update_profile(jump_client *client, const char *attributes_json);
/* Asynchronous jump_client_update_profile. */
jump_status jump_client_update_profile_async(jump_client *client, const char *attributes_json,
                                             jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                             jump_request **out_request);
/* Changes the signed-in user's password through the change-password form (captureChangePasswordFormName). */
jump_status jump_client_change_password(jump_client *client, const char *current_password,
                                        const char *new_password);
/* Asynchronous jump_client_change_password. */
jump_status jump_client_change_password_async(jump_client *client, const char *current_password,
                                              const char *new_password, jump_callback callback, void *userdata,
                                              jump_free_fn userdata_free, jump_request **out_request);
/* Asks Capture to email a password-reset link to email (forgot_password_native); no sign-in needed. */
jump_status jump_client_forgot_password(jump_client *client, const char *email);
/* Asynchronous jump_client_forgot_password. */
jump_status jump_client_forgot_password_async(jump_client *client, const char *email, jump_callback callback,
                                              void *userdata, jump_free_fn userdata_free,
                                              jump_request **out_request);
/* Asks Capture to send the email-verification message again (verify_email_native); no sign-in needed. */
jump_status jump_client_resend_verification_email(jump_client *client, const char *email);
/* Asynchronous jump_client_resend_verification_email. */
jump_status jump_client_resend_verification_email_async(jump_client *client, const char *email,
                                                        jump_callback callback, void *userdata,
                                                        jump_free_fn userdata_free, jump_request **out_request);

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

/* Fetches the Engage app configuration (mobile_config_and_baseurl with If-None-Match) and caches it with
 * its ETag; a cached copy is used at start-up and kept when the server says 304 or cannot be reached.
 * Normally loaded when first needed. out_json (may be NULL): {"changed":bool,"from_cache":bool}. */
jump_status jump_client_load_engage_config(jump_client *client, char **out_json);
/* The providers: {"sign_in":[{"name","friendly_name","requires_input","input_prompt","input_label",
 * "custom":null|"openid"|"saml"}] (server order, custom providers last),"sharing":[{"name","friendly_name",
 * "properties":{social_sharing_properties}}],"hide_tagline"}. Loads the configuration if needed. */
jump_status jump_client_providers(jump_client *client, char **out_json);

/* Begins a browser sign-in (RFC 8252: open the URL in the system browser). options_json (may be NULL):
 * {"input": text for requires_input providers,"force_reauth":bool,"link":bool (add the identity to the
 * signed-in user),"merge_token": from JUMP_E_MERGE_REQUIRED (sign in with the existing provider and merge),
 * "redirect_uri": where the browser is sent with ?token= (default engageWhitelistedDomain in "token" mode;
 * in "token_profile" mode the browser ends on <baseurl>/signin/device)}. out_json: {"url","state",
 * "completion":"device"|"redirect","completion_prefix"}. Pending for 10 minutes; at most 16 at once. Engage
 * does not echo "state" on /signin/device, so a new "device" sign-in replaces one still pending there. */
jump_status jump_client_social_begin(jump_client *client, const char *provider, const char *options_json,
                                     char **out_json);
/* Completes a begun sign-in with the URL the browser ended on (the /signin/device URL or the redirect
 * with ?token=; a /signin/device URL without "state" completes this client's pending "device" sign-in).
 * A URL that is not the completion of a pending sign-in (wrong place, unknown or used state) is
 * JUMP_E_INVALID_ARGUMENT and changes nothing. See "Social outcomes" above. */
jump_status jump_client_social_complete(jump_client *client, const char *url, char **out_result);
/* Asynchronous jump_client_social_complete. */
jump_status jump_client_social_complete_async(jump_client *client, const char *url, jump_callback callback,
                                              void *userdata, jump_free_fn userdata_free,
                                              jump_request **out_request);
/* Asks the host to open url in the system browser; return JUMP_OK once it is opened (or handed over). */
typedef jump_status (*jump_open_url_fn)(void *userdata, const char *url);
/* Browser sign-in for desktop and command-line hosts: listens on 127.0.0.1 (ephemeral port), calls
 * open_url once with the sign-in URL, and completes when the browser lands on the listener (it shows a
 * "you may close this window" page). timeout_ms <= 0: 5 minutes; then JUMP_E_TIMEOUT. options_json as for
 * jump_client_social_begin (without redirect_uri). open_url runs on the calling thread. */
jump_status jump_client_social_sign_in_loopback(jump_client *client, const char *provider, const char *options_json,
                                                jump_open_url_fn open_url, void *userdata, int32_t timeout_ms,
                                                char **out_result);
/* Asynchronous jump_client_social_sign_in_loopback: open_url runs on a libjump thread with userdata, then
 * the callback; jump_request_cancel stops the wait (JUMP_E_CANCELLED). userdata_free runs after both. */
jump_status jump_client_social_sign_in_loopback_async(jump_client *client, const char *provider,
                                                      const char *options_json, jump_open_url_fn open_url,
                                                      int32_t timeout_ms, jump_callback callback, void *userdata,
                                                      jump_free_fn userdata_free, jump_request **out_request);
/* Signs in with a provider SDK's own token (/signin/oauth_token): token is its access token, token_secret
 * the OAuth1 secret (twitter) or NULL. options_json: {"link","merge_token"} as for jump_client_social_begin.
 * Engage issues no device token for it, so such a sign-in cannot share. See "Social outcomes" above. */
jump_status jump_client_social_sign_in_native(jump_client *client, const char *provider, const char *token,
                                              const char *token_secret, const char *options_json,
                                              char **out_result);
/* Asynchronous jump_client_social_sign_in_native. */
jump_status jump_client_social_sign_in_native_async(jump_client *client, const char *provider, const char *token,
                                                    const char *token_secret, const char *options_json,
                                                    jump_callback callback, void *userdata,
                                                    jump_free_fn userdata_free, jump_request **out_request);
/* Engage-only mode: sets the token URL the Engage token is POSTed to after each social sign-in (token=..);
 * NULL removes it. Starts as engageTokenUrl. */
jump_status jump_client_set_token_url(jump_client *client, const char *url);

/* Two-step social registration (register_native) after JUMP_E_REGISTRATION_REQUIRED: attributes_json (a
 * JSON object of record attributes, e.g. the detail's prereg_record completed by the user) is mapped to the
 * social registration form. Signs the new user in; out_result (may be NULL) {"is_new":true,"uuid",..}.
 * JUMP_E_VALIDATION carries invalid_fields; a spent or unknown token is JUMP_E_INVALID_ARGUMENT
 * ("reason":"token_not_usable"). */
jump_status jump_client_register_social(jump_client *client, const char *social_registration_token,
                                        const char *attributes_json, char **out_result);
/* Asynchronous jump_client_register_social. */
jump_status jump_client_register_social_async(jump_client *client, const char *social_registration_token,
                                              const char *attributes_json, jump_callback callback, void *userdata,
                                              jump_free_fn userdata_free, jump_request **out_request);
/* jump_client_sign_in that also merges merge_token's identity (JUMP_E_MERGE_REQUIRED with existing_provider
 * "capture") into the account; out_result as for jump_client_sign_in plus "merged":true. */
jump_status jump_client_sign_in_merge(jump_client *client, const char *user, const char *password,
                                      const char *merge_token, char **out_result);
/* Asynchronous jump_client_sign_in_merge. */
jump_status jump_client_sign_in_merge_async(jump_client *client, const char *user, const char *password,
                                            const char *merge_token, jump_callback callback, void *userdata,
                                            jump_free_fn userdata_free, jump_request **out_request);
/* The signed-in user's linked identities, from the record's profiles: [{"identifier","domain","provider",
 * "display_name","email","path"}]. */
jump_status jump_client_linked_profiles(jump_client *client, char **out_json);
/* Unlinks the identity (unlink_account_native), then fetches the record. The last identity of an account
 * without a password is refused before any unlink request (the record is re-read first, in case a password
 * was set elsewhere): JUMP_E_INVALID_ARGUMENT with "reason":"last_identity". Unknown: JUMP_E_NOT_FOUND. */
jump_status jump_client_unlink_account(jump_client *client, const char *identifier);
/* Asynchronous jump_client_unlink_account. */
jump_status jump_client_unlink_account_async(jump_client *client, const char *identifier, jump_callback callback,
                                             void *userdata, jump_free_fn userdata_free,
                                             jump_request **out_request);

/* Shares activity_json ({"action" (required),"url","user_generated_content","title","description",
 * "action_links":[{"text","href"}],"media":[{"type":"image"|"flash"|"mp3",..}],"properties":{..}}) to each
 * provider of providers_json (a JSON array of sharing providers the user signed in with through the
 * browser: their device token is kept with the session): /api/v2/activity, or set_status for providers
 * that use it when there is no url. out_result (may be NULL): {"results":{"<provider>":{"ok":true,
 * "method":"activity"|"set_status"}}}. When any provider failed: JUMP_E_SERVER whose detail has the same
 * "results", a failed one {"ok":false,"error_class":"invalid_parameter"|"reauthenticate"|"rate_limit"|
 * "media"|"duplicate"|"character_limit"|"provider"|"not_signed_in"|"failed","code","message"}. A share
 * that left and lost its answer (its entry has "reason":"outcome_unknown") is not sent again: the call
 * fails with JUMP_E_NETWORK (JUMP_E_TIMEOUT when its time ran out) and detail {"reason":"outcome_unknown",
 * "results","failed","unknown":[providers]}. */
jump_status jump_client_share(jump_client *client, const char *activity_json, const char *providers_json,
                              char **out_result);
/* Asynchronous jump_client_share. */
jump_status jump_client_share_async(jump_client *client, const char *activity_json, const char *providers_json,
                                    jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                    jump_request **out_request);
/* Email and SMS content for the host to send, from the activity's "email" {"subject","message_body",
 * "urls":[..]} and "sms" {"message","urls":[..]} (defaults from title, description and url), with URLs
 * shortened through get_urls (kept long when that fails): {"email":{"subject","body","urls":{long:short}},
 * "sms":{"message","urls":{..}}}. */
jump_status jump_client_share_content(jump_client *client, const char *activity_json, char **out_json);

/* ---- Sign-in tokens and API keys (the backend-issued session; docs/protocol.md section 12) ---- */

/* Decodes a sign-in token without using it: {"user_id","team_id","environment","region","expires_at"}.
 * A malformed token is JUMP_E_INVALID_ARGUMENT saying what is wrong. No client, no network. */
jump_status jump_sign_in_token_decode(const char *sign_in_token, char **out_json);
/* Exchanges a sign-in token (from the app's backend) for an access + refresh session at /v1/token and
 * forgets the token. The same user already signed in: nothing to do ({"changed":false}), unless
 * re-authentication is pending. An API-key session of the same user, environment and region migrates in
 * place ({"migrated":true}); another signed-in user is JUMP_E_ALREADY_SIGNED_IN naming the "mismatch"
 * (user_id, environment or region). Refused by the server: JUMP_E_BAD_CREDENTIALS (detail error_type).
 * out_result (may be NULL): {"user_id","changed","migrated"}. */
jump_status jump_client_sign_in_with_token(jump_client *client, const char *sign_in_token, char **out_result);
/* Asynchronous jump_client_sign_in_with_token. */
jump_status jump_client_sign_in_with_token_async(jump_client *client, const char *sign_in_token,
                                                 jump_callback callback, void *userdata,
                                                 jump_free_fn userdata_free, jump_request **out_request);
/* API-key mode: requests carry api_key in the apiKeyHeader header. user_id may be NULL (configured, no
 * user). environment: "production", "sandbox", "dev" or "local"; region "us" or "eu". Another signed-in
 * user is JUMP_E_ALREADY_SIGNED_IN. api_key is a secret: never logged. */
jump_status jump_client_use_api_key(jump_client *client, const char *api_key, const char *user_id,
                                    const char *environment, const char *region);
/* The sign-in status: {"configured","signed_in","use_api_key","use_sign_in_token",
 * "pending_reauthentication","user_id","team_id","environment","region","external_user_id",
 * "restore_error"}. When the saved credential cannot be read it comes from the secret-free gist, with
 * restore_error set (never "signed out" for a storage failure). Changes are events "status_changed". */
jump_status jump_client_status(jump_client *client, char **out_json);
/* The app's answer for identify: calls sink once with JSON {"type":"sign_in_token","sign_in_token":..} or
 * {"type":"api_key","api_key":..,"user_id":..,"environment":..,"region":..} and returns JUMP_OK, or
 * returns another status to fail the identify. Runs on the thread calling identify; it may block (e.g. ask
 * the app's backend) but must not call jump_* functions of this client. */
typedef jump_status (*jump_authenticate_fn)(void *userdata, const char *external_user_id, jump_storage_sink sink,
                                            void *sink_context);
/* Makes the signed-in user the one of the app's external_user_id: nothing (and no callback) when it already
 * is; otherwise authenticate supplies a credential; a different signed-in user is signed out first, the same
 * user keeps the session. Serialized per client. out_result (may be NULL): {"action":"none"|"kept"|
 * "reauthenticated"|"signed_in"|"switched","user_id"}. */
jump_status jump_client_identify_external_user(jump_client *client, const char *external_user_id,
                                               jump_authenticate_fn authenticate, void *userdata,
                                               char **out_result);

/* ---- Authorized requests ---- */

/* Sends method (GET, POST, PUT, PATCH, DELETE) to url with the client's credential: the sign-in-token
 * session's bearer token, else the API key, else the Capture access token. url is relative ("/v2/...") to
 * that credential's server, or absolute on it (never another server). headers_json: a JSON object of
 * extra headers, or NULL; body: body_length bytes, or NULL. Expiring tokens are refreshed first; a 401
 * refreshes once and replays once. out_response: {"status","headers":[[name,value],..],"body"} ("body" is
 * null and "body_base64" set when the body is not UTF-8). An HTTP error status is not a failure. */
jump_status jump_client_request(jump_client *client, const char *method, const char *url, const char *headers_json,
                                const char *body, size_t body_length, char **out_response);
/* Asynchronous jump_client_request (the body is copied before it returns); the completion's result is the
 * same object; jump_request_cancel stops it between and during its HTTP requests (JUMP_E_CANCELLED). */
jump_status jump_client_request_async(jump_client *client, const char *method, const char *url,
                                      const char *headers_json, const char *body, size_t body_length,
                                      jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                      jump_request **out_request);

/* Web login (a login page in a browser or web view): takes the token the page left in its cookies (a Cookie
 * header or Set-Cookie lines; either may be NULL) or its title ("oauth_token=..."), under the name
 * webLoginCookieName, and keeps it for page_url's origin: jump_client_request then sends it as a bearer
 * token to URLs on that origin, and to relative URLs when the client holds no other credential. Kept in
 * memory only. out_token (may be NULL) receives it (a secret). JUMP_E_NOT_FOUND when neither holds it. */
jump_status jump_client_use_web_login(jump_client *client, const char *page_url, const char *cookies,
                                      const char *title, char **out_token);

/* A valid access token: the sign-in-token session's when there is one, else the Capture session's;
 * refreshed first if it expires within tokenRefreshMarginSeconds. A secret: free it with jump_string_free
 * and do not log it. */
jump_status jump_client_access_token(jump_client *client, char **out_token);
/* Refreshes now: the sign-in-token session at /v1/token (rotating the refresh token; invalid_token signs
 * everything out, event "user_invalidated"; reauthentication_required keeps the session pending and is
 * JUMP_E_EXPIRED), else the Capture session (refresh_access_token, signed with its refresh secret).
 * Concurrent refreshes of one session are coalesced into one request whose outcome every caller gets. */
jump_status jump_client_refresh_access_token(jump_client *client);

/* ---- Credentials (one call before every API request) ---- */

/* jump_client_credentials flag: refresh now even when the token lasts long enough (e.g. after a 401). */
#define JUMP_CREDENTIALS_FORCE_REFRESH 1u
/* The credential jump_client_request would send: {"kind":"capture"|"sign_in_token"|"api_key",
 * "access_token" (a secret; for "api_key" the API key),"expires_at" (epoch s),"expires_in" (s; both null
 * when unknown),"refreshed"}. Refreshed first (single flight; failures as jump_client_refresh_access_token)
 * only when it has min_ttl_seconds or less left, or with JUMP_CREDENTIALS_FORCE_REFRESH (JUMP_E_UNSUPPORTED
 * for an API key); otherwise no request is made. A saved sign-in-token credential that could not be read
 * gives JUMP_E_STORAGE here, as in jump_client_request, _access_token and _refresh_access_token: never the
 * Capture session's token instead. */
jump_status jump_client_credentials(jump_client *client, int64_t min_ttl_seconds, uint32_t flags,
                                    char **out_json);
/* Asynchronous jump_client_credentials; the completion's result is the same object. */
jump_status jump_client_credentials_async(jump_client *client, int64_t min_ttl_seconds, uint32_t flags,
                                          jump_callback callback, void *userdata, jump_free_fn userdata_free,
                                          jump_request **out_request);
/* 1 when the credential held now lasts more than min_ttl_seconds (an API key always does), else 0 (also when
 * signed out, for a negative min_ttl_seconds or an invalid handle). Memory only: no network, no storage, and
 * it never waits for a refresh in flight (it answers for the token held at that moment). */
int jump_client_has_valid_credentials(jump_client *client, int64_t min_ttl_seconds);

/* Sets the event callback (NULL removes it; the previous userdata_free runs). Events:
 * {"version":1,"kind":"event","event":"signed_in"|"signed_out"|"token_refreshed"|"record_synced"|
 *  "record_fetched"|"session_expired", "uuid":..}, and for sign-in tokens and API keys "status_changed"
 * {"status":{<jump_client_status>}} and "user_invalidated" {"user_id"}. */
jump_status jump_client_set_event_callback(jump_client *client, jump_callback callback, void *userdata,
                                           jump_free_fn userdata_free);
/* Routes this client's callbacks through a host dispatcher (NULL restores libjump's own thread). */
jump_status jump_client_set_dispatcher(jump_client *client, jump_dispatch_fn dispatch, void *context);

/* Queue mode (enabled 1; 0 turns it off, sending what still waits to the callbacks): this client's async
 * completions (with "request_id", see jump_request_id) and events wait in a queue the host pumps on its own
 * thread with jump_client_next_event, and no host code runs on a thread of libjump's. Pass NULL callbacks to
 * the _async calls (one given anyway runs inside jump_client_next_event); the event callback is not used.
 * jump_request_wait returns once the completion is queued. For game loops, Node.js, IL2CPP. */
jump_status jump_client_use_event_queue(jump_client *client, int32_t enabled);
/* A file descriptor readable exactly while the queue holds a document (poll it: asyncio add_reader, libuv,
 * Go); owned by the client, valid until queue mode is turned off or the client freed. Outside queue mode
 * JUMP_E_UNSUPPORTED. */
jump_status jump_client_event_fd(jump_client *client, int *out_fd);
/* Pops the oldest queued document (completion or event, as a callback would get it) into *out_json; never
 * blocks. JUMP_E_NOT_FOUND when none waits; JUMP_E_UNSUPPORTED outside queue mode. */
jump_status jump_client_next_event(jump_client *client, char **out_json);

/* ---------------------------------------------------------------------------------------------------- */
/* jump_record: a live view of the signed-in user's record. Paths: "/" (the whole record), "/aboutMe",  */
/* "/primaryAddress/city", "/photos#12/value" (a plural element by id), "/profiles#5/friends". Elements */
/* appended locally have a negative id ("/photos#-1") until a sync gives them the server's. Edits are   */
/* local (saved with the session, so they survive a restart) until jump_client_sync. JUMP_OK on an edit */
/* means it is on storage: an edit that cannot be saved returns JUMP_E_STORAGE and is not made. A view  */
/* outlives neither the session it was made for: after sign-out or another sign-in its calls return     */
/* JUMP_E_NOT_SIGNED_IN.                                                                                */
/* ---------------------------------------------------------------------------------------------------- */

/* The value at path as JSON text. JUMP_E_NOT_FOUND when the path does not exist. */
jump_status jump_record_get(jump_record *record, const char *path, char **out_json);
/* The value at path as a new jansson reference. */
jump_status jump_record_get_jansson(jump_record *record, const char *path, struct json_t **out);
/* The string at path; *out is NULL for a JSON null. Another type is JUMP_E_INVALID_ARGUMENT. */
jump_status jump_record_get_string(jump_record *record, const char *path, char **out);
/* The number at path (a JSON integer, or a real with an integral value within int64). JSON null is
 * JUMP_E_NOT_FOUND; another type JUMP_E_INVALID_ARGUMENT. */
jump_status jump_record_get_int64(jump_record *record, const char *path, int64_t *out);
/* The number at path as a double (integers converted). JSON null is JUMP_E_NOT_FOUND. */
jump_status jump_record_get_double(jump_record *record, const char *path, double *out);
/* The boolean at path as 0 or 1. JSON null is JUMP_E_NOT_FOUND. */
jump_status jump_record_get_bool(jump_record *record, const char *path, int *out);
/* Sets the attribute at path (also inside a plural element) to a JSON value (text); an object value sets
 * the members it names. Reserved attributes (id, uuid, created, lastUpdated), unknown attributes, wrong
 * types and whole plurals are refused with JUMP_E_INVALID_ARGUMENT naming the path (see
 * jump_client_load_schema). */
jump_status jump_record_set(jump_record *record, const char *path, const char *value_json);
/* Sets the attribute at path to a jansson value (borrowed). */
jump_status jump_record_set_jansson(jump_record *record, const char *path, const struct json_t *value);
/* Sets the attribute at path to a string (NULL sets JSON null). */
jump_status jump_record_set_string(jump_record *record, const char *path, const char *value);
/* Clears the value at path: JSON null for a value or an object, no elements for a plural. */
jump_status jump_record_clear(jump_record *record, const char *path);
/* Appends an element (a JSON object, without "id") to the plural at plural_path. out_path (may be NULL)
 * receives the new element's path, e.g. "/photos#-1" (free with jump_string_free). */
jump_status jump_record_append(jump_record *record, const char *plural_path, const char *element_json,
                               char **out_path);
/* jump_record_append with the element as a jansson object (borrowed). */
jump_status jump_record_append_jansson(jump_record *record, const char *plural_path,
                                       const struct json_t *element, char **out_path);
/* Removes the plural element at element_path ("/photos#12"). */
jump_status jump_record_remove(jump_record *record, const char *element_path);
/* Replaces every element of the plural at plural_path with elements_json (a JSON array of objects; any
 * "id" in them is ignored: the elements are new). */
jump_status jump_record_replace_plural(jump_record *record, const char *plural_path, const char *elements_json);
/* jump_record_replace_plural with the elements as a jansson array (borrowed). */
jump_status jump_record_replace_plural_jansson(jump_record *record, const char *plural_path,
                                               const struct json_t *elements);
/* The number of elements of the plural at plural_path. */
jump_status jump_record_element_count(jump_record *record, const char *plural_path, size_t *out);
/* The paths of the plural's elements in order, as a JSON array of strings: ["/photos#12","/photos#-1"]. */
jump_status jump_record_element_paths(jump_record *record, const char *plural_path, char **out_json);
/* The unsynced changes: {"changed":[paths],"update":{<attributes of the root entity.update>},
 * "requests":[{"endpoint":"entity.update"|"entity.replace"|"entity.delete","attribute_name":..,
 * "attributes":..},..]} - exactly what jump_client_sync would send now. */
jump_status jump_record_changes(jump_record *record, char **out_json);
/* Drops the unsynced edits at path and below, going back to the value the server last acknowledged. */
jump_status jump_record_revert(jump_record *record, const char *path);
/* Drops all unsynced changes, going back to the last state the server acknowledged. */
jump_status jump_record_discard_changes(jump_record *record);
/* Releases a record view (the record itself belongs to the client). NULL is a no-op. */
void jump_record_free(jump_record *record);

/* ---------------------------------------------------------------------------------------------------- */
/* jump_request: an in-flight asynchronous operation.                                                   */
/* ---------------------------------------------------------------------------------------------------- */

/* Asks the operation to stop; its callback then reports JUMP_E_CANCELLED unless it had already finished.
 * A request waiting on the network stops within about 100 ms. */
jump_status jump_request_cancel(jump_request *request);
/* Waits until the operation's callback has returned (in queue mode: until its completion is queued), at
 * most timeout_ms (negative: no limit). JUMP_E_TIMEOUT when it has not; JUMP_E_BUSY from a libjump callback. */
jump_status jump_request_wait(jump_request *request, int32_t timeout_ms);
/* The request's id, the "request_id" of its completion document (how queue mode matches them). */
jump_status jump_request_id(jump_request *request, uint64_t *out_id);
/* Releases the handle; the operation goes on and its callback still runs. NULL is a no-op. */
void jump_request_free(jump_request *request);

#ifdef __cplusplus
}
#endif

#endif /* JUMP_H */
