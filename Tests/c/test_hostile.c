/*
 * test_hostile.c - session integrity, rows 6-12: what a hostile (or careless) host or server must not be able to do
 * to a process that loads libjump.
 *
 *   row 6   request headers cannot smuggle extra header lines; web login reads CRLF-separated Set-Cookie
 *   row 7   a server that echoes the request into its error text does not make secrets leak
 *   row 8   a huge answer is refused (maxResponseBytes) in bounded time and memory
 *   row 9   deeply nested JSON from the host is refused, never a stack overflow (128 KiB threads)
 *   row 10  host callbacks run on the caller's thread or on libjump's own (named "jump...") threads
 *   row 11  stale temp files are cleaned up; a world-writable storage directory is tightened to 0700
 *   row 12  jump_error_last_jansson(NULL) reports its own failure
 *
 * Servers the emulator cannot play (echoing, 31 MiB answers) are tiny_server.h threads on 127.0.0.1.
 */
#include "harness.h"
#include "support.h"
#include "tiny_server.h"

#include <curl/curl.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

/* jump.h will define it (row 9); until then the contract's value. */
#ifndef JUMP_JSON_MAX_DEPTH
#define JUMP_JSON_MAX_DEPTH 64
#endif

#define MIB ((size_t)1 << 20)

/* ---- small helpers -------------------------------------------------------------------------------------- */

static int contains(const char *haystack, const char *needle) {
    return haystack != NULL && needle != NULL && needle[0] != '\0' && strstr(haystack, needle) != NULL;
}

/* The last error's "argument" (static copy; "" when absent). */
static const char *last_argument(void) {
    static char copy[256];
    json_t *detail = error_detail();
    const char *argument = json_str(detail, "argument");
    snprintf(copy, sizeof copy, "%s", argument != NULL ? argument : "");
    json_decref(detail);
    return copy;
}

/* A client signed in as a new emulator user (emulator reset first); NULL after a recorded failure. */
static jump_client *signed_in_client(const char *extra, char **email) {
    jump_client *client;
    char *uuid;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return NULL;
    client = new_client(NULL, extra);
    if (client == NULL) return NULL;
    uuid = sign_in_new_user(client, email, NULL);
    if (uuid == NULL) {
        J.client_free(client);
        return NULL;
    }
    free(uuid);
    return client;
}

/* The calling thread's name (prctl: no _GNU_SOURCE needed). */
static void thread_name(char out[17]) {
    memset(out, 0, 17);
    if (prctl(PR_GET_NAME, out, 0, 0, 0) != 0) snprintf(out, 17, "?");
}

/* ======================================================================================================== */
/* Row 6: header injection through jump_client_request; CRLF Set-Cookie lines in jump_client_use_web_login   */
/* ======================================================================================================== */

#define ME_PATH "/weblogin/me"
#define ME_COUNTER "GET /weblogin/me"

/* headers_json for one header (name and value may hold any bytes, NUL included). */
static char *one_header(const char *name, size_t name_length, const char *value, size_t value_length) {
    json_t *object = json_object();
    char *text;
    json_object_setn_new_nocheck(object, name, name_length, json_stringn_nocheck(value, value_length));
    text = json_dumps(object, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(object);
    return text;
}

/* Sends GET /weblogin/me with headers_json and expects a refusal naming "headers" and no request. */
static void check_header_refused(const char *file, int line, jump_client *client, const char *headers_json,
                                 const char *what) {
    char *response = (char *)"sentinel";
    long before = emu_counter(ME_COUNTER), after;
    jump_status status = J.client_request(client, "GET", ME_PATH, headers_json, NULL, 0, &response);
    if (status != JUMP_E_INVALID_ARGUMENT) {
        harness_fail(file, line, "%s: jump_client_request(headers %s) returned %d (%s), expected JUMP_E_INVALID_ARGUMENT",
                     what, headers_json, (int)status, harness_status_name(status));
    } else if (strcmp(last_argument(), "headers") != 0 && strcmp(last_argument(), "headers_json") != 0) {
        /* "headers_json" when the text is refused as JSON before any header is read (a NUL in a key). */
        harness_fail(file, line, "%s: the refusal names argument \"%s\", expected \"headers\"", what, last_argument());
    }
    if (status == JUMP_OK && response != NULL) J.string_free(response);
    else if (response != NULL) harness_fail_plain(file, line, "%s: *out_response not NULL after a failure", what);
    after = emu_counter(ME_COUNTER);
    if (after != before)
        harness_fail_plain(file, line, "%s: the request reached the server anyway (%s: %ld -> %ld)", what, ME_COUNTER,
                           before, after);
}

/* An accepted request reaches the server once and gets 200 (the control for the refusals above). */
static void check_header_accepted(const char *file, int line, jump_client *client, const char *headers_json) {
    char *response = NULL;
    long before = emu_counter(ME_COUNTER);
    json_t *json;
    if (!harness_check_status(file, line, "jump_client_request(valid header)",
                              J.client_request(client, "GET", ME_PATH, headers_json, NULL, 0, &response), JUMP_OK))
        return;
    json = take_json(response);
    if (json_integer_value(json_object_get(json, "status")) != 200)
        harness_fail_plain(file, line, "headers %s: HTTP %lld", headers_json,
                           (long long)json_integer_value(json_object_get(json, "status")));
    json_decref(json);
    if (emu_counter(ME_COUNTER) != before + 1)
        harness_fail_plain(file, line, "headers %s: expected exactly one request at the server", headers_json);
}

TEST(request_refuses_header_values_with_line_breaks_or_controls) {
    /* A value with CR/LF would let the host (or whoever filled the value) add header lines of its own
     * choosing, e.g. a Cookie next to the credential; NUL truncates the line in libcurl; other controls are
     * not field-vchar (RFC 9110 5.5). HTAB is allowed inside a value. */
    static const struct {
        const char *value;
        size_t length;
        const char *what;
    } bad[] = {
        {"1\r\nCookie: x=1", 14, "CRLF + Cookie line"},
        {"1\nX-Injected: 2", 15, "bare LF"},
        {"1\rX-Injected: 2", 15, "bare CR"},
        {"a\0b", 3, "NUL"},
        {"a\001b", 3, "SOH (0x01)"},
        {"a\033[2Jb", 6, "ESC (0x1b)"},
        {"a\037b", 3, "US (0x1f)"},
        {"a\177b", 3, "DEL (0x7f)"},
    };
    jump_client *client = signed_in_client(NULL, NULL);
    size_t i;
    char *headers;
    REQUIRE(client != NULL);
    REQUIRE(emu_clear_counters() == 0);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        headers = one_header("X-A", 3, bad[i].value, bad[i].length);
        check_header_refused(__FILE__, __LINE__, client, headers, bad[i].what);
        free(headers);
    }
    /* The same header without the bad byte goes through (and HTAB inside a value is fine). */
    headers = one_header("X-A", 3, "1\tand 2", 7);
    check_header_accepted(__FILE__, __LINE__, client, headers);
    free(headers);
    J.client_free(client);
}

TEST(request_refuses_header_names_that_are_not_tokens) {
    /* Header names are RFC 9110 tokens: 1*tchar. "Authorization " (trailing space) slips past a check for
     * "authorization" and still reaches servers that trim names; ':' and whitespace split the line
     * differently at the server than libjump meant. */
    static const struct {
        const char *name;
        size_t length;
    } bad[] = {
        {"Authorization ", 14}, {" X-A", 4},   {"X A", 3},    {"X:A", 3},     {"X\tA", 3},  {"", 0},
        {"X\r\nCookie", 9},     {"X\0A", 3},   {"X(A)", 4},   {"X\"A\"", 4},  {"X/A", 3},   {"X@A", 3},
        {"X,A", 3},             {"X;A", 3},    {"X=A", 3},    {"X?A", 3},     {"X[A]", 4},  {"X{A}", 4},
        {"X\\A", 3},            {"X\x7f", 2},  {"X\xc3\xa9", 3},
    };
    jump_client *client = signed_in_client(NULL, NULL);
    size_t i;
    char *headers;
    REQUIRE(client != NULL);
    REQUIRE(emu_clear_counters() == 0);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char what[64];
        size_t j, k = 0;
        /* A printable rendering of the name for the failure line. */
        what[k++] = '\'';
        for (j = 0; j < bad[i].length && k < sizeof what - 8; j++) {
            unsigned char c = (unsigned char)bad[i].name[j];
            if (c >= 0x21 && c < 0x7f) what[k++] = (char)c;
            else k += (size_t)snprintf(what + k, sizeof what - k, "\\x%02x", c);
        }
        what[k++] = '\'';
        what[k] = '\0';
        headers = one_header(bad[i].name, bad[i].length, "1", 1);
        check_header_refused(__FILE__, __LINE__, client, headers, what);
        free(headers);
    }
    /* Every tchar kind is accepted. */
    check_header_accepted(__FILE__, __LINE__, client, "{\"X-Trace_id.1~!#$%&'*+^`|\":\"ok\"}");
    J.client_free(client);
}

/* ---- web login: Set-Cookie lines separated by CRLF ---- */

typedef struct header_lines {
    char text[4096];
} header_lines;

static size_t collect_set_cookie(char *data, size_t size, size_t count, void *userdata) {
    header_lines *lines = userdata;
    size_t n = size * count;
    if (n > 11 && strncasecmp(data, "Set-Cookie:", 11) == 0 && strlen(lines->text) + n + 1 < sizeof lines->text)
        strncat(lines->text, data, n); /* as received: "Set-Cookie: ...\r\n" */
    return n;
}

static size_t discard_body(char *data, size_t size, size_t count, void *userdata) {
    (void)data, (void)userdata;
    return size * count;
}

