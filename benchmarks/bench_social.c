/*
 * bench_social.c - social sign-in of an existing user through libjump vs the same HTTP exchanges replayed by
 * hand with libcurl + jansson (what a C app would write without libjump).
 *
 * Usage: bench_social LIBJUMP_SO STATE_DIR   (JUMP_EMULATOR_URL must be set; BENCH_SOCIAL_N iterations)
 * Build: cc -O2 -Iinclude -o build/bench/bench_social benchmarks/bench_social.c -lcurl -ljansson -ldl -lpthread
 *
 * Native token: jump_client_social_sign_in_native(client, "facebook", <provider token>) against
 *   POST <engage>/signin/oauth_token?providername=facebook  (token=<provider token>&provider=facebook)
 *   POST <capture>/oauth/auth_native                        (token=<engage token>, flow, refresh_secret, ..)
 * by hand over one reused connection, the answer parsed with jansson. In the emulator the provider token is a
 * JSON profile; the user is made once beforehand by a thin-registration sign-in, so every timed sign-in finds
 * the existing user. libjump is measured saving the session to STATE_DIR (fsync included) and with ":memory:".
 *
 * Loopback: jump_client_social_sign_in_loopback(client, "facebook") whose open_url plays the browser on the
 * emulator's fake identity provider with libcurl (GET the start page, POST the identity's form, which answers
 * 302 to libjump's 127.0.0.1 listener; that last GET runs on a helper thread, since libjump only serves its
 * listener once open_url has returned), against the same identity-provider steps by hand with the token taken
 * from the 302's Location (no listener) and the same auth_native POST. Same "browser" code on both sides, so
 * the difference is libjump's work plus the browser's hop to the listener (reported apart: hand-off + GET).
 *
 * Flow and Engage configuration already known on both sides (libjump: loaded beforehand; by hand: read once).
 * When libjump also asks Engage for the profile (GET /signin/device?token=..&auth_info=true, seen in its log
 * during the warm-up), the hand-written side makes that request too, so both still do the same exchanges.
 * The variants are interleaved, in rotating order, so machine noise hits them alike; we report medians.
 * Prints ROW lines for run.sh's table.
 */
#define _POSIX_C_SOURCE 200809L

#include <curl/curl.h>
#include <dlfcn.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "jump.h"
#include "bench_load.h"
#include "bench_stats.h"

#define JUMP_FUNCTIONS(X)                                                                                 \
    X(abi_version) X(error_last) X(string_free) X(config_from_json) X(config_free) X(client_new)         \
    X(client_free) X(client_load_flow) X(client_load_engage_config) X(client_social_sign_in_native)       \
    X(client_social_sign_in_loopback) X(set_log_callback)

static struct {
#define X(name) __typeof__(&jump_##name) name;
    JUMP_FUNCTIONS(X)
#undef X
} jump;

#define PROVIDER "facebook"
#define CLIENT_ID "jump-default-client"
#define ENGAGE_APP "jump-default-engage"

static void die(const char *what, const char *detail) {
    fprintf(stderr, "bench_social: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

/* ---------------------------------------------------------------------------------------------------- */
/* libcurl plumbing: the app's requests and the "browser"'s.                                            */
/* ---------------------------------------------------------------------------------------------------- */

struct reply {
    long status;
    char *body;     /* never NULL once answered */
    size_t length;
    char *location; /* the Location header or NULL */
};

static size_t collect(char *data, size_t size, size_t count, void *userdata) {
    struct reply *reply = userdata;
    char *grown = realloc(reply->body, reply->length + size * count + 1);
    if (grown == NULL) return 0;
    memcpy(grown + reply->length, data, size * count);
    reply->body = grown;
    reply->length += size * count;
    reply->body[reply->length] = '\0';
    return size * count;
}

static size_t header_line(char *line, size_t size, size_t count, void *userdata) {
    struct reply *reply = userdata;
    size_t n = size * count, start = 9, end = n;
    if (n > 9 && strncasecmp(line, "Location:", 9) == 0) {
        while (start < n && (line[start] == ' ' || line[start] == '\t')) start++;
        while (end > start && (line[end - 1] == '\r' || line[end - 1] == '\n' || line[end - 1] == ' ')) end--;
        free(reply->location);
        reply->location = strndup(line + start, end - start);
    }
    return n;
}

static void reply_free(struct reply *reply) {
    free(reply->body);
    free(reply->location);
    memset(reply, 0, sizeof *reply);
}

/* One request on a reused handle (so its connection is reused, as libjump pools its handles; a browser
 * keeps its connections too); form body NULL means GET. Redirects are not followed. 0, or -1 (error set). */
static int http(CURL *curl, const char *url, const char *form, int want_json, struct reply *reply, char *error,
                size_t error_size) {
    struct curl_slist *headers = NULL;
    memset(reply, 0, sizeof *reply);
    if (form != NULL) headers = curl_slist_append(headers, "Content-Type: application/x-www-form-urlencoded");
    if (want_json) headers = curl_slist_append(headers, "Accept: application/json");
    headers = curl_slist_append(headers, "Expect:"); /* as libjump: no 100-continue round trip */
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 20000L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, reply);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, header_line);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, reply);
    if (form != NULL) curl_easy_setopt(curl, CURLOPT_POSTFIELDS, form);
    CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    if (code == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply->status);
    if (reply->body == NULL) reply->body = calloc(1, 1);
    if (code != CURLE_OK) {
        snprintf(error, error_size, "%s %s: %s", form ? "POST" : "GET", url, curl_easy_strerror(code));
        return -1;
    }
    return 0;
}