/* POST /weblogin as email/password; the Set-Cookie lines of the answer (CRLF-terminated, as sent). */
static int web_login(const char *email, const char *password, header_lines *lines) {
    char url[512], body[512];
    char *e = NULL, *p = NULL;
    CURL *curl = curl_easy_init();
    CURLcode rc;
    long code = 0;
    if (curl == NULL) return -1;
    lines->text[0] = '\0';
    e = curl_easy_escape(curl, email, 0);
    p = curl_easy_escape(curl, password, 0);
    snprintf(url, sizeof url, "%s/weblogin", emu_url());
    snprintf(body, sizeof body, "email=%s&password=%s", e, p);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, collect_set_cookie);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, lines);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard_body);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 10000L);
    rc = curl_easy_perform(curl);
    if (rc == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    curl_free(e);
    curl_free(p);
    curl_easy_cleanup(curl);
    return rc == CURLE_OK && code == 200 && lines->text[0] != '\0' ? 0 : -1;
}

/* The oauth_token value inside Set-Cookie lines (malloc'd) or NULL. */
static char *cookie_token(const char *lines) {
    const char *start = strstr(lines, "oauth_token=");
    size_t n;
    char *token;
    if (start == NULL) return NULL;
    start += strlen("oauth_token=");
    n = strcspn(start, ";\r\n");
    token = malloc(n + 1);
    memcpy(token, start, n);
    token[n] = '\0';
    return token;
}

TEST(web_login_finds_the_token_in_crlf_separated_set_cookie_lines) {
    /* jump.h: use_web_login takes "a Cookie header or Set-Cookie lines". Header lines end in CRLF on the
     * wire and in every HTTP stack's raw header dump; the token must be found on any line, not only when
     * it happens to sit on the first one. */
    char *email = unique_email("weblogin"), *uuid, *token, *out = NULL, page[512], cookies[8192], *response = NULL;
    header_lines lines;
    jump_client *client;
    json_t *json;
    const char *body;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return;
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    REQUIRE(uuid != NULL);
    REQUIRE_MSG(web_login(email, TEST_PASSWORD, &lines) == 0, "POST /weblogin gave no Set-Cookie");
    token = cookie_token(lines.text);
    REQUIRE(token != NULL);
    snprintf(page, sizeof page, "%s/weblogin", emu_url());

    /* Set-Cookie lines as an HTTP stack hands them over: another cookie first, CRLF between lines. */
    snprintf(cookies, sizeof cookies, "Set-Cookie: theme=dark; Path=/\r\n%s", lines.text);
    client = new_client(NULL, "{\"storageDirectory\":\":memory:\"}");
    REQUIRE(client != NULL);
    if (CHECK_OK(J.client_use_web_login(client, page, cookies, NULL, &out))) {
        CHECK_STR_EQ(out, token);
        J.string_free(out);
        /* The token is usable: /weblogin/me answers with the user. */
        if (CHECK_OK(J.client_request(client, "GET", ME_PATH, NULL, NULL, 0, &response))) {
            json = take_json(response);
            body = json_str(json, "body");
            CHECK_EQ_INT(json_integer_value(json_object_get(json, "status")), 200);
            CHECK_MSG(contains(body, email), "/weblogin/me body: %s", body ? body : "(none)");
            json_decref(json);
        }
    }
    J.client_free(client);

    /* The same without the "Set-Cookie:" prefixes (cookie strings only), still CRLF-separated. */
    snprintf(cookies, sizeof cookies, "theme=dark; Path=/\r\noauth_token=%s; Path=/; HttpOnly\r\n", token);
    client = new_client(NULL, "{\"storageDirectory\":\":memory:\"}");
    REQUIRE(client != NULL);
    out = NULL;
    if (CHECK_OK(J.client_use_web_login(client, page, cookies, NULL, &out))) {
        CHECK_STR_EQ(out, token);
        J.string_free(out);
    }
    J.client_free(client);
    free(token);
    free(uuid);
    free(email);
}

/* ======================================================================================================== */
/* Row 7: a server that echoes the request into its error text                                              */
/* ======================================================================================================== */

/* Characters that form encoding changes (space, '+', '/', '&', '=', '%', non-ASCII), so that both the raw
 * password and its encoded form in the request body are distinct strings to look for. */
#define ECHO_PASSWORD "Pw hostile/5ecret+Q7&x=100%\xc3\xa9"
#define ECHO_ACCESS_TOKEN "AT-hostile-token-9f8e7d6c5b4a39281706"
#define ECHO_UUID "11111111-2222-4333-8444-555555555555"

typedef struct echo_state {
    int grant_sign_in; /* 1: sign-in succeeds with ECHO_ACCESS_TOKEN; 0: refused with an echo */
} echo_state;

/* A Capture error whose error_description repeats everything the request carried. */
static void answer_echo(int fd, const tiny_request *request, int code, const char *error, const char *argument) {
    char *description = malloc(request->body_length + 512), *text;
    json_t *answer;
    snprintf(description, request->body_length + 512, "you sent %s %s with body [%s] and Authorization [%s]",
             request->method, request->path, request->body, request->authorization ? request->authorization : "");
    answer = json_pack("{s:s, s:i, s:s, s:s}", "stat", "error", "code", code, "error", error, "error_description",
                       description);
    if (argument != NULL) json_object_set_new(answer, "argument_name", json_string(argument));
    text = json_dumps(answer, JSON_COMPACT);
    tiny_respond_json(fd, 200, text);
    free(text);
    json_decref(answer);
    free(description);
}

static void echo_handler(tiny_server *server, const tiny_request *request, int fd) {
    echo_state *state = server->data;
    if (strcmp(request->path, "/oauth/auth_native_traditional") == 0) {
        if (state->grant_sign_in) {
            tiny_respond_json(fd, 200,
                              "{\"stat\":\"ok\",\"access_token\":\"" ECHO_ACCESS_TOKEN "\",\"expires_in\":3600,"
                              "\"is_new\":false,\"capture_user\":{\"id\":1,\"uuid\":\"" ECHO_UUID "\","
                              "\"email\":\"echo@example.com\",\"aboutMe\":null,\"givenName\":null}}");
        } else {
            answer_echo(fd, request, 210, "invalid_credentials", NULL);
        }
    } else if (strcmp(request->path, "/oauth/refresh_access_token") == 0) {
        /* A refusal (terminal): the session is over, event session_expired. */
        answer_echo(fd, request, 200, "invalid_argument", "signature");
    } else {
        answer_echo(fd, request, 500, "unexpected_error", NULL);
    }
}

/* A client whose Capture server is `server` (the flow still comes from the emulator). */
static jump_client *echo_client(tiny_server *server) {
    char extra[512];
    snprintf(extra, sizeof extra,
             "{\"captureDomain\":\"%s\",\"storageDirectory\":\":memory:\",\"requestTimeoutMs\":5000}", server->url);
    return new_client(NULL, extra);
}

/* The secrets to look for, each raw and as it appears form-encoded in a request body. */
typedef struct secret_list {
    const char *names[16];
    char *values[16];
    int count;
} secret_list;

static void secret_add(secret_list *list, const char *name, const char *value) {
    int i;
    if (value == NULL || value[0] == '\0' || list->count >= 16) return;
    for (i = 0; i < list->count; i++)
        if (strcmp(list->values[i], value) == 0) return;
    list->names[list->count] = name;
    list->values[list->count] = strdup(value);
    list->count++;
}

/* Adds form parameter `param` of body: its decoded value and its raw (encoded) text. */
static void secret_add_form(secret_list *list, const char *name, const char *body, const char *param) {
    char *decoded = tiny_form_value(body, param), key[64];
    const char *start;
    snprintf(key, sizeof key, "&%s=", param);
    secret_add(list, name, decoded);
    free(decoded);
    start = strstr(body, key) ? strstr(body, key) + strlen(key)
            : strncmp(body, key + 1, strlen(key + 1)) == 0 ? body + strlen(key + 1) : NULL;
    if (start != NULL) {
        size_t n = strcspn(start, "&");
        char *raw = malloc(n + 1);
        memcpy(raw, start, n);
        raw[n] = '\0';
        secret_add(list, name, raw);
        free(raw);
    }
}

static void secret_free(secret_list *list) {
    int i;
    for (i = 0; i < list->count; i++) free(list->values[i]);
    list->count = 0;
}

/* 1 when any string (key or value) of json contains needle. */
static int json_mentions(json_t *json, const char *needle) {
    size_t i;
    const char *key;
    json_t *value;
    if (json_is_string(json)) return strstr(json_string_value(json), needle) != NULL;
    if (json_is_array(json)) {
        for (i = 0; i < json_array_size(json); i++)
            if (json_mentions(json_array_get(json, i), needle)) return 1;
    }
    if (json_is_object(json)) {
        json_object_foreach(json, key, value) {
            if (strstr(key, needle) != NULL || json_mentions(value, needle)) return 1;
        }
    }
    return 0;
}

/* Fails when text (raw, or any string once parsed as JSON) holds one of the secrets. */
static void check_no_secret_in(const char *file, int line, const char *where, const char *text,
                               const secret_list *secrets) {
    json_t *json = json_parse(text);
    int i;
    for (i = 0; i < secrets->count; i++) {
        if (contains(text, secrets->values[i]) || (json != NULL && json_mentions(json, secrets->values[i])))
            harness_fail_plain(file, line, "%s holds the %s (\"%s\"): %.600s", where, secrets->names[i],
                               secrets->values[i], text);
    }
    json_decref(json);
}

static void check_no_secret_in_recorder(const char *file, int line, const char *where, recorder *r,
                                        const secret_list *secrets) {
    int i, n = recorder_count(r);
    for (i = 0; i < n; i++) {
        char label[96];
        snprintf(label, sizeof label, "%s #%d", where, i);
        pthread_mutex_lock(&r->mutex); /* the recorder keeps each payload's exact text */
        check_no_secret_in(file, line, label, r->payloads[i], secrets);
        pthread_mutex_unlock(&r->mutex);
    }
}

/* One echoing server, a client on it, and recorders for log lines, completions and events: the set-up the
 * three tests below share. `granted`: the server grants the sign-in (then refuses what follows). */
typedef struct echo_run {
    echo_state state;
    tiny_server server;
    jump_client *client;
    recorder logs, done, events;
    secret_list secrets;
    char *error_text;
    int started;
} echo_run;