/* A JSON request of the app (setup or the hand-written sign-in): the parsed answer, or dies. */
static json_t *request_json(CURL *curl, const char *url, const char *form) {
    struct reply reply;
    char error[512];
    if (http(curl, url, form, 1, &reply, error, sizeof error) != 0) die("request", error);
    json_error_t parse_error;
    json_t *json = json_loadb(reply.body, reply.length, 0, &parse_error);
    if (json == NULL) die(url, reply.length ? reply.body : parse_error.text);
    reply_free(&reply);
    return json;
}

/* A JSON admin request to the emulator (body JSON text). */
static json_t *admin_post(CURL *curl, const char *url, const char *json_body) {
    struct reply reply;
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    curl_easy_reset(curl);
    memset(&reply, 0, sizeof reply);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, json_body);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply);
    CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    if (code != CURLE_OK) die(url, curl_easy_strerror(code));
    json_t *json = json_loadb(reply.body ? reply.body : "", reply.length, 0, NULL);
    if (json == NULL) die(url, reply.body);
    reply_free(&reply);
    return json;
}

/* Appends "&name=<url-encoded value>" (keys go out raw, values encoded: docs/protocol.md section 2.1). */
static void add_parameter(char *body, size_t size, const char *name, const char *value) {
    char *escaped = curl_easy_escape(NULL, value, 0);
    size_t used = strlen(body);
    snprintf(body + used, size - used, "%s%s=%s", used ? "&" : "", name, escaped);
    curl_free(escaped);
}