static int echo_begin(echo_run *run, int granted) {
    memset(run, 0, sizeof *run);
    run->state.grant_sign_in = granted;
    recorder_init(&run->logs);
    recorder_init(&run->done);
    recorder_init(&run->events);
    if (tiny_start(&run->server, echo_handler, &run->state) != 0) return 0;
    run->started = 1;
    run->client = echo_client(&run->server);
    if (run->client == NULL) return 0;
    CHECK_OK(J.set_log_callback(recorder_callback, &run->logs, recorder_free));
    CHECK_OK(J.client_set_event_callback(run->client, recorder_callback, &run->events, recorder_free));
    return 1;
}

/* The password and refresh secret of every sign-in the server received, as sent and as given. */
static int echo_add_sign_in_secrets(echo_run *run) {
    const tiny_request *sent;
    int i;
    secret_add(&run->secrets, "password", ECHO_PASSWORD);
    for (i = 0; (sent = tiny_find(&run->server, "/oauth/auth_native_traditional", i)) != NULL; i++) {
        secret_add_form(&run->secrets, "password (as sent)", sent->body, "currentPassword");
        secret_add_form(&run->secrets, "refresh secret", sent->body, "refresh_secret");
    }
    return i;
}

/* No secret in the last error, the completions, the events, nor (once the log callback is released) the logs. */
static void echo_check(const char *file, int line, echo_run *run, const char *what) {
    char where[128];
    snprintf(where, sizeof where, "jump_error_last() after %s", what);
    check_no_secret_in(file, line, where, run->error_text, &run->secrets);
    check_no_secret_in_recorder(file, line, "completion", &run->done, &run->secrets);
    check_no_secret_in_recorder(file, line, "event", &run->events, &run->secrets);
    CHECK_OK(J.set_log_callback(NULL, NULL, NULL));
    CHECK(recorder_wait_frees(&run->logs, 1, 5000));
    check_no_secret_in_recorder(file, line, "log line", &run->logs, &run->secrets);
}

static void echo_end(echo_run *run) {
    J.set_log_callback(NULL, NULL, NULL);
    if (run->client != NULL) {
        J.client_free(run->client);
        recorder_wait_frees(&run->events, 1, 5000);
    }
    if (run->started) tiny_stop(&run->server);
    recorder_destroy(&run->logs);
    recorder_destroy(&run->done);
    recorder_destroy(&run->events);
    secret_free(&run->secrets);
    free(run->error_text);
}

TEST(sign_in_refusal_echoing_the_form_keeps_password_and_refresh_secret_out) {
    /* Capture's error_description is server text; a server (or a proxy) that repeats the request in it would
     * carry the password and the refresh secret into jump_error_last(), completions and logs. */
    echo_run run;
    char *out = NULL, *password;
    const tiny_request *sent;
    REQUIRE(emu_url() != NULL);
    if (echo_begin(&run, 0)) {
        CHECK_STATUS(J.client_sign_in(run.client, "echo@example.com", ECHO_PASSWORD, &out), JUMP_E_BAD_CREDENTIALS);
        run.error_text = strdup(J.error_last());
        CHECK_OK(J.client_sign_in_async(run.client, "echo@example.com", ECHO_PASSWORD, recorder_callback, &run.done,
                                        recorder_free, NULL));
        CHECK(recorder_wait_calls(&run.done, 1, 10000));
        CHECK(recorder_wait_frees(&run.done, 1, 5000));
        /* The echo had what the server received: the password and a refresh secret per sign-in. */
        sent = tiny_find(&run.server, "/oauth/auth_native_traditional", 0);
        password = sent != NULL ? tiny_form_value(sent->body, "currentPassword") : NULL;
        CHECK_MSG(password != NULL && strcmp(password, ECHO_PASSWORD) == 0,
                  "the sign-in request did not carry the password as currentPassword");
        free(password);
        CHECK_MSG(echo_add_sign_in_secrets(&run) == 2, "the server did not see the 2 sign-in requests");
        echo_check(__FILE__, __LINE__, &run, "sign-in");
    } else {
        CHECK_MSG(0, "the echoing server or its client could not be set up");
    }
    echo_end(&run);
}

TEST(failed_call_echoing_the_request_keeps_the_access_token_out) {
    /* After a sign-in the access token rides in every Capture request (form field or Authorization header);
     * an echoed error must not hand it back to the host in an error, a completion, an event or a log. */
    echo_run run;
    char *out = NULL;
    const tiny_request *sent;
    REQUIRE(emu_url() != NULL);
    if (echo_begin(&run, 1) && CHECK_OK(J.client_sign_in(run.client, "echo@example.com", ECHO_PASSWORD, &out))) {
        J.string_free(out);
        CHECK_STATUS(J.client_fetch_record(run.client), JUMP_E_SERVER);
        run.error_text = strdup(J.error_last());
        CHECK_OK(J.client_fetch_record_async(run.client, recorder_callback, &run.done, recorder_free, NULL));
        CHECK(recorder_wait_calls(&run.done, 1, 10000));
        CHECK(recorder_wait_frees(&run.done, 1, 5000));
        secret_add(&run.secrets, "access token", ECHO_ACCESS_TOKEN);
        CHECK(echo_add_sign_in_secrets(&run) >= 1);
        sent = tiny_find(&run.server, "/entity", 0);
        CHECK_MSG(sent != NULL && (contains(sent->body, ECHO_ACCESS_TOKEN) || contains(sent->authorization, ECHO_ACCESS_TOKEN)),
                  "the /entity request did not carry the access token");
        echo_check(__FILE__, __LINE__, &run, "fetch_record");
    }
    echo_end(&run);
}

TEST(refused_refresh_echoing_the_request_keeps_token_secret_and_signature_out) {
    /* The refresh request carries the access token and the HMAC signature made with the refresh secret; a
     * refusal ends the session with JUMP_E_EXPIRED and the event session_expired, whose text comes from the
     * server's error. Neither may repeat what the request carried. */
    echo_run run;
    char *out = NULL;
    const tiny_request *sent;
    int waited;
    REQUIRE(emu_url() != NULL);
    if (echo_begin(&run, 1) && CHECK_OK(J.client_sign_in(run.client, "echo@example.com", ECHO_PASSWORD, &out))) {
        J.string_free(out);
        CHECK_STATUS(J.client_refresh_access_token(run.client), JUMP_E_EXPIRED);
        run.error_text = strdup(J.error_last());
        for (waited = 0; waited < 3000 && recorder_find(&run.events, 0, "event", "session_expired") < 0; waited += 20)
            sleep_ms(20);
        CHECK_MSG(recorder_find(&run.events, 0, "event", "session_expired") >= 0,
                  "no session_expired event after the refused refresh");
        secret_add(&run.secrets, "access token", ECHO_ACCESS_TOKEN);
        CHECK(echo_add_sign_in_secrets(&run) >= 1);
        sent = tiny_find(&run.server, "/oauth/refresh_access_token", 0);
        if (CHECK_MSG(sent != NULL, "no refresh request reached the server"))
            secret_add_form(&run.secrets, "refresh signature", sent->body, "signature");
        echo_check(__FILE__, __LINE__, &run, "the refused refresh");
    }
    echo_end(&run);
}

/* ======================================================================================================== */
/* Row 8: huge answers (maxResponseBytes)                                                                   */
/* ======================================================================================================== */

#define HUGE_BYTES ((size_t)31 * MIB)
#define HUGE_TIMEOUT_MS 5000
#define RSS_LIMIT_KIB (300L * 1024)

typedef struct huge_state {
    int with_length;       /* send Content-Length, or end the body by closing the connection */
    size_t sent;           /* body bytes written before the client hung up (or all) */
} huge_state;

/* A sign-in answer that is valid JSON of HUGE_BYTES bytes: one enormous string in the record. */
static void huge_handler(tiny_server *server, const tiny_request *request, int fd) {
    static char chunk[1 << 20];
    static const char head[] = "{\"stat\":\"ok\",\"access_token\":\"huge-token\",\"expires_in\":3600,"
                               "\"capture_user\":{\"id\":1,\"uuid\":\"" ECHO_UUID "\",\"aboutMe\":\"";
    static const char tail[] = "\"}}";
    huge_state *state = server->data;
    char status_line[256];
    size_t left;
    int n;
    if (strcmp(request->path, "/oauth/auth_native_traditional") != 0) {
        tiny_respond_json(fd, 404, "{\"stat\":\"error\",\"code\":404,\"error\":\"not_found\",\"error_description\":\"no\"}");
        return;
    }
    memset(chunk, 'a', sizeof chunk);
    if (state->with_length)
        n = snprintf(status_line, sizeof status_line,
                     "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %lu\r\nConnection: close\r\n\r\n",
                     (unsigned long)HUGE_BYTES);
    else
        n = snprintf(status_line, sizeof status_line,
                     "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n");
    state->sent = 0;
    if (tiny_write_all(fd, status_line, (size_t)n) != 0 || tiny_write_all(fd, head, sizeof head - 1) != 0) return;
    state->sent += sizeof head - 1;
    left = HUGE_BYTES - (sizeof head - 1) - (sizeof tail - 1);
    while (left > 0) {
        size_t piece = left < sizeof chunk ? left : sizeof chunk;
        if (tiny_write_all(fd, chunk, piece) != 0) return;
        state->sent += piece;
        left -= piece;
    }
    if (tiny_write_all(fd, tail, sizeof tail - 1) == 0) state->sent += sizeof tail - 1;
}

/* VmHWM (peak resident set) of this process in KiB, or -1. */
static long peak_rss_kib(void) {
    char *status = read_file("/proc/self/status", NULL);
    const char *line = status != NULL ? strstr(status, "VmHWM:") : NULL;
    long kib = line != NULL ? strtol(line + 6, NULL, 10) : -1;
    free(status);
    return kib;
}

/* Resets VmHWM to the current RSS (Linux >= 4.0: "5" > /proc/self/clear_refs); 0 on success. */
static int reset_peak_rss(void) {
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    int ok = fd >= 0 && write(fd, "5", 1) == 1;
    if (fd >= 0) close(fd);
    return ok ? 0 : -1;
}

static void check_huge_answer_refused(const char *file, int line, int with_length) {
    huge_state state = {with_length, 0};
    tiny_server server;
    jump_client *client;
    char extra[512], *out = NULL;
    double start, elapsed;
    long peak, before;
    int reset;
    jump_status status;
    const char *message;
    json_t *detail;
    if (!harness_check(emu_url() != NULL, file, line, "the emulator is not available")) return;
    if (!harness_check(tiny_start(&server, huge_handler, &state) == 0, file, line, "tiny server did not start")) return;
    snprintf(extra, sizeof extra,
             "{\"captureDomain\":\"%s\",\"storageDirectory\":\":memory:\",\"requestTimeoutMs\":%d}", server.url,
             HUGE_TIMEOUT_MS);
    client = new_client_at(file, line, NULL, extra);
    if (client == NULL) {
        tiny_stop(&server);
        return;
    }
    J.client_load_flow(client); /* from the emulator: only the sign-in answer is huge */
    reset = reset_peak_rss();
    before = peak_rss_kib();
    start = now_ms();
    status = J.client_sign_in(client, "huge@example.com", ECHO_PASSWORD, &out);
    elapsed = now_ms() - start;
    peak = peak_rss_kib();
    detail = error_detail();
    message = json_str(detail, "message");
    harness_note("%s: status %d (%s) after %.0f ms; %lu of %lu bytes sent; peak RSS %ld KiB (%ld before%s)",
                 with_length ? "with Content-Length" : "without Content-Length", (int)status,
                 harness_status_name(status), elapsed, (unsigned long)state.sent, (unsigned long)HUGE_BYTES, peak,
                 before, reset == 0 ? ", peak reset" : ", peak NOT reset: lifetime peak");
    if (status == JUMP_OK) J.string_free(out);
    if (harness_check_status(file, line, "jump_client_sign_in(31 MiB answer)", status, JUMP_E_SERVER) &&
        !contains(message, "maxResponseBytes"))
        harness_fail(file, line, "the message does not name maxResponseBytes: %s", message ? message : "(none)");
    if (elapsed > HUGE_TIMEOUT_MS + 2000)
        harness_fail_plain(file, line, "the call took %.0f ms (request timeout %d ms)", elapsed, HUGE_TIMEOUT_MS);
    if (peak > RSS_LIMIT_KIB)
        harness_fail_plain(file, line, "peak RSS reached %ld KiB (limit %ld KiB)", peak, RSS_LIMIT_KIB);
    if (J.client_is_signed_in(client)) harness_fail_plain(file, line, "the client signed in from a 31 MiB answer");
    json_decref(detail);
    J.client_free(client);
    tiny_stop(&server);
}

TEST(a_31_mib_sign_in_answer_is_refused_in_time_and_memory) {
    /* A server (or anything between) can answer with far more than any real Capture answer; reading it
     * whole, then parsing and copying it, costs the host hundreds of MB. */
    check_huge_answer_refused(__FILE__, __LINE__, 1);
}

TEST(a_31_mib_sign_in_answer_without_content_length_is_refused_in_time_and_memory) {
    /* Without Content-Length the limit can only be enforced while reading. */
    check_huge_answer_refused(__FILE__, __LINE__, 0);
}

TEST(max_response_bytes_is_a_positive_config_key_defaulting_to_16_mib) {
    static const char *const refused[] = {"{\"maxResponseBytes\":0}", "{\"maxResponseBytes\":-1}",
                                          "{\"maxResponseBytes\":-16777216}", "{\"maxResponseBytes\":\"1000\"}"};
    jump_config *config = NULL, *small = NULL;
    char *text = NULL;
    json_t *json;
    size_t i;
    REQUIRE_OK(J.config_new(&config));
    REQUIRE_OK(J.config_to_json(config, &text));
    json = take_json(text);
    CHECK_MSG(json_integer_value(json_object_get(json, "maxResponseBytes")) == 16777216,
              "jump_config_to_json has no maxResponseBytes 16777216 by default");
    json_decref(json);
    if (CHECK_OK(J.config_from_json("{\"maxResponseBytes\":1000}", &small))) {
        text = NULL;
        CHECK_OK(J.config_to_json(small, &text));
        json = take_json(text);
        CHECK_EQ_INT(json_integer_value(json_object_get(json, "maxResponseBytes")), 1000);
        json_decref(json);
        J.config_free(small);
    }
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        jump_config *out = NULL;
        json_t *detail;
        const char *message, *argument;
        if (!CHECK_STATUS(J.config_from_json(refused[i], &out), JUMP_E_INVALID_ARGUMENT)) {
            J.config_free(out);
            continue;
        }
        detail = error_detail();
        message = json_str(detail, "message");
        argument = json_str(detail, "argument");
        CHECK_MSG(contains(message, "maxResponseBytes") || contains(argument, "maxResponseBytes"),
                  "%s: the refusal does not name the key: %s", refused[i], J.error_last());
        json_decref(detail);
    }
    CHECK_STATUS(J.config_set_int(config, "maxResponseBytes", 0), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.config_set_int(config, "maxResponseBytes", -5), JUMP_E_INVALID_ARGUMENT);
    CHECK_OK(J.config_set_int(config, "maxResponseBytes", 4096));
    J.config_free(config);
}

TEST(small_max_response_bytes_fails_an_ordinary_sign_in) {
    /* Every answer counts against the limit, not only pathological ones: with 1000 bytes even the emulator's
     * ordinary sign-in answer (the record comes with it) is too big. */
    const char *dir;
    char *email, *uuid, *out = NULL, about[901], record[1100];
    jump_client *client;
    json_t *detail;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return;
    dir = emu_tmpdir();
    email = unique_email("maxbytes");
    /* An ordinary user with a filled-in aboutMe: its sign-in answer (which carries the record) passes 1000
     * bytes (an empty record alone is about 730). */
    memset(about, 'x', sizeof about - 1);
    about[sizeof about - 1] = '\0';
    snprintf(record, sizeof record, "{\"aboutMe\":\"%s\",\"givenName\":\"Ada\"}", about);
    uuid = emu_create_user(email, TEST_PASSWORD, record);
    REQUIRE(uuid != NULL);
    /* The flow is cached by an ordinary client first, so the sign-in answer itself meets the limit. */
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    CHECK_OK(J.client_load_flow(client));
    J.client_free(client);

    client = new_client(dir, "{\"maxResponseBytes\":1000}");
    if (client != NULL) {
        CHECK_STATUS(J.client_sign_in(client, email, TEST_PASSWORD, &out), JUMP_E_SERVER);
        detail = error_detail();
        CHECK_MSG(contains(json_str(detail, "message"), "maxResponseBytes"), "the message does not name maxResponseBytes: %s",
                  J.error_last());
        json_decref(detail);
        CHECK_EQ_INT(J.client_is_signed_in(client), 0);
        J.client_free(client);
    }
    /* The default limit lets the same sign-in through. */
    client = new_client(dir, NULL);
    if (client != NULL) {
        out = NULL;
        CHECK_OK(J.client_sign_in(client, email, TEST_PASSWORD, &out));
        J.string_free(out);
        J.client_free(client);
    }
    free(uuid);
    free(email);
}

/* ======================================================================================================== */
/* Row 9: nesting depth. Every JSON-taking function of jump.h, called on a 128 KiB-stack thread.            */
/*                                                                                                          */
/* JSON text arguments:   jump_config_from_json(json), jump_client_register_traditional(_async)             */
/*   (attributes_json), jump_client_update_profile(_async)(attributes_json), jump_client_social_begin       */
/*   (options_json), jump_client_social_sign_in_loopback(_async)(options_json),                              */
/*   jump_client_social_sign_in_native(_async)(options_json), jump_client_register_social(_async)           */
/*   (attributes_json), jump_client_share(_async)(activity_json, providers_json),                            */
/*   jump_client_share_content(activity_json), jump_client_request(headers_json), jump_record_set            */
/*   (value_json), jump_record_append(element_json), jump_record_replace_plural(elements_json).             */
/* json_t arguments:      jump_config_from_jansson, jump_client_register_traditional_jansson,               */
/*   jump_record_set_jansson, jump_record_append_jansson, jump_record_replace_plural_jansson.               */
/* JSON inside other inputs: jump_sign_in_token_decode (base64 of JSON), the answer the authenticate        */
/*   callback gives identify, bytes a host storage load hands back, a captureSchemaFile.                    */
/* ======================================================================================================== */

/* 128 KiB, the smallest host thread stack jump.h promises to work on. make sanitize raises it
 * (JUMP_TEST_SMALL_STACK_KIB): AddressSanitizer's redzones make every frame several times larger, and the
 * promise itself is checked by the ordinary suite, on the library as built for release. */
static size_t small_stack_bytes(void) {
    const char *kib = getenv("JUMP_TEST_SMALL_STACK_KIB");
    long value = kib != NULL ? strtol(kib, NULL, 10) : 0;
    return (size_t)(value >= 128 ? value : 128) * 1024;
}
#define SMALL_STACK small_stack_bytes()

static const int sweep_depths[] = {1, 2, JUMP_JSON_MAX_DEPTH - 1, JUMP_JSON_MAX_DEPTH, JUMP_JSON_MAX_DEPTH + 1,
                                   100, 1000, 2000, 100000};

typedef struct probe_ctx {
    jump_client *client;
    jump_record *record;
    const char *text;   /* the deep JSON text */
    json_t *json;       /* the same value built with jansson */
    size_t text_length;
    int depth;
    const char *dir;    /* a scratch directory */
} probe_ctx;

typedef jump_status (*probe_fn)(probe_ctx *ctx);

typedef struct probe {
    const char *name;
    probe_fn fn;
    int must_refuse;    /* 1: depth > max must be JUMP_E_INVALID_ARGUMENT; 0: only "no crash" */
} probe;