/* count random bytes as hex (a fresh refresh secret per sign-in, as libjump makes; states, ids). */
static void random_hex(char *out, int count) {
    static FILE *random;
    unsigned char bytes[64];
    if (count > (int)sizeof bytes) die("random_hex", "too long");
    if (random == NULL && (random = fopen("/dev/urandom", "rb")) == NULL) die("/dev/urandom", "cannot open");
    if (fread(bytes, 1, (size_t)count, random) != (size_t)count) die("/dev/urandom", "short read");
    for (int i = 0; i < count; i++) snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

/* The decoded value of query parameter name of url (malloc'd) or NULL. */
static char *query_parameter(const char *url, const char *name) {
    const char *p = strchr(url, '?');
    size_t n = strlen(name);
    while (p != NULL && *p != '\0') {
        p++;
        const char *end = p + strcspn(p, "&#");
        if ((size_t)(end - p) > n && strncmp(p, name, n) == 0 && p[n] == '=') {
            int length = 0;
            char *decoded = curl_easy_unescape(NULL, p + n + 1, (int)(end - p - (long)n - 1), &length);
            char *copy = strndup(decoded, (size_t)length);
            curl_free(decoded);
            return copy;
        }
        p = *end == '&' ? end : NULL;
    }
    return NULL;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The "browser" on the emulator's fake identity provider (HTML: see /<provider>/start).                */
/* ---------------------------------------------------------------------------------------------------- */

/* HTML attribute text -> plain text (the entities the emulator's escaping produces). */
static char *html_unescape(const char *s, size_t n) {
    static const struct { const char *entity; char c; } entities[] = {
        {"&amp;", '&'}, {"&lt;", '<'},    {"&gt;", '>'},     {"&quot;", '"'},
        {"&#39;", '\''}, {"&#x27;", '\''}, {"&apos;", '\''}};
    char *out = malloc(n + 1), *o = out;
    for (size_t i = 0; i < n;) {
        size_t k, count = sizeof entities / sizeof entities[0];
        for (k = 0; k < count; k++) {
            size_t length = strlen(entities[k].entity);
            if (n - i >= length && strncmp(s + i, entities[k].entity, length) == 0) {
                *o++ = entities[k].c;
                i += length;
                break;
            }
        }
        if (k == count) *o++ = s[i++];
    }
    *o = '\0';
    return out;
}

/* The attribute name of the tag starting at tag ('<'), unescaped (malloc'd), or NULL. */
static char *tag_attribute(const char *tag, const char *name) {
    const char *end = strchr(tag, '>');
    size_t n = strlen(name);
    if (end == NULL) return NULL;
    for (const char *p = tag + 1; p + n < end; p++) {
        if ((p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') && strncasecmp(p, name, n) == 0 && p[n] == '=') {
            const char *value = p + n + 1, *value_end;
            if (*value == '"' || *value == '\'') {
                char quote = *value++;
                value_end = memchr(value, quote, (size_t)(end - value));
                if (value_end == NULL) return NULL;
            } else {
                value_end = value + strcspn(value, " \t\n>");
            }
            return html_unescape(value, (size_t)(value_end - value));
        }
    }
    return NULL;
}

static int attribute_is(const char *tag, const char *name, const char *value) {
    char *got = tag_attribute(tag, name);
    int same = got != NULL && strcmp(got, value) == 0;
    free(got);
    return same;
}

/* What pressing <button name="identity_id" value=identity_id> submits: its form's inputs and the button.
 * Returns the body (malloc'd) and the form's action in *action (malloc'd); NULL when there is no such button. */
static char *identity_form(const char *html, const char *identity_id, char **action) {
    const char *button = NULL, *form = NULL, *p;
    *action = NULL;
    for (p = strstr(html, "<button"); p != NULL; p = strstr(p + 7, "<button"))
        if (attribute_is(p, "name", "identity_id") && attribute_is(p, "value", identity_id)) {
            button = p;
            break;
        }
    if (button == NULL) return NULL;
    for (p = strstr(html, "<form"); p != NULL && p < button; p = strstr(p + 5, "<form")) form = p;
    if (form == NULL) return NULL;
    size_t size = 4096;
    char *body = calloc(1, size);
    for (p = strstr(form, "<input"); p != NULL && p < button; p = strstr(p + 6, "<input")) {
        char *name = tag_attribute(p, "name"), *value = tag_attribute(p, "value");
        if (name != NULL && name[0] != '\0') {
            char *escaped_name = curl_easy_escape(NULL, name, 0);
            if (strlen(body) + strlen(escaped_name) + 3 * strlen(value ? value : "") + 3 >= size)
                die("form", "too big");
            size_t used = strlen(body);
            snprintf(body + used, size - used, "%s%s=", used ? "&" : "", escaped_name);
            curl_free(escaped_name);
            char *escaped_value = curl_easy_escape(NULL, value ? value : "", 0);
            strcat(body, escaped_value);
            curl_free(escaped_value);
        }
        free(name);
        free(value);
    }
    add_parameter(body, size, "identity_id", identity_id);
    *action = tag_attribute(form, "action");
    if (*action == NULL) {
        free(body);
        return NULL;
    }
    return body;
}

struct browser {
    CURL *curl;             /* the browser's connection to the emulator, kept between sign-ins */
    const char *base_url;   /* for the form's relative action */
    const char *identity_id;
};

/* GET the provider start page, press the identity's button: the URL the provider then sends the browser
 * to (its 302 Location, malloc'd), or NULL with error set. */
static char *browser_sign_in(struct browser *b, const char *start_url, char *error, size_t error_size) {
    struct reply page, answer;
    char *action = NULL, *form, *target, *location = NULL;
    if (http(b->curl, start_url, NULL, 0, &page, error, error_size) != 0) return NULL;
    if (page.status != 200) {
        snprintf(error, error_size, "GET %s -> HTTP %ld: %.300s", start_url, page.status, page.body);
        reply_free(&page);
        return NULL;
    }
    form = identity_form(page.body, b->identity_id, &action);
    if (form == NULL) {
        snprintf(error, error_size, "the start page has no identity %s: %.600s", b->identity_id, page.body);
        reply_free(&page);
        return NULL;
    }
    reply_free(&page);
    if (strncmp(action, "http://", 7) == 0 || strncmp(action, "https://", 8) == 0) {
        target = strdup(action);
    } else {
        target = malloc(strlen(b->base_url) + strlen(action) + 1);
        sprintf(target, "%s%s", b->base_url, action);
    }
    if (http(b->curl, target, form, 0, &answer, error, error_size) == 0) {
        if (answer.status == 302 && answer.location != NULL) {
            location = answer.location;
            answer.location = NULL;
        } else {
            snprintf(error, error_size, "POST %s -> HTTP %ld (Location %s): %.300s", target, answer.status,
                     answer.location ? answer.location : "none", answer.body);
        }
    }
    reply_free(&answer);
    free(target);
    free(action);
    free(form);
    return location;
}

/* The browser's last step for libjump's loopback: the GET on the 127.0.0.1 listener, on a helper thread
 * (libjump serves its listener on the calling thread, once open_url has returned). */
struct landing {
    CURL *curl;
    char *url;
    pthread_t thread;
    int started;
    long status;
    double handed_at; /* when open_url handed the URL to the thread */
    double ms;        /* from there to the listener's whole answer: the browser's hop to the listener */
    char error[512];
};

static void *land(void *argument) {
    struct landing *l = argument;
    struct reply reply;
    if (http(l->curl, l->url, NULL, 0, &reply, l->error, sizeof l->error) == 0) l->status = reply.status;
    l->ms = now_ms() - l->handed_at;
    reply_free(&reply);
    return NULL;
}

struct loopback_browser {
    struct browser *browser;
    struct landing landing;
    char error[1024];
};

/* jump_open_url_fn: the identity-provider steps here, the landing on the listener on the helper thread. */
static jump_status open_url(void *userdata, const char *url) {
    struct loopback_browser *lb = userdata;
    char *location = browser_sign_in(lb->browser, url, lb->error, sizeof lb->error);
    if (location == NULL) return JUMP_E_NETWORK;
    if (strncmp(location, "http://127.0.0.1:", 17) != 0) {
        snprintf(lb->error, sizeof lb->error, "the provider sent the browser to %s, not to the listener", location);
        free(location);
        return JUMP_E_NETWORK;
    }
    lb->landing.url = location;
    lb->landing.status = 0;
    lb->landing.error[0] = '\0';
    lb->landing.handed_at = now_ms();
    if (pthread_create(&lb->landing.thread, NULL, land, &lb->landing) != 0) {
        snprintf(lb->error, sizeof lb->error, "pthread_create failed");
        return JUMP_E_INTERNAL;
    }
    lb->landing.started = 1;
    return JUMP_OK;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The two sides.                                                                                       */
/* ---------------------------------------------------------------------------------------------------- */

struct replay {
    CURL *curl;               /* the app's connection */
    const char *capture_url;  /* captureDomain */
    const char *engage_url;   /* baseurl from mobile_config_and_baseurl, read once */
    const char *flow_version; /* read once */
    const char *provider_token;
    const char *start_path;   /* provider_info.facebook.url */
    char installation_id[33];
    struct browser *browser;
    int native_profile, browser_profile; /* also GET /signin/device for the profile, as libjump does */
};

/* GET /signin/device?token=..&auth_info=true: the Engage profile of a token (what libjump asks for the
 * identifier when it does). */
static void replay_profile(struct replay *r, const char *engage_token) {
    char url[1024];
    char *escaped = curl_easy_escape(NULL, engage_token, 0);
    snprintf(url, sizeof url, "%s/signin/device?token=%s&auth_info=true", r->engage_url, escaped);
    curl_free(escaped);
    json_t *answer = request_json(r->curl, url, NULL);
    json_t *result = json_object_get(answer, "rpx_result");
    const char *stat = json_string_value(json_object_get(result, "stat"));
    json_t *profile = json_object_get(json_object_get(result, "auth_info"), "profile");
    if (stat == NULL || strcmp(stat, "ok") != 0 || !json_is_string(json_object_get(profile, "identifier")))
        die("hand-written /signin/device refused", json_dumps(answer, 0));
    json_decref(answer);
}

/* POST /oauth/auth_native with the parameters libjump sends, the checks libjump makes on the answer. */
static void replay_auth_native(struct replay *r, const char *engage_token) {
    char body[2048] = "", url[512], secret[41];
    random_hex(secret, 20);
    add_parameter(body, sizeof body, "client_id", CLIENT_ID);
    add_parameter(body, sizeof body, "locale", "en-US");
    add_parameter(body, sizeof body, "flow", "standard");
    add_parameter(body, sizeof body, "flow_version", r->flow_version);
    add_parameter(body, sizeof body, "response_type", "token");
    add_parameter(body, sizeof body, "redirect_uri", r->capture_url);
    add_parameter(body, sizeof body, "token", engage_token);
    add_parameter(body, sizeof body, "thin_registration", "false");
    add_parameter(body, sizeof body, "refresh_secret", secret);
    add_parameter(body, sizeof body, "registration_form", "socialRegistrationForm");
    snprintf(url, sizeof url, "%s/oauth/auth_native", r->capture_url);
    json_t *answer = request_json(r->curl, url, body);
    const char *stat = json_string_value(json_object_get(answer, "stat"));
    if (stat == NULL || strcmp(stat, "ok") != 0 || !json_is_string(json_object_get(answer, "access_token")) ||
        !json_is_object(json_object_get(answer, "capture_user")))
        die("hand-written auth_native refused", json_dumps(answer, 0));
    json_decref(answer);
}

/* Native token by hand: /signin/oauth_token then /oauth/auth_native, one connection. */
static void replay_native(struct replay *r) {
    char body[1024] = "", url[512];
    add_parameter(body, sizeof body, "token", r->provider_token);
    add_parameter(body, sizeof body, "provider", PROVIDER);
    snprintf(url, sizeof url, "%s/signin/oauth_token?providername=%s", r->engage_url, PROVIDER);
    json_t *answer = request_json(r->curl, url, body);
    const char *stat = json_string_value(json_object_get(answer, "stat"));
    const char *token = json_string_value(json_object_get(answer, "token"));
    if (stat == NULL || strcmp(stat, "ok") != 0 || token == NULL || token[0] == '\0')
        die("hand-written oauth_token refused", json_dumps(answer, 0));
    if (r->native_profile) replay_profile(r, token);
    replay_auth_native(r, token);
    json_decref(answer);
}

/* Browser sign-in by hand: the start URL libjump builds (token_url carrying the state), the browser steps,
 * the token read from where the provider redirects (not followed: no listener), then auth_native. */
static void replay_browser(struct replay *r) {
    char state[33], token_url[256], url[2048] = "", query[1536] = "", error[1024];
    random_hex(state, 16);
    snprintf(token_url, sizeof token_url, "http://127.0.0.1:9/jump/callback?state=%s", state);
    add_parameter(query, sizeof query, "extended", "true");
    add_parameter(query, sizeof query, "token_url", token_url);
    add_parameter(query, sizeof query, "installation_id", r->installation_id);
    add_parameter(query, sizeof query, "applicationId", ENGAGE_APP);
    add_parameter(query, sizeof query, "state", state);
    snprintf(url, sizeof url, "%s%s?%s", r->engage_url, r->start_path, query);
    char *location = browser_sign_in(r->browser, url, error, sizeof error);
    if (location == NULL) die("hand-written browser sign-in", error);
    char *returned_state = query_parameter(location, "state"), *token = query_parameter(location, "token");
    if (strncmp(location, token_url, strlen("http://127.0.0.1:9/jump/callback")) != 0 || returned_state == NULL ||
        strcmp(returned_state, state) != 0 || token == NULL || token[0] == '\0')
        die("the provider redirected elsewhere", location);
    if (r->browser_profile) replay_profile(r, token);
    replay_auth_native(r, token);
    free(returned_state);
    free(token);
    free(location);
}

/* During the first warm-up round: whether libjump's sign-in asked Engage for the profile. */
static int saw_profile_request;
static void watch_log(void *userdata, const char *json) {
    (void)userdata;
    if (strstr(json, "/signin/device") != NULL) __atomic_store_n(&saw_profile_request, 1, __ATOMIC_SEQ_CST);
}

/* libjump's outcome, checked after the clock stopped: the existing user signed in. */
static void check_outcome(const char *what, jump_status status, char *result, const char *error) {
    if (status != JUMP_OK) die(what, error);
    if (strstr(result, "\"signed_in\"") == NULL) die(what, result);
    jump.string_free(result);
}

static jump_client *jump_client_for(const char *base_url, const char *storage, int thin) {
    json_t *settings = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "captureDomain", base_url,
                                 "captureClientId", CLIENT_ID, "captureAppId", "default-app", "captureFlowName",
                                 "standard", "captureFlowDomain", base_url, "engageAppId", ENGAGE_APP,
                                 "engageDomain", base_url, "storageDirectory", storage);
    if (thin) json_object_set_new(settings, "captureEnableThinRegistration", json_true());
    char *text = json_dumps(settings, JSON_COMPACT);
    jump_config *config = NULL;
    jump_client *client = NULL;
    if (jump.config_from_json(text, &config) != JUMP_OK) die("jump_config_from_json", jump.error_last());
    if (jump.client_new(config, &client) != JUMP_OK) die("jump_client_new", jump.error_last());
    jump.config_free(config);
    free(text);
    json_decref(settings);
    /* "flow and Engage configuration already cached": not the one-time downloads. */
    if (jump.client_load_flow(client) != JUMP_OK) die("jump_client_load_flow", jump.error_last());
    if (jump.client_load_engage_config(client, NULL) != JUMP_OK)
        die("jump_client_load_engage_config", jump.error_last());
    return client;
}

enum variant { NATIVE_DISK, NATIVE_MEMORY, NATIVE_REPLAY, LOOPBACK_MEMORY, LOOPBACK_REPLAY, VARIANTS };

int main(int argc, char **argv) {
    if (argc != 3) die("usage", "bench_social LIBJUMP_SO STATE_DIR");
    const char *base_url = getenv("JUMP_EMULATOR_URL");
    if (base_url == NULL) die("JUMP_EMULATOR_URL", "not set");
    int iterations = getenv("BENCH_SOCIAL_N") ? atoi(getenv("BENCH_SOCIAL_N")) : 100;
    if (iterations < 1) iterations = 1;

    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) die("dlopen", dlerror());
    BENCH_LOAD_JUMP(library);
    if (jump.abi_version() != JUMP_ABI_VERSION) die("libjump", "ABI version mismatch");

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *curl = curl_easy_init();
    char url[512], email[128];
    char *result = NULL;

    /* The provider token: in the emulator, a JSON profile (its identifier follows from the email). */
    snprintf(email, sizeof email, "social.%ld.%ld@example.com", (long)time(NULL), (long)getpid());
    json_t *profile = json_pack("{s:s, s:s}", "email", email, "display_name", "Bench User");
    char *provider_token = json_dumps(profile, JSON_COMPACT);
    json_decref(profile);

    /* The user: one sign-in with thin registration makes it; every timed sign-in then finds it. */
    jump_client *thin = jump_client_for(base_url, ":memory:", 1);
    if (jump.client_social_sign_in_native(thin, PROVIDER, provider_token, NULL, NULL, &result) != JUMP_OK)
        die("thin-registration sign-in", jump.error_last());
    if (strstr(result, "\"registered\"") == NULL) die("thin-registration sign-in did not register", result);
    jump.string_free(result);
    jump.client_free(thin);

    /* The same identity on the fake identity provider's page, for the browser sign-ins. */
    char identity_id[32] = "";
    snprintf(url, sizeof url, "%s/emulator/identities?provider=%s", base_url, PROVIDER);
    json_t *identities = request_json(curl, url, NULL);
    json_t *identity;
    size_t index;
    json_array_foreach(json_object_get(identities, "identities"), index, identity) {
        const char *got = json_string_value(json_object_get(json_object_get(identity, "profile"), "email"));
        if (got != NULL && strcmp(got, email) == 0) {
            json_t *id = json_object_get(identity, "id");
            if (json_is_integer(id))
                snprintf(identity_id, sizeof identity_id, "%lld", (long long)json_integer_value(id));
            else if (json_is_string(id))
                snprintf(identity_id, sizeof identity_id, "%s", json_string_value(id));
        }
    }
    json_decref(identities);
    if (identity_id[0] == '\0') {
        /* Not listed from the native sign-in: make it on the provider (same identifier, same user). */
        char identifier[256], body[512];
        snprintf(identifier, sizeof identifier, "https://%s.example/%s", PROVIDER, email);
        snprintf(body, sizeof body, "{\"provider\":\"%s\",\"email\":\"%s\",\"display_name\":\"Bench User\","
                 "\"identifier\":\"%s\",\"engage_app_id\":\"%s\"}", PROVIDER, email, identifier, ENGAGE_APP);
        snprintf(url, sizeof url, "%s/emulator/identities", base_url);
        json_t *made = admin_post(curl, url, body);
        json_t *id = json_object_get(made, "id");
        if (json_is_integer(id)) snprintf(identity_id, sizeof identity_id, "%lld", (long long)json_integer_value(id));
        else if (json_is_string(id)) snprintf(identity_id, sizeof identity_id, "%s", json_string_value(id));
        else die("POST /emulator/identities", json_dumps(made, 0));
        json_decref(made);
    }

    /* What the hand-written side reads once, as libjump caches it: the flow's version, the Engage base URL
     * and the provider's start path. */
    snprintf(url, sizeof url, "%s/widget_data/flows/default-app/standard/HEAD/en-US.json", base_url);
    json_t *flow = request_json(curl, url, NULL);
    const char *version = json_string_value(json_object_get(flow, "version"));
    if (version == NULL) die("the flow has no string version", NULL);
    snprintf(url, sizeof url, "%s/openid/mobile_config_and_baseurl?appId=%s&device=android", base_url, ENGAGE_APP);
    json_t *engage = request_json(curl, url, NULL);
    const char *baseurl = json_string_value(json_object_get(engage, "baseurl"));
    const char *start_path =
        json_string_value(json_object_get(json_object_get(json_object_get(engage, "provider_info"), PROVIDER), "url"));
    if (baseurl == NULL || start_path == NULL) die("mobile_config_and_baseurl", json_dumps(engage, 0));
    char *engage_url = strdup(baseurl);
    if (engage_url[0] != '\0' && engage_url[strlen(engage_url) - 1] == '/') engage_url[strlen(engage_url) - 1] = '\0';

    struct browser browser = {curl_easy_init(), base_url, identity_id};
    struct replay replay = {curl, base_url, engage_url, version, provider_token, start_path, "", &browser, 0, 0};
    random_hex(replay.installation_id, 8); /* 16 hex digits, as libjump's */
    struct loopback_browser loopback = {&browser, {curl_easy_init(), NULL, 0, 0, 0, 0, 0, ""}, ""};

    jump_client *on_disk = jump_client_for(base_url, argv[2], 0), *in_memory = jump_client_for(base_url, ":memory:", 0);

    const int warmup = 3;
    double *ms[VARIANTS];
    for (int v = 0; v < VARIANTS; v++) ms[v] = calloc((size_t)iterations, sizeof(double));
    double *landing_ms = calloc((size_t)iterations, sizeof(double));
    for (int i = -warmup; i < iterations; i++) { /* i < 0: warm-up (connections, lazy initialisation) */
        for (int k = 0; k < VARIANTS; k++) { /* rotate the order so none always runs first */
            enum variant v = (enum variant)((i + warmup + k) % VARIANTS);
            jump_status status = JUMP_OK;
            result = NULL;
            int watch = i == -warmup && (v == NATIVE_MEMORY || v == LOOPBACK_MEMORY);
            if (watch) {
                __atomic_store_n(&saw_profile_request, 0, __ATOMIC_SEQ_CST);
                jump.set_log_callback(watch_log, NULL, NULL);
            }
            double start = now_ms(), elapsed;
            switch (v) {
            case NATIVE_DISK:
                status = jump.client_social_sign_in_native(on_disk, PROVIDER, provider_token, NULL, NULL, &result);
                break;
            case NATIVE_MEMORY:
                status = jump.client_social_sign_in_native(in_memory, PROVIDER, provider_token, NULL, NULL, &result);
                break;
            case NATIVE_REPLAY: replay_native(&replay); break;
            case LOOPBACK_MEMORY:
                loopback.error[0] = '\0';
                status = jump.client_social_sign_in_loopback(in_memory, PROVIDER, NULL, open_url, &loopback, 20000,
                                                             &result);
                break;
            default: replay_browser(&replay); break;
            }
            elapsed = now_ms() - start;
            if (i >= 0) ms[v][i] = elapsed;
            if (watch) {
                jump.set_log_callback(NULL, NULL, NULL);
                int seen = __atomic_load_n(&saw_profile_request, __ATOMIC_SEQ_CST);
                if (v == NATIVE_MEMORY) replay.native_profile = seen;
                else replay.browser_profile = seen;
            }
            switch (v) {
            case NATIVE_DISK:
            case NATIVE_MEMORY:
                check_outcome("jump_client_social_sign_in_native", status, result, jump.error_last());
                break;
            case LOOPBACK_MEMORY: {
                char error[2048];
                snprintf(error, sizeof error, "%s%s%s", jump.error_last(), loopback.error[0] ? "; browser: " : "",
                         loopback.error);
                if (loopback.landing.started) pthread_join(loopback.landing.thread, NULL);
                loopback.landing.started = 0;
                if (i >= 0) landing_ms[i] = loopback.landing.ms;
                if (status == JUMP_OK && loopback.landing.status != 200) {
                    snprintf(error, sizeof error, "the listener answered the browser HTTP %ld %s",
                             loopback.landing.status, loopback.landing.error);
                    status = JUMP_E_INTERNAL;
                }
                free(loopback.landing.url);
                loopback.landing.url = NULL;
                check_outcome("jump_client_social_sign_in_loopback", status, result, error);
                break;
            }
            default: break;
            }
        }
    }

    double median_ms[VARIANTS];
    for (int v = 0; v < VARIANTS; v++) median_ms[v] = median(ms[v], iterations);
    const char *native_group = "Social sign-in (native token, emulator)";
    const char *native_baseline = replay.native_profile
                                      ? "same 3 requests by hand (+ /signin/device): libcurl + jansson"
                                      : "same 2 POSTs by hand: libcurl + jansson";
    double replayed = median_ms[NATIVE_REPLAY];
    printf("ROW\t%s\tjump_client_social_sign_in_native, session saved to disk\t%.3f\tms\t%s\t%.3f\t%.2f\t%+.3f ms, "
           "N=%d\n", native_group, median_ms[NATIVE_DISK], native_baseline, replayed, median_ms[NATIVE_DISK] / replayed,
           median_ms[NATIVE_DISK] - replayed, iterations);
    printf("ROW\t%s\tjump_client_social_sign_in_native, storageDirectory :memory:\t%.3f\tms\t%s\t%.3f\t%.2f\t%+.3f ms, "
           "N=%d\n", native_group, median_ms[NATIVE_MEMORY], native_baseline, replayed,
           median_ms[NATIVE_MEMORY] / replayed, median_ms[NATIVE_MEMORY] - replayed, iterations);
    replayed = median_ms[LOOPBACK_REPLAY];
    const char *browser_baseline = replay.browser_profile
                                       ? "same IdP steps + /signin/device + POST by hand, no listener"
                                       : "same IdP steps + POST by hand, no listener";
    printf("ROW\tSocial sign-in (loopback browser, emulator)\tjump_client_social_sign_in_loopback, :memory:\t%.3f\tms\t"
           "%s\t%.3f\t%.2f\t%+.3f ms, of which %.3f ms the browser's hop to the listener (thread hand-off + GET), "
           "N=%d\n", median_ms[LOOPBACK_MEMORY], browser_baseline, replayed, median_ms[LOOPBACK_MEMORY] / replayed,
           median_ms[LOOPBACK_MEMORY] - replayed, median(landing_ms, iterations), iterations);

    jump.client_free(on_disk);
    jump.client_free(in_memory);
    json_decref(flow);
    json_decref(engage);
    free(engage_url);
    free(provider_token);
    curl_easy_cleanup(browser.curl);
    curl_easy_cleanup(loopback.landing.curl);
    curl_easy_cleanup(curl);
    for (int v = 0; v < VARIANTS; v++) free(ms[v]);
    free(landing_ms);
    return 0;
}