/* "[[...]]" or {"a":{"a":...{}}} with `depth` nested containers (malloc'd). */
static char *deep_text(int objects, int depth, size_t *length) {
    size_t open = objects ? 5 : 1, size = (size_t)depth * (open + 1) + 1, used = 0;
    char *text = malloc(size);
    int i;
    for (i = 0; i < depth - 1; i++) {
        memcpy(text + used, objects ? "{\"a\":" : "[", open);
        used += open;
    }
    memcpy(text + used, objects ? "{}" : "[]", 2);
    used += 2;
    for (i = 0; i < depth - 1; i++) text[used++] = objects ? '}' : ']';
    text[used] = '\0';
    *length = used;
    return text;
}

/* The same value as a jansson tree, built without recursion; nodes[] keeps every level for deep_free. */
static json_t *deep_json(int objects, int depth, json_t ***nodes_out) {
    json_t **nodes = malloc((size_t)depth * sizeof *nodes);
    int i;
    for (i = 0; i < depth; i++) nodes[i] = objects ? json_object() : json_array();
    for (i = depth - 1; i > 0; i--) {
        if (objects) json_object_set_new(nodes[i - 1], "a", nodes[i]);
        else json_array_append_new(nodes[i - 1], nodes[i]);
    }
    *nodes_out = nodes;
    return nodes[0];
}

/* json_decref would recurse once per level (and overflow); empty the levels from the deepest up instead. */
static void deep_free(json_t **nodes, int depth) {
    int i;
    for (i = depth - 1; i > 0; i--) {
        if (json_is_object(nodes[i - 1])) json_object_clear(nodes[i - 1]);
        else json_array_clear(nodes[i - 1]);
    }
    json_decref(nodes[0]);
    free(nodes);
}

/* ---- running a probe on a small stack, with the probe named if it crashes ---- */

static char probe_label[256];
static void (*previous_crash_hook)(void);

static void label_crash_hook(void) {
    size_t n = strlen(probe_label);
    harness_write("    crashed in: ");
    if (n > 0) harness_write(probe_label);
    harness_write("\n");
    if (previous_crash_hook != NULL) previous_crash_hook();
}

static void install_label_hook(void) {
    emu_url(); /* starting the emulator installs its own hook: chain after it */
    if (harness_crash_hook != label_crash_hook) {
        previous_crash_hook = harness_crash_hook;
        harness_crash_hook = label_crash_hook;
    }
}

typedef struct small_call {
    probe_fn fn;
    probe_ctx *ctx;
    jump_status status;
} small_call;

static void *small_stack_main(void *arg) {
    small_call *call = arg;
    /* The harness reports crashes from a handler on an alternate stack; that stack is per thread, and a
     * thread whose own stack overflowed needs one to report anything at all. */
    stack_t ss, old;
    ss.ss_sp = malloc(64 * 1024);
    ss.ss_size = 64 * 1024;
    ss.ss_flags = 0;
    sigaltstack(&ss, &old);
    call->status = call->fn(call->ctx);
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, NULL);
    free(ss.ss_sp);
    return NULL;
}

static jump_status run_on_small_stack(probe_fn fn, probe_ctx *ctx) {
    pthread_attr_t attr;
    pthread_t thread;
    small_call call;
    call.fn = fn;
    call.ctx = ctx;
    call.status = JUMP_E_INTERNAL;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, SMALL_STACK);
    if (pthread_create(&thread, &attr, small_stack_main, &call) != 0) {
        pthread_attr_destroy(&attr);
        return (jump_status)1; /* reported as "not a jump_status" */
    }
    pthread_attr_destroy(&attr);
    pthread_join(thread, NULL);
    return call.status;
}

/* Runs every probe at every depth, in both shapes. Depths go up in the outer loop, so the boundary results
 * of all probes are printed before anything deeper can crash the program. One failure line per depth. */
static void sweep(const char *file, int line, const probe *probes, size_t count, probe_ctx *base) {
    size_t d, p;
    int shape;
    install_label_hook();
    for (d = 0; d < sizeof sweep_depths / sizeof sweep_depths[0]; d++) {
        int depth = sweep_depths[d];
        char wrong[4096] = "";
        size_t used = 0;
        for (shape = 0; shape < 2; shape++) {
            size_t length;
            char *text = deep_text(shape, depth, &length);
            json_t **nodes;
            json_t *json = deep_json(shape, depth, &nodes);
            for (p = 0; p < count; p++) {
                probe_ctx ctx = *base;
                jump_status status;
                ctx.text = text;
                ctx.text_length = length;
                ctx.json = json;
                ctx.depth = depth;
                snprintf(probe_label, sizeof probe_label, "%s, depth %d, %s", probes[p].name, depth,
                         shape ? "{\"a\":{...}}" : "[[...]]");
                status = run_on_small_stack(probes[p].fn, &ctx);
                if (status > 0 || status <= -HARNESS_STATUS_COUNT) {
                    harness_fail(file, line, "%s returned %d, not a jump_status", probe_label, (int)status);
                } else if (depth > JUMP_JSON_MAX_DEPTH && probes[p].must_refuse && status != JUMP_E_INVALID_ARGUMENT &&
                           used < sizeof wrong - 200) {
                    used += (size_t)snprintf(wrong + used, sizeof wrong - used, "%s%s%s -> %s", used ? "; " : "",
                                             probes[p].name, shape ? "{}" : "[]", harness_status_name(status));
                }
            }
            probe_label[0] = '\0';
            deep_free(nodes, depth);
            free(text);
        }
        if (used > 0)
            harness_fail_plain(file, line, "depth %d (> JUMP_JSON_MAX_DEPTH %d) not refused with JUMP_E_INVALID_ARGUMENT by: %s",
                               depth, JUMP_JSON_MAX_DEPTH, wrong);
    }
}

/* ---- probes ---- */

/* An async start: the start's status when it fails; otherwise waits for the completion and gives that. */
static jump_status finish_async(jump_status started, recorder *r, jump_request *request) {
    jump_status status = started;
    json_t *payload;
    if (!recorder_wait_calls(r, 1, 20000)) status = JUMP_E_TIMEOUT;
    recorder_wait_frees(r, 1, 5000);
    if (started == JUMP_OK && recorder_count(r) > 0) {
        payload = recorder_payload(r, 0);
        status = (jump_status)json_integer_value(json_object_get(payload, "status"));
        json_decref(payload);
    }
    J.request_free(request);
    recorder_destroy(r);
    return started != JUMP_OK ? started : status;
}

/* Async probes: the status the call itself returns (deep input is refused there, on the caller's thread,
 * where the text is parsed); the completion is still waited for. */
static jump_status start_status_only(jump_status started, recorder *r, jump_request *request) {
    finish_async(started, r, request);
    return started;
}

static jump_status free_text(char *out, jump_status status) {
    if (out != NULL) J.string_free(out);
    return status;
}

static jump_status p_config_from_json(probe_ctx *c) {
    jump_config *config = NULL;
    jump_status s = J.config_from_json(c->text, &config);
    J.config_free(config);
    return s;
}
static jump_status p_config_from_json_member(probe_ctx *c) {
    /* The deep value under a real key, so the document itself is an object. */
    size_t n = c->text_length + 64;
    char *doc = malloc(n);
    jump_config *config = NULL;
    jump_status s;
    snprintf(doc, n, "{\"engageCustomProviders\":{\"x\":%s}}", c->text);
    s = J.config_from_json(doc, &config);
    J.config_free(config);
    free(doc);
    return s;
}
static jump_status p_config_from_jansson(probe_ctx *c) {
    jump_config *config = NULL;
    jump_status s = J.config_from_jansson(c->json, &config);
    J.config_free(config);
    return s;
}
static jump_status p_config_from_jansson_member(probe_ctx *c) {
    json_t *doc = json_object(), *inner = json_object();
    jump_config *config = NULL;
    jump_status s;
    json_object_set(inner, "x", c->json); /* a reference: c->json is freed level by level by the sweep */
    json_object_set_new(doc, "engageCustomProviders", inner);
    s = J.config_from_jansson(doc, &config);
    J.config_free(config);
    json_object_del(inner, "x");
    json_decref(doc);
    return s;
}

static jump_status p_record_set(probe_ctx *c) { return J.record_set(c->record, "/aboutMe", c->text); }
static jump_status p_record_set_jansson(probe_ctx *c) { return J.record_set_jansson(c->record, "/aboutMe", c->json); }
static jump_status p_record_set_object(probe_ctx *c) { return J.record_set(c->record, "/primaryAddress", c->text); }
static jump_status p_record_append(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.record_append(c->record, "/photos", c->text, &out);
    return free_text(out, s);
}
static jump_status p_record_append_jansson(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.record_append_jansson(c->record, "/photos", c->json, &out);
    return free_text(out, s);
}
static jump_status p_record_replace_plural(probe_ctx *c) { return J.record_replace_plural(c->record, "/photos", c->text); }
static jump_status p_record_replace_plural_jansson(probe_ctx *c) {
    return J.record_replace_plural_jansson(c->record, "/photos", c->json);
}

static jump_status p_register_traditional(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_register_traditional(c->client, c->text, TEST_PASSWORD, &out);
    return free_text(out, s);
}
static jump_status p_register_traditional_jansson(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_register_traditional_jansson(c->client, c->json, TEST_PASSWORD, &out);
    return free_text(out, s);
}
static jump_status p_register_traditional_async(probe_ctx *c) {
    recorder r;
    jump_request *request = NULL;
    recorder_init(&r);
    return start_status_only(J.client_register_traditional_async(c->client, c->text, TEST_PASSWORD, recorder_callback, &r,
                                                                 recorder_free, &request),
                             &r, request);
}
static jump_status p_update_profile(probe_ctx *c) { return J.client_update_profile(c->client, c->text); }
static jump_status p_update_profile_async(probe_ctx *c) {
    recorder r;
    jump_request *request = NULL;
    recorder_init(&r);
    return start_status_only(J.client_update_profile_async(c->client, c->text, recorder_callback, &r, recorder_free,
                                                           &request),
                             &r, request);
}
static jump_status p_request_headers(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_request(c->client, "GET", ME_PATH, c->text, NULL, 0, &out);
    return free_text(out, s);
}

static char *base64(const char *data, size_t length) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((length + 2) / 3 * 4 + 1), *o = out;
    size_t i;
    for (i = 0; i < length; i += 3) {
        unsigned v = (unsigned)(unsigned char)data[i] << 16;
        if (i + 1 < length) v |= (unsigned)(unsigned char)data[i + 1] << 8;
        if (i + 2 < length) v |= (unsigned)(unsigned char)data[i + 2];
        *o++ = alphabet[(v >> 18) & 63];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = i + 1 < length ? alphabet[(v >> 6) & 63] : '=';
        *o++ = i + 2 < length ? alphabet[v & 63] : '=';
    }
    *o = '\0';
    return out;
}
static jump_status p_sign_in_token_decode(probe_ctx *c) {
    char *token = base64(c->text, c->text_length), *out = NULL;
    jump_status s = J.sign_in_token_decode(token, &out);
    free(token);
    return free_text(out, s);
}

static jump_status answer_with_deep_json(void *userdata, const char *external_user_id, jump_storage_sink sink,
                                         void *sink_context) {
    probe_ctx *c = userdata;
    (void)external_user_id;
    sink(sink_context, c->text, c->text_length);
    return JUMP_OK;
}
static jump_status p_identify_answer(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_identify_external_user(c->client, "deep-user", answer_with_deep_json, c, &out);
    return free_text(out, s);
}

static jump_status refuse_open_url(void *userdata, const char *url) {
    (void)userdata, (void)url;
    return JUMP_E_CANCELLED;
}
static jump_status p_social_begin(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_social_begin(c->client, "google", c->text, &out);
    return free_text(out, s);
}
static jump_status p_social_loopback(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_social_sign_in_loopback(c->client, "google", c->text, refuse_open_url, NULL, 2000, &out);
    return free_text(out, s);
}
static jump_status p_social_loopback_async(probe_ctx *c) {
    recorder r;
    jump_request *request = NULL;
    recorder_init(&r);
    return start_status_only(J.client_social_sign_in_loopback_async(c->client, "google", c->text, refuse_open_url, 2000,
                                                                    recorder_callback, &r, recorder_free, &request),
                             &r, request);
}
static jump_status p_social_native(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_social_sign_in_native(c->client, "google", "{\"email\":\"deep@example.com\"}", NULL, c->text,
                                                   &out);
    return free_text(out, s);
}
static jump_status p_social_native_async(probe_ctx *c) {
    recorder r;
    jump_request *request = NULL;
    recorder_init(&r);
    return start_status_only(J.client_social_sign_in_native_async(c->client, "google", "{\"email\":\"deep@example.com\"}",
                                                                  NULL, c->text, recorder_callback, &r, recorder_free,
                                                                  &request),
                             &r, request);
}
static jump_status p_register_social(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_register_social(c->client, "no-such-registration-token", c->text, &out);
    return free_text(out, s);
}
static jump_status p_register_social_async(probe_ctx *c) {
    recorder r;
    jump_request *request = NULL;
    recorder_init(&r);
    return start_status_only(J.client_register_social_async(c->client, "no-such-registration-token", c->text,
                                                            recorder_callback, &r, recorder_free, &request),
                             &r, request);
}
static jump_status p_share_activity(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_share(c->client, c->text, "[\"facebook\"]", &out);
    return free_text(out, s);
}
static jump_status p_share_providers(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_share(c->client, "{\"action\":\"deep\"}", c->text, &out);
    return free_text(out, s);
}
static jump_status p_share_async(probe_ctx *c) {
    recorder r;
    jump_request *request = NULL;
    recorder_init(&r);
    return start_status_only(J.client_share_async(c->client, c->text, "[\"facebook\"]", recorder_callback, &r,
                                                  recorder_free, &request),
                             &r, request);
}
static jump_status p_share_content(probe_ctx *c) {
    char *out = NULL;
    jump_status s = J.client_share_content(c->client, c->text, &out);
    return free_text(out, s);
}

/* Host storage whose every load answers the deep text (the saved session, flow, credential...). */
static jump_status deep_load(void *context, const char *key, jump_storage_sink sink, void *sink_context) {
    probe_ctx *c = context;
    (void)key;
    sink(sink_context, c->text, c->text_length);
    return JUMP_OK;
}
static jump_status ignore_save(void *context, const char *key, const char *data, size_t length) {
    (void)context, (void)key, (void)data, (void)length;
    return JUMP_OK;
}
static jump_status ignore_erase(void *context, const char *key) {
    (void)context, (void)key;
    return JUMP_OK;
}
static jump_status p_storage_load(probe_ctx *c) {
    char *text = client_config_json(NULL, NULL);
    jump_config *config = NULL;
    jump_client *client = NULL;
    jump_status s = J.config_from_json(text, &config);
    free(text);
    if (s != JUMP_OK) return s;
    s = J.config_set_storage(config, deep_load, ignore_save, ignore_erase, c, NULL);
    if (s == JUMP_OK) s = J.client_new(config, &client);
    J.config_free(config);
    if (s == JUMP_OK) {
        char *state = NULL;
        if (J.client_is_signed_in(client)) s = (jump_status)1; /* a deep "session" must not sign anyone in */
        J.client_state(client, &state);
        if (state != NULL) J.string_free(state);
        J.client_load_flow(client); /* the cached-flow fallback reads the deep bytes too */
        J.client_free(client);
    }
    return s;
}
static jump_status p_schema_file(probe_ctx *c) {
    char path[400], extra[600];
    jump_client *client = NULL;
    jump_config *config = NULL;
    char *text;
    jump_status s;
    snprintf(path, sizeof path, "%s/deep-schema.json", c->dir);
    if (write_file(path, c->text, c->text_length) != 0) return JUMP_E_INTERNAL;
    snprintf(extra, sizeof extra, "{\"captureSchemaFile\":\"%s\",\"storageDirectory\":\":memory:\"}", path);
    text = client_config_json(NULL, extra);
    s = J.config_from_json(text, &config);
    free(text);
    if (s == JUMP_OK) s = J.client_new(config, &client);
    J.config_free(config);
    J.client_free(client);
    unlink(path);
    return s;
}

/* ---- the sweeps ---- */

TEST(depth_limit_is_exactly_jump_json_max_depth) {
    /* The boundary itself, with a function that takes any nesting today: appending an element {"a":{"a":..}}
     * to /photos (no schema loaded). JUMP_JSON_MAX_DEPTH levels still go in, one more is refused - in the
     * text and the jansson form. */
    static const probe append[] = {{"jump_record_append", p_record_append, 1},
                                   {"jump_record_append_jansson", p_record_append_jansson, 1}};
    probe_ctx ctx;
    size_t i;
    int d;
    memset(&ctx, 0, sizeof ctx);
    ctx.client = signed_in_client("{\"storageDirectory\":\":memory:\"}", NULL);
    REQUIRE(ctx.client != NULL);
    if (CHECK_OK(J.client_record(ctx.client, &ctx.record))) {
        install_label_hook();
        for (d = JUMP_JSON_MAX_DEPTH; d <= JUMP_JSON_MAX_DEPTH + 1; d++) {
            size_t length;
            char *text = deep_text(1, d, &length);
            json_t **nodes;
            json_t *json = deep_json(1, d, &nodes);
            ctx.text = text;
            ctx.text_length = length;
            ctx.json = json;
            ctx.depth = d;
            for (i = 0; i < sizeof append / sizeof append[0]; i++) {
                jump_status expected = d <= JUMP_JSON_MAX_DEPTH ? JUMP_OK : JUMP_E_INVALID_ARGUMENT;
                jump_status status;
                snprintf(probe_label, sizeof probe_label, "%s, depth %d", append[i].name, d);
                status = run_on_small_stack(append[i].fn, &ctx);
                if (status != expected)
                    harness_fail(__FILE__, __LINE__, "%s returned %d (%s), expected %s", probe_label, (int)status,
                                 harness_status_name(status), harness_status_name(expected));
            }
            probe_label[0] = '\0';
            deep_free(nodes, d);
            free(text);
        }
    }
    J.record_free(ctx.record);
    J.client_free(ctx.client);
}

TEST(depth_sweep_config_functions) {
    static const probe probes[] = {
        {"jump_config_from_json", p_config_from_json, 1},
        {"jump_config_from_json(engageCustomProviders)", p_config_from_json_member, 1},
        {"jump_config_from_jansson", p_config_from_jansson, 1},
        {"jump_config_from_jansson(engageCustomProviders)", p_config_from_jansson_member, 1},
    };
    probe_ctx base;
    memset(&base, 0, sizeof base);
    sweep(__FILE__, __LINE__, probes, sizeof probes / sizeof probes[0], &base);
}

TEST(depth_sweep_record_functions) {
    static const probe probes[] = {
        {"jump_record_set(/aboutMe)", p_record_set, 1},
        {"jump_record_set(/primaryAddress)", p_record_set_object, 1},
        {"jump_record_set_jansson", p_record_set_jansson, 1},
        {"jump_record_append", p_record_append, 1},
        {"jump_record_append_jansson", p_record_append_jansson, 1},
        {"jump_record_replace_plural", p_record_replace_plural, 1},
        {"jump_record_replace_plural_jansson", p_record_replace_plural_jansson, 1},
    };
    probe_ctx base;
    memset(&base, 0, sizeof base);
    base.client = signed_in_client("{\"storageDirectory\":\":memory:\"}", NULL);
    REQUIRE(base.client != NULL);
    if (CHECK_OK(J.client_record(base.client, &base.record)))
        sweep(__FILE__, __LINE__, probes, sizeof probes / sizeof probes[0], &base);
    J.record_free(base.record);
    J.client_free(base.client);
}

TEST(depth_sweep_client_functions) {
    static const probe probes[] = {
        {"jump_client_register_traditional", p_register_traditional, 1},
        {"jump_client_register_traditional_jansson", p_register_traditional_jansson, 1},
        {"jump_client_register_traditional_async", p_register_traditional_async, 1},
        {"jump_client_update_profile", p_update_profile, 1},
        {"jump_client_update_profile_async", p_update_profile_async, 1},
        {"jump_client_request(headers_json)", p_request_headers, 1},
        {"jump_sign_in_token_decode(base64 JSON)", p_sign_in_token_decode, 1},
        {"jump_client_identify_external_user(authenticate answer)", p_identify_answer, 1},
    };
    probe_ctx base;
    memset(&base, 0, sizeof base);
    base.client = signed_in_client("{\"storageDirectory\":\":memory:\"}", NULL);
    REQUIRE(base.client != NULL);
    sweep(__FILE__, __LINE__, probes, sizeof probes / sizeof probes[0], &base);
    J.client_free(base.client);
}

TEST(depth_sweep_social_functions) {
    static const probe probes[] = {
        {"jump_client_social_begin", p_social_begin, 1},
        {"jump_client_social_sign_in_loopback", p_social_loopback, 1},
        {"jump_client_social_sign_in_loopback_async", p_social_loopback_async, 1},
        {"jump_client_social_sign_in_native", p_social_native, 1},
        {"jump_client_social_sign_in_native_async", p_social_native_async, 1},
        {"jump_client_register_social", p_register_social, 1},
        {"jump_client_register_social_async", p_register_social_async, 1},
        {"jump_client_share(activity_json)", p_share_activity, 1},
        {"jump_client_share(providers_json)", p_share_providers, 1},
        {"jump_client_share_async", p_share_async, 1},
        {"jump_client_share_content", p_share_content, 1},
    };
    probe_ctx base;
    char extra[512];
    memset(&base, 0, sizeof base);
    REQUIRE(emu_url() != NULL);
    snprintf(extra, sizeof extra,
             "{\"storageDirectory\":\":memory:\",\"engageAppId\":\"jump-default-engage\",\"engageDomain\":\"%s\"}",
             emu_url());
    base.client = signed_in_client(extra, NULL);
    REQUIRE(base.client != NULL);
    sweep(__FILE__, __LINE__, probes, sizeof probes / sizeof probes[0], &base);
    J.client_free(base.client);
}

TEST(depth_sweep_host_storage_and_schema_file) {
    /* JSON the host hands over indirectly. These need not fail with JUMP_E_INVALID_ARGUMENT (a session that
     * cannot be read is a restore_error), but they must not crash, and a deep "session" signs nobody in. */
    static const probe probes[] = {
        {"jump_client_new(host storage load)", p_storage_load, 0},
        {"jump_client_new(captureSchemaFile)", p_schema_file, 0},
    };
    probe_ctx base;
    memset(&base, 0, sizeof base);
    REQUIRE(emu_url() != NULL);
    base.dir = emu_tmpdir();
    sweep(__FILE__, __LINE__, probes, sizeof probes / sizeof probes[0], &base);
}

/* ======================================================================================================== */
/* Row 10: host callbacks run on the caller's thread or on libjump's own threads                            */
/* ======================================================================================================== */

#define SEEN_MAX 256

typedef struct thread_store {
    pthread_mutex_t mutex;
    char *keys[32];
    char *values[32];
    size_t lengths[32];
    int count;
    pthread_t caller;               /* the thread making the jump_* calls */
    char seen[SEEN_MAX][96];        /* callbacks that ran elsewhere: "save(session-...) on 'name'" */
    int seen_count, calls;
} thread_store;

/* Records where a host callback runs; "where" is e.g. "save(session-x)". */
static void note_thread(thread_store *s, const char *where) {
    char name[17];
    int on_caller = pthread_equal(pthread_self(), s->caller);
    thread_name(name);
    pthread_mutex_lock(&s->mutex);
    s->calls++;
    if (!on_caller && strncmp(name, "jump", 4) != 0 && s->seen_count < SEEN_MAX)
        snprintf(s->seen[s->seen_count++], sizeof s->seen[0], "%.60s on thread '%s'", where, name);
    pthread_mutex_unlock(&s->mutex);
}

static int ts_index(thread_store *s, const char *key) {
    int i;
    for (i = 0; i < s->count; i++)
        if (strcmp(s->keys[i], key) == 0) return i;
    return -1;
}

static jump_status ts_load(void *context, const char *key, jump_storage_sink sink, void *sink_context) {
    thread_store *s = context;
    char where[96], *copy = NULL;
    size_t length = 0;
    int i;
    snprintf(where, sizeof where, "load(%.40s)", key);
    note_thread(s, where);
    pthread_mutex_lock(&s->mutex);
    i = ts_index(s, key);
    if (i >= 0) {
        length = s->lengths[i];
        copy = malloc(length + 1);
        memcpy(copy, s->values[i], length);
    }
    pthread_mutex_unlock(&s->mutex);
    if (copy == NULL) return JUMP_E_NOT_FOUND;
    sink(sink_context, copy, length);
    free(copy);
    return JUMP_OK;
}

static jump_status ts_save(void *context, const char *key, const char *data, size_t length) {
    thread_store *s = context;
    char where[96];
    int i;
    snprintf(where, sizeof where, "save(%.40s)", key);
    note_thread(s, where);
    pthread_mutex_lock(&s->mutex);
    i = ts_index(s, key);
    if (i < 0 && s->count < 32) {
        i = s->count++;
        s->keys[i] = strdup(key);
        s->values[i] = NULL;
    }
    if (i >= 0) {
        free(s->values[i]);
        s->values[i] = malloc(length + 1);
        memcpy(s->values[i], data, length);
        s->lengths[i] = length;
    }
    pthread_mutex_unlock(&s->mutex);
    return JUMP_OK;
}

static jump_status ts_erase(void *context, const char *key) {
    thread_store *s = context;
    char where[96];
    int i;
    snprintf(where, sizeof where, "erase(%.40s)", key);
    note_thread(s, where);
    pthread_mutex_lock(&s->mutex);
    i = ts_index(s, key);
    if (i >= 0) {
        free(s->keys[i]);
        free(s->values[i]);
        s->keys[i] = s->keys[s->count - 1];
        s->values[i] = s->values[s->count - 1];
        s->lengths[i] = s->lengths[s->count - 1];
        s->count--;
    }
    pthread_mutex_unlock(&s->mutex);
    return JUMP_OK;
}

static void ts_destroy(thread_store *s) {
    int i;
    for (i = 0; i < s->count; i++) {
        free(s->keys[i]);
        free(s->values[i]);
    }
    pthread_mutex_destroy(&s->mutex);
}

static void report_foreign_threads(const char *file, int line, thread_store *s, const char *what) {
    int i;
    pthread_mutex_lock(&s->mutex);
    if (s->seen_count > 0) {
        harness_fail_plain(file, line, "%s: %d of %d host callbacks ran neither on the caller's thread nor on a "
                           "\"jump...\" thread, e.g.:", what, s->seen_count, s->calls);
        for (i = 0; i < s->seen_count && i < 5; i++) printf("      %s\n", s->seen[i]);
    }
    s->seen_count = 0;
    s->calls = 0;
    pthread_mutex_unlock(&s->mutex);
}

static jump_status wait_async(jump_status started, recorder *r, jump_request *request) {
    return finish_async(started, r, request);
}

typedef struct identify_answer {
    thread_store *store;
    const char *token;
} identify_answer;

static jump_status answer_token_noting_thread(void *userdata, const char *external_user_id, jump_storage_sink sink,
                                              void *sink_context) {
    identify_answer *answer = userdata;
    char json[4096];
    (void)external_user_id;
    note_thread(answer->store, "authenticate");
    snprintf(json, sizeof json, "{\"type\":\"sign_in_token\",\"sign_in_token\":\"%s\"}", answer->token);
    sink(sink_context, json, strlen(json));
    return JUMP_OK;
}

TEST(host_callbacks_run_on_the_caller_or_jump_threads) {
    /* A host runtime may end a foreign thread that calls into it while it shuts down (CPython < 3.14 does),
     * and libdispatch aborts the process when one of its workers disappears: host callbacks must never run
     * on a libdispatch worker. libjump's own threads are named "jump...". */
    thread_store store;
    jump_config *config = NULL;
    jump_client *client = NULL;
    jump_record *record = NULL;
    jump_request *request = NULL;
    recorder r;
    char *text, *email = unique_email("threads"), *uuid, *user_id = NULL, *token = NULL, *out = NULL;
    identify_answer answer;
    memset(&store, 0, sizeof store);
    pthread_mutex_init(&store.mutex, NULL);
    store.caller = pthread_self();
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) goto out;
    uuid = emu_create_user(email, TEST_PASSWORD, NULL);
    free(uuid);
    text = client_config_json(NULL, NULL);
    CHECK_OK(J.config_from_json(text, &config));
    free(text);
    if (!CHECK_OK(J.config_set_storage(config, ts_load, ts_save, ts_erase, &store, NULL))) goto out;
    if (!CHECK_OK(J.client_new(config, &client))) goto out;

    /* Asynchronous calls that save the session. */
    recorder_init(&r);
    CHECK_OK(wait_async(J.client_sign_in_async(client, email, TEST_PASSWORD, recorder_callback, &r, recorder_free, &request),
                        &r, request));
    if (CHECK_OK(J.client_record(client, &record))) {
        CHECK_OK(J.record_set_string(record, "/aboutMe", "threads"));
        recorder_init(&r);
        request = NULL;
        CHECK_OK(wait_async(J.client_sync_async(client, recorder_callback, &r, recorder_free, &request), &r, request));
        J.record_free(record);
    }
    recorder_init(&r);
    request = NULL;
    CHECK_OK(wait_async(J.client_fetch_record_async(client, recorder_callback, &r, recorder_free, &request), &r, request));
    CHECK_MSG(store.calls > 0, "no host storage callback ran during the async calls");
    report_foreign_threads(__FILE__, __LINE__, &store, "sign_in_async, sync_async, fetch_record_async");

    /* identify: authenticate (and the saves of the new credential) on the calling thread. */
    CHECK_OK(J.client_sign_out(client));
    user_id = emu_token_user();
    if (CHECK(user_id != NULL)) token = emu_sign_in_token(user_id);
    if (CHECK(token != NULL)) {
        char settings[512];
        jump_client *token_client = NULL;
        jump_config *token_config = NULL;
        snprintf(settings, sizeof settings, "{\"signInTokenAuthBaseUrl\":\"%s\",\"signInTokenApiBaseUrl\":\"%s\"}",
                 emu_url(), emu_url());
        text = client_config_json(NULL, settings);
        CHECK_OK(J.config_from_json(text, &token_config));
        free(text);
        CHECK_OK(J.config_set_storage(token_config, ts_load, ts_save, ts_erase, &store, NULL));
        if (CHECK_OK(J.client_new(token_config, &token_client))) {
            answer.store = &store;
            answer.token = token;
            CHECK_OK(J.client_identify_external_user(token_client, "thread-user", answer_token_noting_thread, &answer, &out));
            if (out != NULL) J.string_free(out);
            report_foreign_threads(__FILE__, __LINE__, &store, "identify_external_user");
            J.client_free(token_client);
        }
        J.config_free(token_config);
    }
out:
    J.client_free(client);
    J.config_free(config);
    sleep_ms(100);
    ts_destroy(&store);
    free(user_id);
    free(token);
    free(email);
}

typedef struct open_url_seen {
    pthread_mutex_t mutex;
    pthread_t caller;
    int calls, foreign;
    char name[17];
} open_url_seen;

/* The async loopback call gives open_url the completion's userdata: a recorder first, so recorder_callback
 * can take the same pointer, then what open_url notes. */
typedef struct loopback_userdata {
    recorder r;
    open_url_seen *seen;
} loopback_userdata;

static jump_status open_url_noting_thread(void *userdata, const char *url) {
    open_url_seen *seen = ((loopback_userdata *)userdata)->seen;
    char name[17];
    (void)url;
    thread_name(name);
    pthread_mutex_lock(&seen->mutex);
    seen->calls++;
    if (!pthread_equal(pthread_self(), seen->caller) && strncmp(name, "jump", 4) != 0) {
        seen->foreign++;
        memcpy(seen->name, name, sizeof name);
    }
    pthread_mutex_unlock(&seen->mutex);
    return JUMP_E_CANCELLED; /* the "browser" could not be opened: the sign-in ends at once */
}

TEST(loopback_open_url_runs_on_the_caller_or_a_jump_thread) {
    /* jump.h: the synchronous loopback sign-in calls open_url on the calling thread, the asynchronous one "on
     * a libjump thread" - a host that opens a browser through its runtime (Python's webbrowser) must not be
     * called from a libdispatch worker. */
    open_url_seen seen;
    loopback_userdata sync_ud, async_ud;
    jump_client *client;
    jump_request *request = NULL;
    char extra[512], *out = NULL;
    memset(&seen, 0, sizeof seen);
    pthread_mutex_init(&seen.mutex, NULL);
    seen.caller = pthread_self();
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return;
    snprintf(extra, sizeof extra,
             "{\"storageDirectory\":\":memory:\",\"engageAppId\":\"jump-default-engage\",\"engageDomain\":\"%s\"}",
             emu_url());
    client = new_client(NULL, extra);
    REQUIRE(client != NULL);
    /* Synchronous: on the calling thread. */
    sync_ud.seen = &seen;
    CHECK_STATUS(J.client_social_sign_in_loopback(client, "google", NULL, open_url_noting_thread, &sync_ud, 3000, &out),
                 JUMP_E_CANCELLED);
    if (out != NULL) J.string_free(out);
    /* Asynchronous: on a libjump thread. */
    recorder_init(&async_ud.r);
    async_ud.seen = &seen;
    CHECK_OK(J.client_social_sign_in_loopback_async(client, "google", NULL, open_url_noting_thread, 3000,
                                                    recorder_callback, &async_ud, recorder_free, &request));
    CHECK(recorder_wait_calls(&async_ud.r, 1, 10000));
    CHECK(recorder_wait_frees(&async_ud.r, 1, 5000));
    J.request_free(request);
    recorder_destroy(&async_ud.r);
    CHECK_EQ_INT(seen.calls, 2);
    CHECK_MSG(seen.foreign == 0, "open_url ran on thread '%s', neither the caller's nor a \"jump...\" thread", seen.name);
    J.client_free(client);
    pthread_mutex_destroy(&seen.mutex);
}

/* ======================================================================================================== */
/* Row 11: storage directory hygiene                                                                        */
/* ======================================================================================================== */

/* The session file's name in dir ("session-....json"), malloc'd, or NULL. */
static char *session_file_name(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    char *name = NULL;
    if (d == NULL) return NULL;
    while (name == NULL && (entry = readdir(d)) != NULL) {
        size_t n = strlen(entry->d_name);
        if (strncmp(entry->d_name, "session-", 8) == 0 && n > 5 && strcmp(entry->d_name + n - 5, ".json") == 0)
            name = strdup(entry->d_name);
    }
    closedir(d);
    return name;
}

/* The pid of a process that has already exited. */
static long dead_pid(void) {
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    if (pid > 0) waitpid(pid, NULL, 0);
    return (long)pid;
}

TEST(stale_session_temp_files_are_removed_when_a_client_opens_the_store) {
    /* A process killed between writing "<session>.tmp-<pid>-<n>" and renaming it leaves the file behind,
     * full of secrets (access token, refresh secret), forever. */
    const char *dir;
    char *session, temp[2][600], *uuid;
    jump_client *client;
    long pid;
    int i;
    struct stat st;
    if (!CHECK_MSG(emu_url() != NULL && emu_reset() == 0, "the emulator is not available")) return;
    dir = emu_tmpdir();
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    uuid = sign_in_new_user(client, NULL, NULL);
    J.client_free(client);
    REQUIRE(uuid != NULL);
    session = session_file_name(dir);
    REQUIRE_MSG(session != NULL, "no session-*.json in %s after a sign-in", dir);
    pid = dead_pid();
    snprintf(temp[0], sizeof temp[0], "%s/%s.tmp-%ld-%u", dir, session, pid, 12345u);
    snprintf(temp[1], sizeof temp[1], "%s/%s.tmp-%ld-%u", dir, session, pid, 4294967295u);
    for (i = 0; i < 2; i++) CHECK(write_file(temp[i], "{\"access_token\":\"half-writ", 26) == 0);

    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    for (i = 0; i < 2; i++)
        CHECK_MSG(stat(temp[i], &st) != 0, "%s is still there after jump_client_new", temp[i]);
    /* The real session is untouched and restored. */
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    J.client_free(client);
    for (i = 0; i < 2; i++) unlink(temp[i]);
    free(session);
    free(uuid);
}

TEST(world_writable_storage_directory_becomes_0700) {
    /* A directory someone made 0777 lets any local user replace the session file (rename over it) or read
     * what a looser umask left readable; libjump documents "a 0700 directory". */
    const char *dir = emu_tmpdir();
    jump_client *client;
    struct stat st;
    REQUIRE(chmod(dir, 0777) == 0);
    REQUIRE(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0777);
    client = new_client(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE(stat(dir, &st) == 0);
    CHECK_MSG((st.st_mode & 0777) == 0700, "the storage directory is %03o after jump_client_new, expected 700",
              (unsigned)(st.st_mode & 0777));
    J.client_free(client);
}

/* ======================================================================================================== */
/* Row 12: jump_error_last_jansson(NULL)                                                                    */
/* ======================================================================================================== */

TEST(error_last_jansson_with_null_out_reports_its_own_failure) {
    /* After a refused call, jump_error_last() must describe that call - not a failure from before it. */
    char *out = NULL;
    json_t *detail;
    CHECK_STATUS(J.client_state(NULL, &out), JUMP_E_INVALID_HANDLE); /* an earlier, different failure */
    CHECK_STATUS(J.error_last_jansson(NULL), JUMP_E_INVALID_ARGUMENT);
    detail = error_detail();
    CHECK_MSG(json_integer_value(json_object_get(detail, "status")) == JUMP_E_INVALID_ARGUMENT,
              "jump_error_last() after jump_error_last_jansson(NULL) does not describe it");
    CHECK_STR_EQ(json_str(detail, "argument"), "out");
    json_decref(detail);
}

/* ---- a log line costs the same stack however many came before it ---- */

static void count_log_line(void *userdata, const char *line) {
    (void)line;
    ++*(long *)userdata;
}

/* A client of a closed port: each flow download fails at once, with one log line. */
static jump_client *client_of_a_closed_port(void) {
    char extra[200];
    snprintf(extra, sizeof extra,
             "{\"captureDomain\":\"http://127.0.0.1:%d\",\"captureFlowDomain\":\"http://127.0.0.1:%d\","
             "\"storageDirectory\":\":memory:\"}", emu_closed_port(), emu_closed_port());
    return new_client(NULL, extra);
}

static jump_status failed_download_logs_a_line(probe_ctx *ctx) {
    return J.client_load_flow(ctx->client);
}

/* The log sink used to come back from its lock wrapped in two more reabstraction thunks at every line, so
 * the n-th line recursed 2n frames deep: after some thousands of lines, a host thread's stack overflowed. */
TEST(log_lines_cost_the_same_stack_however_many_came_before) {
    enum { LINES = 10000 };
    long lines = 0;
    probe_ctx ctx;
    int i;
    REQUIRE_EMULATOR();
    install_label_hook();
    memset(&ctx, 0, sizeof ctx);
    ctx.client = client_of_a_closed_port();
    REQUIRE(ctx.client != NULL);
    CHECK_OK(J.set_log_callback(count_log_line, &lines, NULL));
    for (i = 0; i < LINES; i++) CHECK_STATUS(J.client_load_flow(ctx.client), JUMP_E_NETWORK);
    snprintf(probe_label, sizeof probe_label, "a log line after %ld others, on a %zu KiB stack", lines, SMALL_STACK / 1024);
    CHECK_STATUS(run_on_small_stack(failed_download_logs_a_line, &ctx), JUMP_E_NETWORK);
    CHECK_MSG(lines > LINES, "%ld log lines for %d failed downloads", lines, LINES + 1);
    CHECK_OK(J.set_log_callback(NULL, NULL, NULL));
    J.client_free(ctx.client);
}
