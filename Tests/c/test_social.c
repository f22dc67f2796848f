/*
 * test_social.c - social sign-in (Engage) through the C ABI against the emulator: the providers, the browser
 * flow played on the emulator's fake identity provider with libcurl (no browser, no redirect following),
 * two-step and thin registration, completion URLs that do not belong, cancel, native provider tokens, merge
 * (social and traditional), linking and unlinking, Engage-only apps, async variants, bad arguments,
 * sharing and the loopback sign-in.
 */
#include "harness.h"
#include "support.h"

#include <curl/curl.h>
#include <pthread.h>
#include <strings.h>

#define ENGAGE_APP "jump-default-engage"
#define ENGAGE_API_KEY "jump-engage-api-key"

/* ---- small JSON helpers ---------------------------------------------------------------------------------- */

static const char *str_or(json_t *object, const char *key) {
    const char *s = json_str(object, key);
    return s != NULL ? s : "(none)";
}

static int str_is(json_t *object, const char *key, const char *value) {
    const char *s = json_str(object, key);
    return s != NULL && value != NULL && strcmp(s, value) == 0;
}

static int has_prefix(const char *s, const char *prefix) {
    return s != NULL && prefix != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

static char *dup_or_null(const char *s) { return s != NULL ? strdup(s) : NULL; }

/* JSON text for a failure message: a few rotating static buffers, so messages need no freeing. */
static const char *dump(json_t *json) {
    static char buffers[8][4096];
    static int next;
    char *buffer = buffers[next++ % 8];
    char *text = json != NULL ? json_dumps(json, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    snprintf(buffer, sizeof buffers[0], "%s", text != NULL ? text : "(none)");
    free(text);
    return buffer;
}

/* A member of the last error's detail as a string (malloc'd) or NULL. */
static char *last_detail_string(const char *key) {
    json_t *detail = error_detail();
    char *value = dup_or_null(json_str(detail, key));
    json_decref(detail);
    return value;
}

/* 1 when the last error's detail has key == value. */
static int last_detail_is(const char *key, const char *value) {
    char *got = last_detail_string(key);
    int same = got != NULL && strcmp(got, value) == 0;
    free(got);
    return same;
}

/* 1 when a JSON array of objects has an element whose `key` is `value`. */
static int array_has_member(json_t *array, const char *key, const char *value) {
    size_t i;
    for (i = 0; i < json_array_size(array); i++)
        if (str_is(json_array_get(array, i), key, value)) return 1;
    return 0;
}

/* ---- clients --------------------------------------------------------------------------------------------- */

/* The Engage members (the emulator serves Engage on the same address as Capture) plus `more` (JSON object
 * text or NULL), as JSON text (malloc'd). */
static char *social_extra(const char *more) {
    json_t *extra = json_pack("{s:s, s:s}", "engageAppId", ENGAGE_APP, "engageDomain",
                              emu_url() != NULL ? emu_url() : "http://127.0.0.1:9");
    char *text;
    if (more != NULL) {
        json_t *members = json_loads(more, 0, NULL);
        if (!json_is_object(members)) {
            fprintf(stderr, "social_extra: bad members %s\n", more);
            exit(2);
        }
        json_object_update(extra, members);
        json_decref(members);
    }
    text = json_dumps(extra, JSON_COMPACT);
    json_decref(extra);
    return text;
}

/* A Capture + Engage client for the emulator, with its own storage directory. */
#define social_client(more) social_client_at(__FILE__, __LINE__, more)
static jump_client *social_client_at(const char *file, int line, const char *more) {
    char *extra = social_extra(more);
    jump_client *client = new_client_at(file, line, NULL, extra);
    free(extra);
    return client;
}

/* The same in a given storage directory (a restart of the app). */
#define social_client_in(dir, more) social_client_in_at(__FILE__, __LINE__, dir, more)
static jump_client *social_client_in_at(const char *file, int line, const char *dir, const char *more) {
    char *extra = social_extra(more);
    jump_client *client = new_client_at(file, line, dir, extra);
    free(extra);
    return client;
}

#define THIN "{\"captureEnableThinRegistration\":true}"

/* An Engage-only client: no captureDomain at all. */
static jump_client *engage_only_client(const char *more) {
    json_t *config = json_pack("{s:s, s:s, s:s}", "engageAppId", ENGAGE_APP, "engageDomain", emu_url(),
                               "storageDirectory", emu_tmpdir());
    jump_config *cfg = NULL;
    jump_client *client = NULL;
    char *text;
    if (more != NULL) {
        json_t *members = json_loads(more, 0, NULL);
        json_object_update(config, members);
        json_decref(members);
    }
    text = json_dumps(config, JSON_COMPACT);
    json_decref(config);
    if (J.config_from_json(text, &cfg) == JUMP_OK) {
        if (J.client_new(cfg, &client) != JUMP_OK) client = NULL;
        J.config_free(cfg);
    }
    if (client == NULL) printf("    could not make an Engage-only client from %s: %s\n", text, J.error_last());
    free(text);
    return client;
}

/* ---- HTTP as a browser does it (no redirect following) --------------------------------------------------- */

typedef struct http_reply {
    long status;
    char *location; /* the Location header, or NULL */
    char *body;     /* never NULL after http_raw */
} http_reply;

typedef struct grow {
    char *data;
    size_t size;
} grow;

static size_t grow_body(char *ptr, size_t size, size_t nmemb, void *userdata) {
    grow *g = userdata;
    size_t n = size * nmemb;
    char *bigger = realloc(g->data, g->size + n + 1);
    if (bigger == NULL) return 0;
    g->data = bigger;
    memcpy(g->data + g->size, ptr, n);
    g->size += n;
    g->data[g->size] = '\0';
    return n;
}

static size_t grab_location(char *buffer, size_t size, size_t nitems, void *userdata) {
    http_reply *reply = userdata;
    size_t n = size * nitems, end = n;
    if (n > 9 && strncasecmp(buffer, "Location:", 9) == 0) {
        size_t start = 9;
        while (start < n && (buffer[start] == ' ' || buffer[start] == '\t')) start++;
        while (end > start && (buffer[end - 1] == '\r' || buffer[end - 1] == '\n' || buffer[end - 1] == ' ')) end--;
        free(reply->location);
        reply->location = malloc(end - start + 1);
        if (reply->location != NULL) {
            memcpy(reply->location, buffer + start, end - start);
            reply->location[end - start] = '\0';
        }
    }
    return n;
}

/* One request; form_body (x-www-form-urlencoded) makes it a POST. Returns 0 when an answer came. */
static int http_raw(const char *method, const char *url, const char *form_body, http_reply *reply) {
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = NULL;
    grow body = {NULL, 0};
    CURLcode rc;
    memset(reply, 0, sizeof *reply);
    if (curl == NULL) return -1;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 20000L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, grow_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, grab_location);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, reply);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "Mozilla/5.0 (libjump test browser)");
    if (form_body != NULL) {
        headers = curl_slist_append(headers, "Content-Type: application/x-www-form-urlencoded");
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, form_body);
    }
    rc = curl_easy_perform(curl);
    if (rc == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply->status);
    if (rc != CURLE_OK) printf("    browser: %s %s failed: %s\n", method, url, curl_easy_strerror(rc));
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    reply->body = body.data != NULL ? body.data : calloc(1, 1);
    return rc == CURLE_OK ? 0 : -1;
}

static void http_reply_free(http_reply *reply) {
    free(reply->location);
    free(reply->body);
    memset(reply, 0, sizeof *reply);
}

/* The decoded value of query parameter `name` of url (malloc'd) or NULL. */
static char *query_param(const char *url, const char *name) {
    const char *q = url != NULL ? strchr(url, '?') : NULL;
    size_t n = strlen(name);
    if (q == NULL) return NULL;
    q++;
    while (*q != '\0' && *q != '#') {
        const char *end = q;
        while (*end != '\0' && *end != '&' && *end != '#') end++;
        if ((size_t)(end - q) > n && strncmp(q, name, n) == 0 && q[n] == '=') {
            int length = 0;
            char *raw = strndup(q + n + 1, (size_t)(end - q - (ptrdiff_t)n - 1)), *decoded, *copy, *p;
            for (p = raw; *p != '\0'; p++)
                if (*p == '+') *p = ' ';
            decoded = curl_easy_unescape(NULL, raw, 0, &length);
            copy = decoded != NULL ? strdup(decoded) : NULL;
            curl_free(decoded);
            free(raw);
            return copy;
        }
        q = *end == '&' ? end + 1 : end;
    }
    return NULL;
}

/* url with query parameter `name`'s value replaced by `value` (already URL-safe) (malloc'd). */
static char *with_param(const char *url, const char *name, const char *value) {
    char pattern[64];
    const char *at, *end;
    char *out;
    snprintf(pattern, sizeof pattern, "%s=", name);
    at = strstr(url, pattern);
    while (at != NULL && at != url && at[-1] != '?' && at[-1] != '&') at = strstr(at + 1, pattern);
    if (at == NULL) return strdup(url);
    at += strlen(pattern);
    end = at;
    while (*end != '\0' && *end != '&' && *end != '#') end++;
    out = malloc(strlen(url) + strlen(value) + 1);
    memcpy(out, url, (size_t)(at - url));
    strcpy(out + (at - url), value);
    strcat(out, end);
    return out;
}

/* ---- the fake identity provider's page ------------------------------------------------------------------- */

/* HTML text -> plain text (the five named entities and numeric references), malloc'd. */
static char *html_unescape(const char *s, size_t n) {
    char *out = malloc(n * 4 + 1), *o = out;
    size_t i = 0;
    while (i < n) {
        if (s[i] == '&') {
            const char *semi = memchr(s + i, ';', n - i);
            size_t len = semi != NULL ? (size_t)(semi - (s + i)) + 1 : 0;
            unsigned long code = 0;
            int known = 1;
            if (len == 5 && strncmp(s + i, "&amp;", 5) == 0) code = '&';
            else if (len == 4 && strncmp(s + i, "&lt;", 4) == 0) code = '<';
            else if (len == 4 && strncmp(s + i, "&gt;", 4) == 0) code = '>';
            else if (len == 6 && strncmp(s + i, "&quot;", 6) == 0) code = '"';
            else if (len == 6 && strncmp(s + i, "&apos;", 6) == 0) code = '\'';
            else if (len > 3 && s[i + 1] == '#' && (s[i + 2] == 'x' || s[i + 2] == 'X')) code = strtoul(s + i + 3, NULL, 16);
            else if (len > 2 && s[i + 1] == '#') code = strtoul(s + i + 2, NULL, 10);
            else known = 0;
            if (known && code > 0) {
                if (code < 0x80) {
                    *o++ = (char)code;
                } else if (code < 0x800) {
                    *o++ = (char)(0xC0 | (code >> 6));
                    *o++ = (char)(0x80 | (code & 0x3F));
                } else if (code < 0x10000) {
                    *o++ = (char)(0xE0 | (code >> 12));
                    *o++ = (char)(0x80 | ((code >> 6) & 0x3F));
                    *o++ = (char)(0x80 | (code & 0x3F));
                } else {
                    *o++ = (char)(0xF0 | (code >> 18));
                    *o++ = (char)(0x80 | ((code >> 12) & 0x3F));
                    *o++ = (char)(0x80 | ((code >> 6) & 0x3F));
                    *o++ = (char)(0x80 | (code & 0x3F));
                }
                i += len;
                continue;
            }
        }
        *o++ = s[i++];
    }
    *o = '\0';
    return out;
}

/* The attribute `name` of the tag starting at `tag` ('<'), unescaped (malloc'd), or NULL. */
static char *tag_attr(const char *tag, const char *name) {
    const char *end = strchr(tag, '>'), *p;
    size_t n = strlen(name);
    if (end == NULL) return NULL;
    for (p = tag + 1; p + n < end; p++) {
        if ((p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r') && strncasecmp(p, name, n) == 0 &&
            p[n] == '=') {
            const char *v = p + n + 1, *v_end;
            if (*v == '"' || *v == '\'') {
                char quote = *v++;
                v_end = memchr(v, quote, (size_t)(end - v));
                if (v_end == NULL) return NULL;
            } else {
                v_end = v;
                while (v_end < end && *v_end != ' ' && *v_end != '\t' && *v_end != '\n' && *v_end != '/') v_end++;
            }
            return html_unescape(v, (size_t)(v_end - v));
        }
    }
    /* A bare attribute (<input disabled>) or none. */
    return NULL;
}

/* The first <tagname ...> of html whose attribute attr equals value. */
static const char *find_tag(const char *html, const char *tagname, const char *attr, const char *value) {
    char open[32];
    const char *p = html;
    snprintf(open, sizeof open, "<%s", tagname);
    while ((p = strstr(p, open)) != NULL) {
        char next = p[strlen(open)];
        if (next == ' ' || next == '\t' || next == '\n' || next == '>') {
            char *got = tag_attr(p, attr);
            int match = got != NULL && strcmp(got, value) == 0;
            free(got);
            if (match) return p;
        }
        p += strlen(open);
    }
    return NULL;
}

/* Appends name=value (URL-encoded) to *body. */
static void form_add(char **body, const char *name, const char *value) {
    char *n = curl_easy_escape(NULL, name, 0), *v = curl_easy_escape(NULL, value != NULL ? value : "", 0);
    size_t used = *body != NULL ? strlen(*body) : 0;
    char *bigger = realloc(*body, used + strlen(n) + strlen(v) + 3);
    if (bigger != NULL) {
        sprintf(bigger + used, "%s%s=%s", used ? "&" : "", n, v);
        *body = bigger;
    }
    curl_free(n);
    curl_free(v);
}

/* What a browser submits when the button (whose attr is value) is pressed: the button's form, its inputs
 * (overrides: NULL-terminated name/value pairs replacing input values), and the button's own name=value.
 * Returns the body (malloc'd) and the form's action through *action; NULL when the page has no such button. */
static char *form_submission(const char *html, const char *attr, const char *value, const char *const *overrides,
                             char **action) {
    const char *button = find_tag(html, "button", attr, value), *form = NULL, *p, *form_end;
    char *body = NULL, *name, *button_value;
    *action = NULL;
    if (button == NULL) {
        /* <input type="submit" ...> is a button too. */
        button = find_tag(html, "input", attr, value);
        if (button == NULL) return NULL;
    }
    for (p = strstr(html, "<form"); p != NULL && p < button; p = strstr(p + 5, "<form")) form = p;
    if (form == NULL) return NULL;
    form_end = strstr(button, "</form>");
    if (form_end == NULL) form_end = button + strlen(button);
    *action = tag_attr(form, "action");
    body = calloc(1, 1);
    for (p = strstr(form, "<input"); p != NULL && p < form_end; p = strstr(p + 6, "<input")) {
        char *type = tag_attr(p, "type");
        char *input_name = tag_attr(p, "name");
        char *input_value = tag_attr(p, "value");
        int skip = input_name == NULL || input_name[0] == '\0' || p == button ||
                   (type != NULL && (strcasecmp(type, "submit") == 0 || strcasecmp(type, "button") == 0));
        if (!skip) {
            const char *chosen = input_value != NULL ? input_value : "";
            size_t i;
            for (i = 0; overrides != NULL && overrides[i] != NULL && overrides[i + 1] != NULL; i += 2)
                if (strcmp(overrides[i], input_name) == 0) chosen = overrides[i + 1];
            form_add(&body, input_name, chosen);
        }
        free(type);
        free(input_name);
        free(input_value);
    }
    name = tag_attr(button, "name");
    button_value = tag_attr(button, "value");
    if (name != NULL && name[0] != '\0') form_add(&body, name, button_value != NULL ? button_value : "");
    free(name);
    free(button_value);
    return body;
}

/* The emulator base URL + path, or url when it is absolute (malloc'd). */
static char *absolute(const char *url_or_path) {
    char *out;
    if (has_prefix(url_or_path, "http://") || has_prefix(url_or_path, "https://")) return strdup(url_or_path);
    out = malloc(strlen(emu_url()) + strlen(url_or_path) + 1);
    sprintf(out, "%s%s", emu_url(), url_or_path);
    return out;
}

/* Plays the browser on the fake identity provider: GETs start_url (no redirect following); when the provider
 * shows its page, presses the button whose attr is value (overrides fill the form's inputs) and returns the
 * URL the provider then sends the browser to (malloc'd). When the start itself redirects, that URL. NULL
 * (and a failure) otherwise. *page_out (may be NULL) receives the page HTML (malloc'd). */
#define idp_press(url, attr, value, overrides, page) idp_press_at(__FILE__, __LINE__, url, attr, value, overrides, page)
static char *idp_press_at(const char *file, int line, const char *start_url, const char *attr, const char *value,
                          const char *const *overrides, char **page_out) {
    http_reply page, answer;
    char *body, *action = NULL, *target, *location;
    if (page_out != NULL) *page_out = NULL;
    if (http_raw("GET", start_url, NULL, &page) != 0) {
        harness_fail_plain(file, line, "the provider start page could not be fetched: %s", start_url);
        http_reply_free(&page);
        return NULL;
    }
    if (page.status >= 300 && page.status < 400 && page.location != NULL) {
        location = strdup(page.location);
        http_reply_free(&page);
        return location;
    }
    if (page.status != 200) {
        harness_fail_plain(file, line, "GET %s -> HTTP %ld: %.300s", start_url, page.status, page.body);
        http_reply_free(&page);
        return NULL;
    }
    body = form_submission(page.body, attr, value, overrides, &action);
    if (body == NULL || action == NULL) {
        harness_fail_plain(file, line, "the provider page has no form with a button %s=\"%s\":\n%.2000s", attr, value,
                           page.body);
        free(body);
        free(action);
        http_reply_free(&page);
        return NULL;
    }
    if (page_out != NULL) *page_out = strdup(page.body);
    http_reply_free(&page);
    target = absolute(action);
    free(action);
    if (http_raw("POST", target, body, &answer) != 0 || answer.status < 300 || answer.status >= 400 ||
        answer.location == NULL) {
        harness_fail_plain(file, line, "POST %s (%s) -> HTTP %ld (Location %s): %.300s", target, body, answer.status,
                           answer.location ? answer.location : "none", answer.body ? answer.body : "");
        free(target);
        free(body);
        http_reply_free(&answer);
        return NULL;
    }
    free(target);
    free(body);
    location = strdup(answer.location);
    http_reply_free(&answer);
    return location;
}

/* Creating a new identity on the page: the "create-identity" button with the name and email typed in. */
#define idp_create(url, name, email, page) idp_create_at(__FILE__, __LINE__, url, name, email, page)
static char *idp_create_at(const char *file, int line, const char *url, const char *name, const char *email,
                           char **page) {
    const char *fields[] = {"display_name", name, "email", email, NULL, NULL};
    return idp_press_at(file, line, url, "id", "create-identity", fields, page);
}

/* ---- test identities --------------------------------------------------------------------------------------- */

typedef struct identity {
    char id[128];
    char identifier[512];
} identity;

/* POST /emulator/identities; 0 on success. */
static int create_identity(const char *provider, const char *display_name, const char *email, identity *out) {
    json_t *body = json_pack("{s:s, s:s, s:s}", "provider", provider, "display_name", display_name, "email", email);
    char *text = json_dumps(body, JSON_COMPACT);
    long code = 0;
    json_t *reply = emu_call("POST", "/emulator/identities", text, &code), *id;
    int ok = 0;
    free(text);
    json_decref(body);
    memset(out, 0, sizeof *out);
    id = json_object_get(reply, "id");
    if (code >= 200 && code < 300 && json_str(reply, "identifier") != NULL && id != NULL) {
        if (json_is_string(id))
            snprintf(out->id, sizeof out->id, "%s", json_string_value(id));
        else if (json_is_integer(id))
            snprintf(out->id, sizeof out->id, "%lld", (long long)json_integer_value(id));
        snprintf(out->identifier, sizeof out->identifier, "%s", json_str(reply, "identifier"));
        ok = out->id[0] != '\0';
    }
    if (!ok) printf("    POST /emulator/identities -> HTTP %ld\n", code);
    json_decref(reply);
    return ok ? 0 : -1;
}

/* ---- social calls ------------------------------------------------------------------------------------------ */

/* jump_client_social_begin -> its JSON (new reference) or NULL (with a failure). */
#define begin(c, provider, options) begin_at(__FILE__, __LINE__, c, provider, options)
static json_t *begin_at(const char *file, int line, jump_client *client, const char *provider, const char *options) {
    char *out = NULL;
    jump_status status = J.client_social_begin(client, provider, options, &out);
    json_t *begun;
    if (status != JUMP_OK) {
        harness_fail(file, line, "jump_client_social_begin(%s, %s) returned %d", provider, options ? options : "NULL",
                     (int)status);
        return NULL;
    }
    begun = take_json(out);
    if (json_str(begun, "url") == NULL || json_str(begun, "state") == NULL) {
        harness_fail_plain(file, line, "the begin answer lacks url or state");
        json_decref(begun);
        return NULL;
    }
    return begun;
}

/* Begins and signs in on the page with an existing identity (its id) -> the completion URL (malloc'd). */
#define browser_existing(c, provider, options, ident)                                                      \
    browser_existing_at(__FILE__, __LINE__, c, provider, options, ident)
static char *browser_existing_at(const char *file, int line, jump_client *client, const char *provider,
                                 const char *options, const identity *ident) {
    json_t *begun = begin_at(file, line, client, provider, options);
    char *location;
    if (begun == NULL) return NULL;
    location = idp_press_at(file, line, json_str(begun, "url"), "value", ident->id, NULL, NULL);
    json_decref(begun);
    return location;
}

/* Begins and creates a new identity on the page -> the completion URL (malloc'd). */
#define browser_new(c, provider, options, name, email) browser_new_at(__FILE__, __LINE__, c, provider, options, name, email)
static char *browser_new_at(const char *file, int line, jump_client *client, const char *provider,
                            const char *options, const char *name, const char *email) {
    json_t *begun = begin_at(file, line, client, provider, options);
    char *location;
    if (begun == NULL) return NULL;
    location = idp_create_at(file, line, json_str(begun, "url"), name, email, NULL);
    json_decref(begun);
    return location;
}

/* jump_client_social_complete -> (status, result JSON or NULL). */
static jump_status complete(jump_client *client, const char *url, json_t **result) {
    char *out = NULL;
    jump_status status = J.client_social_complete(client, url, &out);
    *result = status == JUMP_OK ? take_json(out) : NULL;
    if (status != JUMP_OK && out != NULL) J.string_free(out);
    return status;
}

static jump_status native(jump_client *client, const char *provider, const char *token, const char *secret,
                          const char *options, json_t **result) {
    char *out = NULL;
    jump_status status = J.client_social_sign_in_native(client, provider, token, secret, options, &out);
    *result = status == JUMP_OK ? take_json(out) : NULL;
    if (status != JUMP_OK && out != NULL) J.string_free(out);
    return status;
}

/* The provider token the emulator's /signin/oauth_token takes: a JSON profile (malloc'd). */
static char *profile_token(const char *display_name, const char *email) {
    json_t *token = json_pack("{s:s, s:s}", "display_name", display_name, "email", email);
    char *text = json_dumps(token, JSON_COMPACT);
    json_decref(token);
    return text;
}

static char *identifier_token(const char *identifier) {
    json_t *token = json_pack("{s:s}", "identifier", identifier);
    char *text = json_dumps(token, JSON_COMPACT);
    json_decref(token);
    return text;
}

/* jump_client_linked_profiles (new reference) or NULL. */
static json_t *linked(jump_client *client) {
    char *out = NULL;
    if (J.client_linked_profiles(client, &out) != JUMP_OK) return NULL;
    return take_json(out);
}

/* 1 when the client's record view has a /profiles element with this identifier. */
static int record_has_identity(jump_client *client, const char *identifier) {
    jump_record *record = NULL;
    char *text = NULL;
    json_t *profiles;
    int found;
    if (J.client_record(client, &record) != JUMP_OK) return 0;
    if (J.record_get(record, "/profiles", &text) != JUMP_OK) {
        J.record_free(record);
        return 0;
    }
    profiles = take_json(text);
    found = array_has_member(profiles, "identifier", identifier);
    json_decref(profiles);
    J.record_free(record);
    return found;
}

/* 1 when the emulator's copy of the user mentions the identifier (its profiles). */
static int server_user_has_identity(const char *uuid, const char *identifier) {
    json_t *user = emu_get_user(uuid, NULL);
    char *text = user != NULL ? json_dumps(user, JSON_COMPACT) : NULL;
    json_t *escaped = json_string(identifier);
    char *needle = json_dumps(escaped, JSON_ENCODE_ANY);
    int found = text != NULL && needle != NULL && strstr(text, needle) != NULL;
    free(text);
    free(needle);
    json_decref(escaped);
    json_decref(user);
    return found;
}

static char *state_text(jump_client *client) {
    char *out = NULL, *copy;
    if (J.client_state(client, &out) != JUMP_OK) return strdup("(no state)");
    copy = strdup(out);
    J.string_free(out);
    return copy;
}

/* POST /emulator/merge_conflict (new reference) or NULL. */
static json_t *merge_conflict(const char *email, const char *existing_provider, const char *provider) {
    json_t *body = json_pack("{s:s, s:s, s:s}", "email", email, "existing_provider", existing_provider, "provider",
                             provider);
    char *text = json_dumps(body, JSON_COMPACT);
    long code = 0;
    json_t *reply = emu_call("POST", "/emulator/merge_conflict", text, &code);
    free(text);
    json_decref(body);
    if (code < 200 || code >= 300 || !json_is_object(reply)) {
        json_decref(reply);
        return NULL;
    }
    return reply;
}

/* ---- providers ------------------------------------------------------------------------------------------- */

#define CUSTOM_PROVIDERS                                                                                   \
    "{\"engageCustomProviders\":{"                                                                         \
    "\"acme\":{\"friendly_name\":\"Acme ID\",\"openid_identifier\":\"https://openid.acme.example/%@\","   \
    "\"opx_blob\":\"blob-1\"},"                                                                            \
    "\"corp\":{\"friendly_name\":\"Corp SSO\",\"saml_provider\":\"corp-idp\"}}}"

TEST(providers_in_server_order_with_custom_providers_last) {
    static const char *const server_order[] = {"facebook", "google", "twitter", "linkedin", "openid", "yahoo"};
    jump_client *client;
    char *out = NULL;
    json_t *loaded, *providers, *sign_in, *sharing, *entry;
    size_t i;
    REQUIRE_EMULATOR();
    client = social_client(CUSTOM_PROVIDERS);
    REQUIRE(client != NULL);

    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_false(json_object_get(loaded, "from_cache")), "first load from_cache should be false");
    json_decref(loaded);
    /* Fetched again with If-None-Match: nothing changed. */
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_false(json_object_get(loaded, "changed")), "an unchanged configuration reported changed");
    json_decref(loaded);

    REQUIRE_OK(J.client_providers(client, &out));
    providers = take_json(out);
    sign_in = json_object_get(providers, "sign_in");
    sharing = json_object_get(providers, "sharing");
    REQUIRE_MSG(json_array_size(sign_in) == 8, "sign_in has %zu providers, expected 6 + 2 custom",
                json_array_size(sign_in));
    for (i = 0; i < 6; i++) {
        entry = json_array_get(sign_in, i);
        CHECK_MSG(str_is(entry, "name", server_order[i]), "sign_in[%zu] is %s, expected %s", i, str_or(entry, "name"),
                  server_order[i]);
        CHECK_MSG(json_is_null(json_object_get(entry, "custom")), "server provider %s marked custom",
                  str_or(entry, "name"));
        CHECK_MSG(json_str(entry, "friendly_name") != NULL, "provider %s has no friendly_name", str_or(entry, "name"));
    }
    entry = json_array_get(sign_in, 4); /* openid */
    CHECK(json_is_true(json_object_get(entry, "requires_input")));
    CHECK_MSG(str_is(entry, "input_prompt", "Enter your OpenID URL"), "openid input_prompt %s", str_or(entry, "input_prompt"));
    CHECK(json_is_false(json_object_get(json_array_get(sign_in, 0), "requires_input")));
    /* The custom ones come last. */
    entry = json_array_get(sign_in, 6);
    CHECK_MSG(str_is(entry, "name", "acme") && str_is(entry, "custom", "openid") &&
                  json_is_true(json_object_get(entry, "requires_input")) && str_is(entry, "friendly_name", "Acme ID"),
              "sign_in[6] is %s", dump(entry));
    entry = json_array_get(sign_in, 7);
    CHECK_MSG(str_is(entry, "name", "corp") && str_is(entry, "custom", "saml") &&
                  json_is_false(json_object_get(entry, "requires_input")),
              "sign_in[7] is %s", dump(entry));

    REQUIRE_MSG(json_array_size(sharing) == 3, "sharing has %zu providers", json_array_size(sharing));
    CHECK(str_is(json_array_get(sharing, 0), "name", "facebook"));
    CHECK(str_is(json_array_get(sharing, 1), "name", "twitter"));
    CHECK(str_is(json_array_get(sharing, 2), "name", "linkedin"));
    entry = json_object_get(json_array_get(sharing, 1), "properties");
    CHECK_MSG(json_object_get(entry, "uses_set_status_if_no_url") != NULL,
              "twitter's sharing properties lack uses_set_status_if_no_url");
    CHECK(json_is_boolean(json_object_get(providers, "hide_tagline")));
    json_decref(providers);
    J.client_free(client);
}

TEST(begin_urls_substitute_the_input_and_name_the_saml_provider) {
    jump_client *client;
    json_t *begun, *detail;
    char *value, *prefix, *messages;
    char *out = (char *)"sentinel";
    REQUIRE_EMULATOR();
    client = social_client(CUSTOM_PROVIDERS);
    REQUIRE(client != NULL);
    prefix = absolute("/signin/device");

    begun = begin(client, "acme", "{\"input\":\"ann\"}");
    REQUIRE(begun != NULL);
    CHECK_MSG(has_prefix(json_str(begun, "url"), emu_url()) && strstr(json_str(begun, "url"), "/openid/start?") != NULL,
              "acme starts at %s", str_or(begun, "url"));
    value = query_param(json_str(begun, "url"), "openid_identifier");
    CHECK_MSG(value != NULL && strcmp(value, "https://openid.acme.example/ann") == 0, "openid_identifier %s",
              value ? value : "(none)");
    free(value);
    value = query_param(json_str(begun, "url"), "opx_blob");
    CHECK_MSG(value != NULL && strcmp(value, "blob-1") == 0, "opx_blob %s", value ? value : "(none)");
    free(value);
    value = query_param(json_str(begun, "url"), "state");
    CHECK_MSG(value != NULL && strcmp(value, str_or(begun, "state")) == 0, "state in the URL %s vs %s",
              value ? value : "(none)", str_or(begun, "state"));
    free(value);
    value = query_param(json_str(begun, "url"), "applicationId");
    CHECK_MSG(value != NULL && strcmp(value, ENGAGE_APP) == 0, "applicationId %s", value ? value : "(none)");
    free(value);
    CHECK(str_is(begun, "completion", "device"));
    CHECK_MSG(str_is(begun, "completion_prefix", prefix), "completion_prefix %s, expected %s",
              str_or(begun, "completion_prefix"), prefix);
    json_decref(begun);

    begun = begin(client, "corp", NULL);
    REQUIRE(begun != NULL);
    CHECK_MSG(strstr(str_or(begun, "url"), "/saml2/sso/start?") != NULL, "corp starts at %s", str_or(begun, "url"));
    value = query_param(json_str(begun, "url"), "saml_provider");
    CHECK_MSG(value != NULL && strcmp(value, "corp-idp") == 0, "saml_provider %s", value ? value : "(none)");
    free(value);
    value = query_param(json_str(begun, "url"), "openid_identifier");
    CHECK_MSG(value == NULL, "a SAML start carries openid_identifier %s", value);
    free(value);
    json_decref(begun);

    /* force_reauth reaches the provider. */
    begun = begin(client, "google", "{\"force_reauth\":true}");
    REQUIRE(begun != NULL);
    value = query_param(json_str(begun, "url"), "force_reauth");
    CHECK_MSG(value != NULL && strcmp(value, "true") == 0, "force_reauth %s", value ? value : "(none)");
    free(value);
    json_decref(begun);

    /* A requires_input provider without input. */
    CHECK_STATUS(J.client_social_begin(client, "openid", NULL, &out), JUMP_E_VALIDATION);
    CHECK(out == NULL);
    detail = invalid_field("input");
    messages = detail != NULL ? json_dumps(detail, JSON_ENCODE_ANY) : NULL;
    CHECK_MSG(non_empty_string_array(detail), "invalid_fields.input %s", messages ? messages : "(none)");
    free(messages);
    json_decref(detail);
    CHECK_STATUS(J.client_social_begin(client, "acme", "{\"input\":\"\"}", &out), JUMP_E_VALIDATION);
    CHECK(non_empty_string_array(invalid_field("input")));
    /* A provider the app does not have. */
    CHECK_STATUS(J.client_social_begin(client, "myspace", NULL, &out), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_detail_is("argument", "provider"));
    free(prefix);
    J.client_free(client);
}

TEST(custom_openid_and_saml_providers_sign_in_end_to_end) {
    jump_client *client;
    json_t *begun, *result = NULL;
    char *email = unique_email("acme"), *location, *page = NULL;
    REQUIRE_EMULATOR();
    {
        /* CUSTOM_PROVIDERS with thin registration added. */
        char *more = strdup(CUSTOM_PROVIDERS);
        more[strlen(more) - 1] = '\0';
        more = realloc(more, strlen(more) + 64);
        strcat(more, ",\"captureEnableThinRegistration\":true}");
        client = social_client(more);
        free(more);
    }
    REQUIRE(client != NULL);

    begun = begin(client, "acme", "{\"input\":\"ann\"}");
    REQUIRE(begun != NULL);
    location = idp_create(json_str(begun, "url"), "Ann Acme", email, &page);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_MSG(page != NULL && strstr(page, "jump-emulator") != NULL, "the provider page is not the emulator's");
    free(page);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    /* The OpenID identifier is what the user's input made of the app's template. */
    CHECK_MSG(str_is(result, "identifier", "https://openid.acme.example/ann"), "identifier %s",
              str_or(result, "identifier"));
    CHECK(record_has_identity(client, "https://openid.acme.example/ann"));
    json_decref(result);
    free(location);
    CHECK_OK(J.client_sign_out(client));

    free(email);
    email = unique_email("corp");
    begun = begin(client, "corp", NULL);
    REQUIRE(begun != NULL);
    location = idp_create(json_str(begun, "url"), "Cora Corp", email, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    CHECK_MSG(has_prefix(json_str(result, "identifier"), "saml:corp-idp:"), "SAML identifier %s",
              str_or(result, "identifier"));
    json_decref(result);
    free(location);
    free(email);
    J.client_free(client);
}

TEST(engage_config_is_cached_and_refetched_by_etag) {
    const char *dir;
    jump_client *client;
    char *out = NULL;
    json_t *loaded, *providers;
    REQUIRE_EMULATOR();
    dir = emu_tmpdir();
    client = social_client_in(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(loaded, "changed")) && json_is_false(json_object_get(loaded, "from_cache")),
              "first load %s", dump(loaded));
    json_decref(loaded);
    J.client_free(client);

    /* The next start cannot reach the configuration: the cached copy serves. */
    REQUIRE(emu_fault("http_500", 10, "/openid/mobile_config_and_baseurl", 0) == 0);
    client = social_client_in(dir, NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(loaded, "from_cache")), "offline load %s", dump(loaded));
    json_decref(loaded);
    REQUIRE_OK(J.client_providers(client, &out));
    providers = take_json(out);
    CHECK_EQ_INT(json_array_size(json_object_get(providers, "sign_in")), 6);
    json_decref(providers);
    emu_clear_faults();
    /* Without a cache and without the server there is nothing to go on. */
    {
        jump_client *fresh = social_client(NULL);
        REQUIRE(fresh != NULL);
        REQUIRE(emu_fault("http_500", 10, "/openid/mobile_config_and_baseurl", 0) == 0);
        CHECK(J.client_providers(fresh, &out) != JUMP_OK);
        CHECK(out == NULL);
        emu_clear_faults();
        J.client_free(fresh);
    }

    /* The app's providers change on the server: a new ETag, so the next load sees it. */
    emu_clear_counters();
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    J.string_free(out);
    json_decref(emu_call("POST", "/emulator/engage_apps",
                         "{\"engage_app_id\":\"" ENGAGE_APP "\",\"api_key\":\"" ENGAGE_API_KEY "\","
                         "\"providers\":[\"yahoo\",\"google\"],\"sharing_providers\":[\"twitter\"]}",
                         NULL));
    REQUIRE_OK(J.client_load_engage_config(client, &out));
    loaded = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(loaded, "changed")), "after the app changed: %s",
              dump(loaded));
    json_decref(loaded);
    REQUIRE_OK(J.client_providers(client, &out));
    providers = take_json(out);
    CHECK_MSG(json_array_size(json_object_get(providers, "sign_in")) == 2 &&
                  str_is(json_array_get(json_object_get(providers, "sign_in"), 0), "name", "yahoo") &&
                  str_is(json_array_get(json_object_get(providers, "sign_in"), 1), "name", "google") &&
                  json_array_size(json_object_get(providers, "sharing")) == 1,
              "providers after the change: %s", dump(providers));
    json_decref(providers);
    /* And a provider the app dropped can no longer be started. */
    CHECK_STATUS(J.client_social_begin(client, "facebook", NULL, &out), JUMP_E_INVALID_ARGUMENT);
    J.client_free(client);
}

/* Presses the page's first existing-identity button. */
static char *browser_existing_by_name(const char *url) {
    return idp_press(url, "name", "identity_id", NULL, NULL);
}

TEST(pending_sign_ins_are_capped_at_sixteen) {
    jump_client *client;
    json_t *first, *begun, *result = NULL;
    char options[200], *location, *email = unique_email("cap");
    int i;
    REQUIRE_EMULATOR();
    /* Redirect endings carry the state (inside token_url), so many can be pending at once. */
    snprintf(options, sizeof options, "{\"redirect_uri\":\"http://127.0.0.1:%d/app/done\"}", emu_closed_port());
    client = social_client(THIN);
    REQUIRE(client != NULL);
    first = begin(client, "google", options);
    REQUIRE(first != NULL);
    sleep_ms(1100); /* the first one is strictly the oldest (begin times are kept in seconds) */
    for (i = 0; i < 16; i++) {
        begun = begin(client, "google", options);
        REQUIRE(begun != NULL);
        if (i < 15) json_decref(begun);
    }
    /* The first sign-in was pushed out by the 17th: its completion no longer belongs. */
    location = idp_create(json_str(first, "url"), "Ca P", email, NULL);
    REQUIRE(location != NULL);
    CHECK_STATUS(complete(client, location, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_detail_is("reason", "unknown_state"));
    free(location);
    /* The newest one completes. */
    location = browser_existing_by_name(json_str(begun, "url"));
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_OK(complete(client, location, &result));
    CHECK(str_is(result, "outcome", "registered")); /* the refused completion made no account */
    json_decref(result);
    free(location);
    json_decref(first);
    free(email);
    J.client_free(client);
}

/* Engage's /signin/device ending carries no state: the client binds it to its one pending "device" sign-in,
 * and a sign-in begun again (the user closed the first tab) takes the place of the one before. */
TEST(device_ending_without_state_completes_the_newest_device_sign_in) {
    jump_client *client;
    json_t *abandoned, *retried, *result = NULL;
    char *location, *state, *email = unique_email("retry");
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    abandoned = begin(client, "google", NULL);
    retried = begin(client, "google", NULL);
    REQUIRE(abandoned != NULL && retried != NULL);
    CHECK(str_is(retried, "completion", "device"));
    location = idp_create(json_str(retried, "url"), "Re Try", email, NULL);
    REQUIRE(location != NULL);
    state = query_param(location, "state");
    CHECK_MSG(state == NULL, "the emulator echoed the state (Engage does not): %s", location);
    free(state);
    CHECK_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    json_decref(result);
    result = NULL;
    /* Used once; the abandoned sign-in was replaced, so nothing is left for a second ending. */
    CHECK_STATUS(complete(client, location, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_detail_is("reason", "unknown_state"));
    free(location);
    json_decref(abandoned);
    json_decref(retried);
    free(email);
    J.client_free(client);
}

/* Collects log lines (jump_set_log_callback) while it is installed. */
static recorder log_lines;

TEST(social_secrets_stay_out_of_logs_messages_and_events) {
    jump_client *client, *engage_only;
    recorder events;
    json_t *conflict = NULL, *detail, *result = NULL;
    char *email = unique_email("secret"), *merge_token = NULL, *registration_token = NULL, *token;
    char *message = NULL, *location, *attributes, *engage_token = NULL, *device_token = NULL;
    identity ident;
    REQUIRE_EMULATOR();
    recorder_init(&log_lines);
    recorder_init(&events);
    REQUIRE_OK(J.set_log_callback(recorder_callback, &log_lines, NULL));
    client = social_client(NULL);
    REQUIRE(client != NULL);
    CHECK_OK(J.client_set_event_callback(client, recorder_callback, &events, recorder_free));

    /* 310: the social registration token is in the detail, not in the message. */
    token = profile_token("Se Cret", email);
    CHECK_STATUS(native(client, "google", token, NULL, NULL, &result), JUMP_E_REGISTRATION_REQUIRED);
    detail = error_detail();
    registration_token = dup_or_null(json_str(detail, "social_registration_token"));
    message = dup_or_null(json_str(detail, "message"));
    attributes = json_dumps(json_object_get(detail, "prereg_record"), JSON_COMPACT);
    json_decref(detail);
    REQUIRE(registration_token != NULL && message != NULL && attributes != NULL);
    CHECK_MSG(strstr(message, registration_token) == NULL, "the message shows the registration token");
    free(message);
    /* Registering signs in: the signed_in event. */
    CHECK_OK(J.client_register_social(client, registration_token, attributes, NULL));
    free(attributes);
    CHECK_MSG(recorder_wait_calls(&events, 1, 5000) && recorder_find(&events, 0, "event", "signed_in") >= 0,
              "no signed_in event after the social registration");
    CHECK_OK(J.client_sign_out(client));

    /* 380: the merge token likewise. */
    {
        char *merge_email = unique_email("secret.merge");
        conflict = merge_conflict(merge_email, "capture", "facebook");
        free(merge_email);
    }
    REQUIRE(conflict != NULL);
    CHECK_STATUS(native(client, "facebook", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                        NULL, &result),
                 JUMP_E_MERGE_REQUIRED);
    detail = error_detail();
    merge_token = dup_or_null(json_str(detail, "merge_token"));
    message = dup_or_null(json_str(detail, "message"));
    json_decref(detail);
    REQUIRE(merge_token != NULL && message != NULL);
    CHECK_MSG(strstr(message, merge_token) == NULL, "the message shows the merge token");
    free(message);

    /* An Engage-only browser sign-in hands out the Engage token and the device token: not to the log. */
    REQUIRE(create_identity("facebook", "Br Owser", email, &ident) == 0);
    engage_only = engage_only_client(NULL);
    REQUIRE(engage_only != NULL);
    location = browser_existing(engage_only, "facebook", NULL, &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(engage_only, location, &result));
    engage_token = dup_or_null(json_str(result, "token"));
    device_token = dup_or_null(json_str(result, "device_token"));
    json_decref(result);
    free(location);
    J.client_free(engage_only);

    J.set_log_callback(NULL, NULL, NULL);
    harness_note("%d log lines and %d events checked", recorder_count(&log_lines), recorder_count(&events));
    CHECK_MSG(!recorder_contains(&log_lines, registration_token), "a log line shows the social registration token");
    CHECK_MSG(!recorder_contains(&log_lines, merge_token), "a log line shows the merge token");
    CHECK_MSG(engage_token == NULL || !recorder_contains(&log_lines, engage_token), "a log line shows the Engage token");
    CHECK_MSG(device_token == NULL || !recorder_contains(&log_lines, device_token), "a log line shows the device token");
    CHECK_MSG(!recorder_contains(&events, registration_token) && !recorder_contains(&events, merge_token),
              "an event shows a token");
    J.client_free(client);
    recorder_wait_frees(&events, 1, 5000);
    recorder_destroy(&events);
    recorder_destroy(&log_lines);
    json_decref(conflict);
    free(engage_token);
    free(device_token);
    free(token);
    free(merge_token);
    free(registration_token);
    free(email);
}

/* ---- the browser flow ------------------------------------------------------------------------------------ */

TEST(browser_sign_in_registration_required_then_register_social) {
    jump_client *client, *second;
    identity ident;
    json_t *detail, *record, *incomplete, *messages, *result = NULL, *profiles;
    char *email = unique_email("social"), *location, *token = NULL, *attributes, *out = NULL, *uuid = NULL;
    REQUIRE_EMULATOR();
    REQUIRE_MSG(create_identity("google", "Ann Social", email, &ident) == 0, "POST /emulator/identities failed");
    client = social_client(NULL); /* thin registration off */
    REQUIRE(client != NULL);

    location = browser_existing(client, "google", NULL, &ident);
    REQUIRE(location != NULL);
    CHECK_MSG(has_prefix(location, emu_url()) && strstr(location, "/signin/device?") != NULL,
              "the provider sent the browser to %s", location);
    CHECK_STATUS(complete(client, location, &result), JUMP_E_REGISTRATION_REQUIRED);
    detail = error_detail();
    token = dup_or_null(json_str(detail, "social_registration_token"));
    CHECK_MSG(token != NULL && token[0] != '\0', "no social_registration_token");
    CHECK_MSG(str_is(detail, "provider", "google"), "provider %s", str_or(detail, "provider"));
    record = json_object_get(detail, "prereg_record");
    CHECK_MSG(str_is(record, "email", email), "prereg_record.email %s", str_or(record, "email"));
    CHECK_MSG(str_is(record, "displayName", "Ann Social"), "prereg_record.displayName %s",
              str_or(record, "displayName"));
    CHECK_MSG(json_is_object(json_object_get(detail, "prereg_fields")), "no prereg_fields object");
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    REQUIRE(token != NULL && json_is_object(record));

    /* The required email left out: the form is refused field by field. */
    incomplete = json_deep_copy(record);
    json_object_del(incomplete, "email");
    attributes = json_dumps(incomplete, JSON_COMPACT);
    CHECK_STATUS(J.client_register_social(client, token, attributes, &out), JUMP_E_VALIDATION);
    CHECK(out == NULL);
    messages = invalid_field("emailAddress");
    CHECK_MSG(non_empty_string_array(messages), "invalid_fields has no emailAddress messages: %s", J.error_last());
    json_decref(messages);
    free(attributes);
    json_decref(incomplete);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);

    /* Completed: the user is made and signed in, with the identity among the record's profiles. */
    attributes = json_dumps(record, JSON_COMPACT);
    CHECK_OK(J.client_register_social(client, token, attributes, &out));
    free(attributes);
    result = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(result, "is_new")), "is_new not true");
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    json_decref(detail);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    REQUIRE(uuid != NULL);
    CHECK_MSG(record_has_identity(client, ident.identifier), "the record's profiles lack %s", ident.identifier);
    CHECK(server_user_has_identity(uuid, ident.identifier));
    profiles = linked(client);
    CHECK_MSG(json_array_size(profiles) == 1 && str_is(json_array_get(profiles, 0), "identifier", ident.identifier) &&
                  str_is(json_array_get(profiles, 0), "provider", "google") &&
                  str_is(json_array_get(profiles, 0), "email", email),
              "linked profiles %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    {
        json_t *user = emu_get_user(uuid, NULL);
        CHECK_MSG(str_is(user, "email", email), "the emulator's user has email %s", str_or(user, "email"));
        json_decref(user);
    }
    free(location);

    /* Another installation signing in with the same identity gets the same account. */
    second = social_client(NULL);
    REQUIRE(second != NULL);
    location = browser_existing(second, "google", NULL, &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(second, location, &result));
    CHECK_MSG(str_is(result, "outcome", "signed_in"), "outcome %s", str_or(result, "outcome"));
    CHECK_MSG(json_is_false(json_object_get(result, "is_new")), "is_new not false");
    CHECK_MSG(str_is(result, "uuid", uuid), "uuid %s, registered %s", str_or(result, "uuid"), uuid);
    CHECK_MSG(str_is(result, "provider", "google"), "provider %s", str_or(result, "provider"));
    CHECK_MSG(str_is(result, "identifier", ident.identifier), "identifier %s", str_or(result, "identifier"));
    CHECK(json_is_false(json_object_get(result, "merged")));
    CHECK_EQ_INT(J.client_is_signed_in(second), 1);
    json_decref(result);
    free(location);
    free(token);
    free(uuid);
    free(email);
    J.client_free(second);
    J.client_free(client);
}

TEST(thin_registration_registers_an_identity_made_on_the_page) {
    jump_client *client;
    json_t *result = NULL, *begun;
    char *email = unique_email("thin"), *location, *page = NULL, *record_email;
    jump_record *record = NULL;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    begun = begin(client, "facebook", NULL);
    REQUIRE(begun != NULL);
    location = idp_create(json_str(begun, "url"), "Tim Thin", email, &page);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_MSG(page != NULL && strstr(page, "Sign in with Facebook") != NULL, "the page title does not name Facebook");
    free(page);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    CHECK(json_is_true(json_object_get(result, "is_new")));
    CHECK(str_is(result, "provider", "facebook"));
    CHECK_MSG(has_prefix(json_str(result, "identifier"), "https://facebook.example/"), "identifier %s",
              str_or(result, "identifier"));
    CHECK_MSG(json_str(result, "uuid") != NULL, "no uuid");
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    REQUIRE_OK(J.client_record(client, &record));
    record_email = record_string(record, "/email");
    CHECK_MSG(record_email != NULL && strcmp(record_email, email) == 0, "record email %s",
              record_email ? record_email : "(null)");
    free(record_email);
    J.record_free(record);
    if (json_str(result, "identifier") != NULL) CHECK(record_has_identity(client, json_str(result, "identifier")));
    json_decref(result);
    free(location);
    free(email);
    J.client_free(client);
}

TEST(redirect_completion_through_token_url) {
    jump_client *client;
    json_t *begun, *result = NULL;
    char redirect[200], options[300], prefix[200], *location, *token_url, *email = unique_email("redirect");
    int port;
    REQUIRE_EMULATOR();
    port = emu_closed_port();
    snprintf(redirect, sizeof redirect, "http://127.0.0.1:%d/app/done?x=1", port);
    snprintf(prefix, sizeof prefix, "http://127.0.0.1:%d/app/done", port);
    snprintf(options, sizeof options, "{\"redirect_uri\":\"%s\"}", redirect);
    client = social_client(THIN);
    REQUIRE(client != NULL);

    begun = begin(client, "linkedin", options);
    REQUIRE(begun != NULL);
    CHECK_MSG(str_is(begun, "completion", "redirect"), "completion %s", str_or(begun, "completion"));
    CHECK_MSG(str_is(begun, "completion_prefix", prefix), "completion_prefix %s", str_or(begun, "completion_prefix"));
    token_url = query_param(json_str(begun, "url"), "token_url");
    CHECK_MSG(has_prefix(token_url, redirect) && strstr(token_url, str_or(begun, "state")) != NULL, "token_url %s",
              token_url ? token_url : "(none)");
    free(token_url);
    location = idp_create(json_str(begun, "url"), "Rita Redirect", email, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_MSG(has_prefix(location, redirect) && strstr(location, "token=") != NULL, "the browser went to %s", location);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    json_decref(result);
    free(location);
    J.client_free(client);

    /* engageResponseType "token" sends the browser to engageWhitelistedDomain. */
    snprintf(options, sizeof options, "{\"engageResponseType\":\"token\",\"engageWhitelistedDomain\":\"%s\"}", prefix);
    client = social_client(options);
    REQUIRE(client != NULL);
    begun = begin(client, "google", NULL);
    REQUIRE(begun != NULL);
    CHECK_MSG(str_is(begun, "completion", "redirect") && str_is(begun, "completion_prefix", prefix),
              "token mode: completion %s at %s", str_or(begun, "completion"), str_or(begun, "completion_prefix"));
    json_decref(begun);
    J.client_free(client);
    /* ... which it needs. */
    client = social_client("{\"engageResponseType\":\"token\"}");
    REQUIRE(client != NULL);
    {
        char *out = NULL;
        CHECK_STATUS(J.client_social_begin(client, "google", NULL, &out), JUMP_E_INVALID_ARGUMENT);
        CHECK(last_detail_is("argument", "engageWhitelistedDomain"));
    }
    J.client_free(client);
    free(email);
}

TEST(completion_urls_that_do_not_belong_change_nothing) {
    jump_client *client, *other;
    json_t *begun, *result = NULL;
    char *email = unique_email("belong"), *location, *before, *after, *forged, *elsewhere, *uuid, *state;
    const char *query;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    other = social_client(THIN);
    REQUIRE(client != NULL && other != NULL);
    begun = begin(client, "google", NULL);
    REQUIRE(begun != NULL);
    location = idp_create(json_str(begun, "url"), "Bea Long", email, NULL);
    state = dup_or_null(json_str(begun, "state"));
    json_decref(begun);
    REQUIRE(location != NULL && state != NULL);
    before = state_text(client);

    /* Unknown state (Engage's device ending carries none; a forged one must still be refused). */
    forged = malloc(strlen(location) + 64);
    REQUIRE(forged != NULL);
    sprintf(forged, "%s&state=not-a-state-of-this-client", location);
    CHECK_STATUS(complete(client, forged, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "unknown_state"), "reason: %s", J.error_last());
    free(forged);
    /* The right state, another place. */
    query = strchr(location, '?');
    REQUIRE(query != NULL);
    elsewhere = malloc(strlen(emu_url()) + strlen(query) + strlen(state) + 32);
    sprintf(elsewhere, "%s/elsewhere%s&state=%s", emu_url(), query, state);
    CHECK_STATUS(complete(client, elsewhere, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "wrong_location"), "reason: %s", J.error_last());
    free(elsewhere);
    free(state);
    /* A URL without a state, and one that is not a URL at all. */
    CHECK_STATUS(complete(client, "https://example.com/signin/device?token=abc", &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(complete(client, "not a url", &result), JUMP_E_INVALID_ARGUMENT);
    /* Another client never began this sign-in. */
    CHECK_STATUS(complete(other, location, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "unknown_state"), "reason: %s", J.error_last());
    CHECK_EQ_INT(J.client_is_signed_in(other), 0);
    after = state_text(client);
    CHECK_MSG(strcmp(before, after) == 0, "the client state changed:\n      %s\n      %s", before, after);
    free(after);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);

    /* The rejections consumed nothing: the real completion still works, once. */
    REQUIRE_OK(complete(client, location, &result));
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    before = (free(before), state_text(client));
    CHECK_STATUS(complete(client, location, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "unknown_state"), "a reused state: %s", J.error_last());
    after = state_text(client);
    CHECK_MSG(strcmp(before, after) == 0, "a reused completion changed the state:\n      %s\n      %s", before, after);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    free(before);
    free(after);
    free(uuid);
    free(location);
    free(email);
    J.client_free(other);
    J.client_free(client);
}

TEST(cancel_on_the_provider_page_is_cancelled) {
    jump_client *client;
    json_t *begun, *result = NULL;
    char *location, *error;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    begun = begin(client, "yahoo", NULL);
    REQUIRE(begun != NULL);
    location = idp_press(json_str(begun, "url"), "id", "cancel", NULL, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    error = query_param(location, "error");
    CHECK_MSG(error != NULL, "the cancel ended on %s (no error parameter)", location);
    free(error);
    CHECK_STATUS(complete(client, location, &result), JUMP_E_CANCELLED);
    CHECK_MSG(last_detail_is("reason", "user_canceled"), "detail: %s", J.error_last());
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    /* The sign-in is over: the same URL does not complete anything any more. */
    CHECK_STATUS(complete(client, location, &result), JUMP_E_INVALID_ARGUMENT);
    free(location);
    J.client_free(client);
}

TEST(openid_input_refused_by_the_provider_is_validation) {
    jump_client *client;
    json_t *begun, *result = NULL, *messages;
    char *location, *text;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    begun = begin(client, "openid", "{\"input\":\"not-a-url\"}");
    REQUIRE(begun != NULL);
    /* The provider ends the flow at once; a browser following it would land on the completion URL. */
    location = idp_create(json_str(begun, "url"), "Ole Open", "ole@example.com", NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_STATUS(complete(client, location, &result), JUMP_E_VALIDATION);
    messages = invalid_field("input");
    text = messages != NULL ? json_dumps(messages, JSON_ENCODE_ANY) : NULL;
    CHECK_MSG(text != NULL && strstr(text, "Your OpenID must be a URL") != NULL, "invalid_fields.input %s",
              text ? text : "(none)");
    free(text);
    json_decref(messages);
    free(location);
    J.client_free(client);
}

TEST(provider_page_escapes_names_and_shows_reauthentication) {
    jump_client *client;
    identity ident;
    json_t *begun, *result = NULL;
    http_reply page;
    char *location, *email = unique_email("markup");
    const char *name = "Zo\xc3\xab <b>\"Q&A\"</b> O'Neil";
    REQUIRE_EMULATOR();
    REQUIRE(create_identity("linkedin", name, email, &ident) == 0);
    client = engage_only_client(NULL);
    REQUIRE(client != NULL);
    begun = begin(client, "linkedin", "{\"force_reauth\":true}");
    REQUIRE(begun != NULL);
    REQUIRE(http_raw("GET", json_str(begun, "url"), NULL, &page) == 0);
    CHECK_EQ_INT(page.status, 200);
    CHECK_MSG(strstr(page.body, "<b>\"Q&A\"</b>") == NULL, "the page shows the name unescaped");
    CHECK_MSG(strstr(page.body, "Re-authentication requested") != NULL, "no re-authentication note with force_reauth");
    http_reply_free(&page);
    location = idp_press(json_str(begun, "url"), "value", ident.id, NULL, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(json_object_get(result, "profile"), "displayName", name), "displayName %s",
              str_or(json_object_get(result, "profile"), "displayName"));
    CHECK(str_is(json_object_get(result, "profile"), "identifier", ident.identifier));
    json_decref(result);
    free(location);
    free(email);
    J.client_free(client);
}

/* ---- native provider tokens ------------------------------------------------------------------------------ */

TEST(native_provider_token_registers_then_signs_in) {
    jump_client *client, *second;
    json_t *result = NULL, *detail;
    char *email = unique_email("native"), *token = profile_token("Nat Ive", email), *identifier = NULL, *uuid = NULL;
    char *again;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    REQUIRE_OK(native(client, "facebook", token, NULL, NULL, &result));
    CHECK_MSG(str_is(result, "outcome", "registered") && json_is_true(json_object_get(result, "is_new")),
              "outcome %s", str_or(result, "outcome"));
    CHECK(str_is(result, "provider", "facebook"));
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    REQUIRE(uuid != NULL);
    {
        json_t *profiles = linked(client);
        identifier = dup_or_null(json_str(json_array_get(profiles, 0), "identifier"));
        CHECK_MSG(json_array_size(profiles) == 1 && has_prefix(identifier, "https://facebook.example/"),
                  "linked profiles %s", profiles ? dump(profiles) : "(none)");
        json_decref(profiles);
    }
    REQUIRE(identifier != NULL);
    CHECK(server_user_has_identity(uuid, identifier));

    /* The same identity again, from another installation: signed in to the same account. */
    second = social_client(THIN);
    REQUIRE(second != NULL);
    again = identifier_token(identifier);
    REQUIRE_OK(native(second, "facebook", again, NULL, NULL, &result));
    CHECK_MSG(str_is(result, "outcome", "signed_in") && str_is(result, "uuid", uuid) &&
                  json_is_false(json_object_get(result, "is_new")),
              "second sign-in: outcome %s uuid %s", str_or(result, "outcome"), str_or(result, "uuid"));
    json_decref(result);
    free(again);
    J.client_free(second);

    /* Without thin registration the native path needs the two-step registration too. */
    second = social_client(NULL);
    REQUIRE(second != NULL);
    free(email);
    email = unique_email("native2");
    free(token);
    token = profile_token("Nia Two", email);
    CHECK_STATUS(native(second, "google", token, NULL, NULL, &result), JUMP_E_REGISTRATION_REQUIRED);
    detail = error_detail();
    CHECK_MSG(json_str(detail, "social_registration_token") != NULL, "no social_registration_token");
    CHECK_MSG(str_is(json_object_get(detail, "prereg_record"), "email", email), "prereg_record %s",
              dump(json_object_get(detail, "prereg_record")));
    json_decref(detail);
    J.client_free(second);
    free(identifier);
    free(uuid);
    free(token);
    free(email);
    J.client_free(client);
}

TEST(thin_registration_needs_an_email_from_the_provider) {
    jump_client *client;
    json_t *result = NULL, *detail;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    CHECK_STATUS(native(client, "google", "{\"display_name\":\"No Mail\",\"identifier\":\"https://google.example/nomail\"}",
                        NULL, NULL, &result),
                 JUMP_E_REGISTRATION_REQUIRED);
    detail = error_detail();
    CHECK_MSG(json_str(detail, "social_registration_token") != NULL, "no social_registration_token");
    CHECK_MSG(str_is(json_object_get(detail, "prereg_record"), "displayName", "No Mail"), "prereg_record %s",
              dump(json_object_get(detail, "prereg_record")));
    json_decref(detail);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
}

TEST(native_provider_token_refusals) {
    jump_client *client;
    json_t *result = NULL;
    char *email = unique_email("tweet"), *token = profile_token("Tw Eet", email);
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    /* OAuth1 needs its secret. */
    CHECK_STATUS(native(client, "twitter", token, NULL, NULL, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "token_secret"), "detail: %s", J.error_last());
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    REQUIRE_OK(native(client, "twitter", token, "oauth1-secret", NULL, &result));
    CHECK(str_is(result, "provider", "twitter") && str_is(result, "outcome", "registered"));
    json_decref(result);
    CHECK_OK(J.client_sign_out(client));
    /* A token the provider does not know. */
    CHECK_STATUS(native(client, "google", "this is not a profile", NULL, NULL, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "token"), "detail: %s", J.error_last());
    /* A provider the app does not have. */
    CHECK_STATUS(native(client, "myspace", token, NULL, NULL, &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "provider"), "detail: %s", J.error_last());
    /* A native sign-in takes no browser options. */
    CHECK_STATUS(native(client, "google", token, NULL, "{\"input\":\"x\"}", &result), JUMP_E_INVALID_ARGUMENT);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    free(token);
    free(email);
    J.client_free(client);
}

/* ---- merge --------------------------------------------------------------------------------------------- */

TEST(merge_through_the_existing_social_provider) {
    jump_client *client;
    json_t *conflict, *result = NULL, *detail, *profiles;
    char *email = unique_email("merge.social"), *merge_token, *options, *uuid, *existing_id, *conflicting_id;
    REQUIRE_EMULATOR();
    conflict = merge_conflict(email, "google", "facebook");
    REQUIRE_MSG(conflict != NULL, "POST /emulator/merge_conflict failed");
    uuid = dup_or_null(json_str(json_object_get(conflict, "user"), "uuid"));
    existing_id = dup_or_null(json_str(json_object_get(conflict, "existing_identity"), "identifier"));
    conflicting_id = dup_or_null(json_str(json_object_get(conflict, "conflicting_identity"), "identifier"));
    REQUIRE(uuid != NULL && existing_id != NULL && conflicting_id != NULL);
    client = social_client(THIN);
    REQUIRE(client != NULL);

    CHECK_STATUS(native(client, "facebook", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                        NULL, &result),
                 JUMP_E_MERGE_REQUIRED);
    detail = error_detail();
    merge_token = dup_or_null(json_str(detail, "merge_token"));
    CHECK_MSG(merge_token != NULL && merge_token[0] != '\0', "no merge_token");
    CHECK_MSG(str_is(detail, "existing_provider", "google"), "existing_provider %s", str_or(detail, "existing_provider"));
    CHECK_MSG(str_is(detail, "conflicting_provider", "facebook"), "conflicting_provider %s",
              str_or(detail, "conflicting_provider"));
    json_decref(detail);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    REQUIRE(merge_token != NULL);

    /* Signing in with the existing provider, carrying the merge token, merges. */
    options = malloc(strlen(merge_token) + 32);
    sprintf(options, "{\"merge_token\":\"%s\"}", merge_token);
    REQUIRE_OK(native(client, "google", json_str(json_object_get(conflict, "existing_identity"), "token"), NULL, options,
                      &result));
    CHECK_MSG(str_is(result, "outcome", "signed_in") && str_is(result, "uuid", uuid), "outcome %s uuid %s",
              str_or(result, "outcome"), str_or(result, "uuid"));
    CHECK_MSG(json_is_true(json_object_get(result, "merged")), "merged is not true");
    json_decref(result);
    profiles = linked(client);
    CHECK_MSG(array_has_member(profiles, "identifier", existing_id) &&
                  array_has_member(profiles, "identifier", conflicting_id) && json_array_size(profiles) == 2,
              "linked profiles after the merge: %s", profiles ? dump(profiles) : "(none)");
    CHECK(array_has_member(profiles, "provider", "facebook") && array_has_member(profiles, "provider", "google"));
    json_decref(profiles);
    CHECK(server_user_has_identity(uuid, conflicting_id));

    /* The merged identity now signs in to the same account. */
    CHECK_OK(J.client_sign_out(client));
    REQUIRE_OK(native(client, "facebook", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                      NULL, &result));
    CHECK_MSG(str_is(result, "uuid", uuid), "the merged identity signs in to %s", str_or(result, "uuid"));
    json_decref(result);
    /* A merge token is used once. */
    CHECK_OK(J.client_sign_out(client));
    CHECK(native(client, "google", json_str(json_object_get(conflict, "existing_identity"), "token"), NULL, options,
                 &result) != JUMP_OK);
    free(options);
    free(merge_token);
    free(uuid);
    free(existing_id);
    free(conflicting_id);
    free(email);
    json_decref(conflict);
    J.client_free(client);
}

TEST(merge_through_a_traditional_sign_in) {
    jump_client *client;
    json_t *conflict, *result = NULL, *detail, *profiles;
    char *email = unique_email("merge.capture"), *merge_token, *uuid, *conflicting_id, *out = NULL;
    const char *password;
    jump_record *record = NULL;
    REQUIRE_EMULATOR();
    conflict = merge_conflict(email, "capture", "linkedin");
    REQUIRE_MSG(conflict != NULL, "POST /emulator/merge_conflict failed");
    password = json_str(conflict, "password");
    uuid = dup_or_null(json_str(json_object_get(conflict, "user"), "uuid"));
    conflicting_id = dup_or_null(json_str(json_object_get(conflict, "conflicting_identity"), "identifier"));
    REQUIRE(password != NULL && uuid != NULL && conflicting_id != NULL);
    client = social_client(THIN);
    REQUIRE(client != NULL);

    CHECK_STATUS(native(client, "linkedin", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                        NULL, &result),
                 JUMP_E_MERGE_REQUIRED);
    detail = error_detail();
    merge_token = dup_or_null(json_str(detail, "merge_token"));
    CHECK_MSG(str_is(detail, "existing_provider", "capture"), "existing_provider %s", str_or(detail, "existing_provider"));
    CHECK_MSG(str_is(detail, "conflicting_provider", "linkedin"), "conflicting_provider %s",
              str_or(detail, "conflicting_provider"));
    json_decref(detail);
    REQUIRE(merge_token != NULL);

    /* A wrong password merges nothing. */
    CHECK_STATUS(J.client_sign_in_merge(client, email, "wrong-password-1", merge_token, &out), JUMP_E_BAD_CREDENTIALS);
    CHECK(!server_user_has_identity(uuid, conflicting_id));

    REQUIRE_OK(J.client_sign_in_merge(client, email, password, merge_token, &out));
    result = take_json(out);
    CHECK_MSG(str_is(result, "uuid", uuid), "uuid %s", str_or(result, "uuid"));
    CHECK_MSG(json_is_true(json_object_get(result, "merged")), "merged is not true");
    json_decref(result);
    profiles = linked(client);
    CHECK_MSG(array_has_member(profiles, "identifier", conflicting_id),
              "linked profiles after the merge: %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    CHECK(server_user_has_identity(uuid, conflicting_id));
    /* A password account: the record says it has one (and never its hash). */
    REQUIRE_OK(J.client_record(client, &record));
    {
        char *pw = NULL;
        CHECK_OK(J.record_get(record, "/password", &pw));
        CHECK_MSG(pw != NULL && strcmp(pw, "null") != 0 && strstr(pw, "$2") == NULL, "record password %s",
                  pw ? pw : "(none)");
        if (pw != NULL) J.string_free(pw);
    }
    J.record_free(record);

    /* Now the social identity signs in to the password account. */
    CHECK_OK(J.client_sign_out(client));
    REQUIRE_OK(native(client, "linkedin", json_str(json_object_get(conflict, "conflicting_identity"), "token"), NULL,
                      NULL, &result));
    CHECK_MSG(str_is(result, "outcome", "signed_in") && str_is(result, "uuid", uuid), "outcome %s uuid %s",
              str_or(result, "outcome"), str_or(result, "uuid"));
    json_decref(result);
    free(merge_token);
    free(uuid);
    free(conflicting_id);
    free(email);
    json_decref(conflict);
    J.client_free(client);
}

/* ---- linking ------------------------------------------------------------------------------------------- */

TEST(link_unlink_and_the_last_identity_of_a_passwordless_account) {
    jump_client *client;
    json_t *result = NULL, *profiles;
    char *email = unique_email("link"), *fb = profile_token("Lin K", email), *google_email = unique_email("link.g");
    char *google = profile_token("Lin G", google_email), *uuid, *fb_id, *google_id;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    REQUIRE_OK(native(client, "facebook", fb, NULL, NULL, &result));
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    profiles = linked(client);
    fb_id = dup_or_null(json_str(json_array_get(profiles, 0), "identifier"));
    json_decref(profiles);
    REQUIRE(uuid != NULL && fb_id != NULL);

    /* The only identity of an account without a password stays. */
    CHECK_STATUS(J.client_unlink_account(client, fb_id), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("reason", "last_identity"), "detail: %s", J.error_last());
    CHECK(server_user_has_identity(uuid, fb_id));

    /* Link a second identity. */
    REQUIRE_OK(native(client, "google", google, NULL, "{\"link\":true}", &result));
    CHECK_MSG(str_is(result, "outcome", "linked") && str_is(result, "uuid", uuid), "outcome %s uuid %s",
              str_or(result, "outcome"), str_or(result, "uuid"));
    google_id = dup_or_null(json_str(result, "identifier"));
    json_decref(result);
    REQUIRE(google_id != NULL);
    CHECK(has_prefix(google_id, "https://google.example/"));
    profiles = linked(client);
    CHECK_MSG(json_array_size(profiles) == 2 && array_has_member(profiles, "identifier", google_id),
              "linked %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    CHECK(record_has_identity(client, google_id));
    CHECK(server_user_has_identity(uuid, google_id));
    /* Linking it again changes nothing. */
    {
        char *again = identifier_token(google_id);
        CHECK_OK(native(client, "google", again, NULL, "{\"link\":true}", &result));
        json_decref(result);
        free(again);
        profiles = linked(client);
        CHECK_EQ_INT(json_array_size(profiles), 2);
        json_decref(profiles);
    }

    /* Now facebook may go; then google is the last one. */
    CHECK_OK(J.client_unlink_account(client, fb_id));
    profiles = linked(client);
    CHECK_MSG(json_array_size(profiles) == 1 && str_is(json_array_get(profiles, 0), "identifier", google_id),
              "after unlinking: %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    CHECK(!record_has_identity(client, fb_id));
    CHECK(!server_user_has_identity(uuid, fb_id));
    CHECK_STATUS(J.client_unlink_account(client, google_id), JUMP_E_INVALID_ARGUMENT);
    CHECK(last_detail_is("reason", "last_identity"));
    CHECK(server_user_has_identity(uuid, google_id));
    /* An identifier that is not linked. */
    CHECK_STATUS(J.client_unlink_account(client, "https://nobody.example/1"), JUMP_E_NOT_FOUND);
    /* The unlinked identity no longer signs in to the account: its email is the account's, whose remaining
     * sign-in method is google, so it is a merge conflict now. */
    {
        jump_client *other = social_client(THIN);
        char *again = identifier_token(fb_id);
        REQUIRE(other != NULL);
        CHECK_STATUS(native(other, "facebook", again, NULL, NULL, &result), JUMP_E_MERGE_REQUIRED);
        CHECK_MSG(last_detail_is("existing_provider", "google"), "detail: %s", J.error_last());
        CHECK_EQ_INT(J.client_is_signed_in(other), 0);
        free(again);
        J.client_free(other);
    }
    free(uuid);
    free(fb_id);
    free(google_id);
    free(fb);
    free(google);
    free(email);
    free(google_email);
    J.client_free(client);
}

TEST(link_through_the_browser_to_a_password_account) {
    jump_client *client, *owner;
    identity ident, taken;
    json_t *result = NULL, *profiles;
    char *uuid, *location, *email = unique_email("pwlink"), *other_email = unique_email("pwlink.other"), *out = NULL;
    char *owner_uuid;
    REQUIRE_EMULATOR();
    REQUIRE(create_identity("twitter", "Pat Word", email, &ident) == 0);
    REQUIRE(create_identity("google", "Oth Er", other_email, &taken) == 0);
    client = social_client(NULL);
    REQUIRE(client != NULL);

    /* Linking needs a signed-in user. */
    CHECK_STATUS(J.client_social_begin(client, "twitter", "{\"link\":true}", &out), JUMP_E_NOT_SIGNED_IN);
    uuid = sign_in_new_user(client, NULL, NULL);
    REQUIRE(uuid != NULL);
    location = browser_existing(client, "twitter", "{\"link\":true}", &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    CHECK_MSG(str_is(result, "outcome", "linked") && str_is(result, "uuid", uuid), "outcome %s uuid %s",
              str_or(result, "outcome"), str_or(result, "uuid"));
    CHECK_MSG(str_is(result, "identifier", ident.identifier), "identifier %s", str_or(result, "identifier"));
    json_decref(result);
    free(location);
    profiles = linked(client);
    CHECK_MSG(json_array_size(profiles) == 1 && str_is(json_array_get(profiles, 0), "provider", "twitter"),
              "linked %s", profiles ? dump(profiles) : "(none)");
    json_decref(profiles);
    CHECK(server_user_has_identity(uuid, ident.identifier));

    /* An identity on another account cannot be linked here. */
    owner = social_client(THIN);
    REQUIRE(owner != NULL);
    location = browser_existing(owner, "google", NULL, &taken);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(owner, location, &result));
    owner_uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(result);
    free(location);
    location = browser_existing(client, "google", "{\"link\":true}", &taken);
    REQUIRE(location != NULL);
    CHECK(complete(client, location, &result) != JUMP_OK);
    CHECK_MSG(!server_user_has_identity(uuid, taken.identifier), "an identity of another account was linked");
    if (owner_uuid != NULL) CHECK(server_user_has_identity(owner_uuid, taken.identifier));
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    free(location);
    free(owner_uuid);
    J.client_free(owner);

    /* A password account may drop its only identity. */
    CHECK_OK(J.client_unlink_account(client, ident.identifier));
    profiles = linked(client);
    CHECK_EQ_INT(json_array_size(profiles), 0);
    json_decref(profiles);
    CHECK(!server_user_has_identity(uuid, ident.identifier));
    free(uuid);
    free(email);
    free(other_email);
    J.client_free(client);
}

TEST(link_begun_for_one_user_does_not_land_on_another) {
    jump_client *client;
    identity ident;
    json_t *begun, *result = NULL;
    char *first, *second, *location, *email = unique_email("shared");
    jump_status status;
    REQUIRE_EMULATOR();
    REQUIRE(create_identity("twitter", "Sha Red", email, &ident) == 0);
    free(email);
    client = social_client(NULL);
    REQUIRE(client != NULL);

    /* Signed out between begin and complete: the link is gone with the session. */
    first = sign_in_new_user(client, NULL, NULL);
    REQUIRE(first != NULL);
    begun = begin(client, "twitter", "{\"link\":true}");
    REQUIRE(begun != NULL);
    location = idp_press(json_str(begun, "url"), "value", ident.id, NULL, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    CHECK_OK(J.client_sign_out(client));
    CHECK(complete(client, location, &result) != JUMP_OK);
    CHECK(!server_user_has_identity(first, ident.identifier));
    free(location);
    free(first);

    /* Another user signed in between begin and complete (an account switch on a shared device): the identity
     * the first user chose must not be linked to the second one. */
    first = sign_in_new_user(client, NULL, NULL);
    REQUIRE(first != NULL);
    begun = begin(client, "twitter", "{\"link\":true}");
    REQUIRE(begun != NULL);
    location = idp_press(json_str(begun, "url"), "value", ident.id, NULL, NULL);
    json_decref(begun);
    REQUIRE(location != NULL);
    second = sign_in_new_user(client, NULL, NULL);
    REQUIRE(second != NULL);
    status = complete(client, location, &result);
    CHECK_MSG(status != JUMP_OK, "the link begun for %s completed as %s: %s", first, second,
              result ? dump(result) : "");
    if (status == JUMP_OK) json_decref(result);
    CHECK_MSG(!server_user_has_identity(second, ident.identifier), "the identity was linked to the other user");
    free(location);
    free(first);
    free(second);
    J.client_free(client);
}

/* ---- Engage-only apps -------------------------------------------------------------------------------------- */

TEST(engage_only_configuration_authenticates) {
    jump_client *client;
    identity ident;
    json_t *result = NULL, *profile, *response;
    char *email = unique_email("engageonly"), *location, *token_url, *token;
    REQUIRE_EMULATOR();
    REQUIRE(create_identity("google", "Eve Only", email, &ident) == 0);
    client = engage_only_client(NULL);
    REQUIRE(client != NULL);

    location = browser_existing(client, "google", NULL, &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    free(location);
    CHECK_MSG(str_is(result, "outcome", "authenticated"), "outcome %s", str_or(result, "outcome"));
    CHECK(str_is(result, "provider", "google"));
    CHECK_MSG(json_str(result, "token") != NULL && strlen(json_str(result, "token")) == 40, "token %s",
              str_or(result, "token"));
    CHECK_MSG(json_str(result, "device_token") != NULL && json_str(result, "device_token")[0] != '\0',
              "no device_token");
    profile = json_object_get(result, "profile");
    CHECK_MSG(str_is(profile, "identifier", ident.identifier) && str_is(profile, "displayName", "Eve Only"),
              "profile %s", dump(profile));
    CHECK(json_is_null(json_object_get(result, "token_url_response")));
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    json_decref(result);

    /* With a token URL (here: the emulator's own auth_info, as an app backend would call it) the token goes
     * there and its answer comes back. */
    token_url = malloc(strlen(emu_url()) + 128);
    sprintf(token_url, "%s/api/v2/auth_info?apiKey=%s&format=json", emu_url(), ENGAGE_API_KEY);
    CHECK_OK(J.client_set_token_url(client, token_url));
    location = browser_existing(client, "google", NULL, &ident);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    free(location);
    response = json_object_get(result, "token_url_response");
    CHECK_MSG(json_is_object(response) && json_integer_value(json_object_get(response, "status")) == 200,
              "token_url_response %s", dump(response));
    CHECK_MSG(json_str(response, "body") != NULL && strstr(json_str(response, "body"), "\"ok\"") != NULL &&
                  strstr(json_str(response, "body"), "google.example") != NULL,
              "the token URL answered %s", str_or(response, "body"));
    CHECK(json_is_array(json_object_get(response, "headers")));
    json_decref(result);
    CHECK_OK(J.client_set_token_url(client, NULL));
    CHECK_STATUS(J.client_set_token_url(client, "ftp://example.com/token"), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_set_token_url(client, "http://example.com/token"), JUMP_E_INVALID_ARGUMENT);

    /* The native path: no device token. */
    token = identifier_token(ident.identifier);
    REQUIRE_OK(native(client, "google", token, NULL, NULL, &result));
    CHECK(str_is(result, "outcome", "authenticated"));
    CHECK_MSG(json_is_null(json_object_get(result, "device_token")), "a native sign-in gave a device token");
    json_decref(result);
    /* Merging needs Capture. */
    CHECK_STATUS(native(client, "google", token, NULL, "{\"merge_token\":\"abc\"}", &result), JUMP_E_INVALID_ARGUMENT);
    free(token);
    free(token_url);
    free(email);
    J.client_free(client);
}

/* ---- async ------------------------------------------------------------------------------------------------- */

/* Runs until the recorder has one completion; returns it (new reference) or NULL. */
static json_t *completion_of(recorder *r) {
    if (!recorder_wait_calls(r, 1, 30000)) return NULL;
    return recorder_payload(r, 0);
}

TEST(async_complete_and_native_deliver_the_outcome) {
    jump_client *client, *second;
    recorder r;
    jump_request *request = NULL;
    json_t *payload, *result, *error;
    char *email = unique_email("async"), *token = profile_token("As Ync", email), *location, *uuid = NULL;
    identity ident;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);

    recorder_init(&r);
    REQUIRE_OK(J.client_social_sign_in_native_async(client, "google", token, NULL, NULL, recorder_callback, &r,
                                                    recorder_free, &request));
    CHECK_OK(J.request_wait(request, 30000));
    J.request_free(request);
    payload = completion_of(&r);
    REQUIRE_MSG(payload != NULL, "no completion");
    result = json_object_get(payload, "result");
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), 0);
    CHECK(str_is(payload, "kind", "completion"));
    CHECK_MSG(str_is(result, "outcome", "registered") && json_is_true(json_object_get(result, "is_new")),
              "native async result %s", dump(payload));
    uuid = dup_or_null(json_str(result, "uuid"));
    json_decref(payload);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    REQUIRE(uuid != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);

    /* The browser path, asynchronously, with an identity made on the page. */
    second = social_client(THIN);
    REQUIRE(second != NULL);
    REQUIRE(create_identity("facebook", "Fa Cebook", email, &ident) == 0);
    location = browser_existing(second, "facebook", NULL, &ident);
    REQUIRE(location != NULL);
    recorder_init(&r);
    request = NULL;
    REQUIRE_OK(J.client_social_complete_async(second, location, recorder_callback, &r, recorder_free, &request));
    CHECK_OK(J.request_wait(request, 30000));
    J.request_free(request);
    payload = completion_of(&r);
    REQUIRE_MSG(payload != NULL, "no completion");
    result = json_object_get(payload, "result");
    /* Same email as the google account: 380 without a merge. The async detail carries the same members. */
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), JUMP_E_MERGE_REQUIRED);
    error = json_object_get(payload, "error");
    CHECK_MSG(json_str(error, "merge_token") != NULL && str_is(error, "existing_provider", "google") &&
                  str_is(error, "conflicting_provider", "facebook"),
              "async merge detail %s", dump(payload));
    json_decref(payload);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);

    /* A completion that does not belong, asynchronously: the same refusal in the completion. */
    recorder_init(&r);
    request = NULL;
    CHECK_OK(J.client_social_complete_async(second, location, recorder_callback, &r, recorder_free, &request));
    payload = completion_of(&r);
    REQUIRE_MSG(payload != NULL, "no completion");
    CHECK_EQ_INT(json_integer_value(json_object_get(payload, "status")), JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(str_is(json_object_get(payload, "error"), "reason", "unknown_state"), "async refusal %s",
              dump(payload));
    json_decref(payload);
    J.request_free(request);
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    free(location);

    /* And a successful async browser completion: signed in to the account the identity belongs to. */
    {
        identity mine;
        char *mine_email = unique_email("async.browser");
        REQUIRE(create_identity("linkedin", "Li Nked", mine_email, &mine) == 0);
        location = browser_existing(second, "linkedin", NULL, &mine);
        REQUIRE(location != NULL);
        recorder_init(&r);
        request = NULL;
        REQUIRE_OK(J.client_social_complete_async(second, location, recorder_callback, &r, recorder_free, &request));
        payload = completion_of(&r);
        REQUIRE_MSG(payload != NULL, "no completion");
        result = json_object_get(payload, "result");
        CHECK_MSG(json_integer_value(json_object_get(payload, "status")) == 0 && str_is(result, "outcome", "registered") &&
                      str_is(result, "identifier", mine.identifier),
                  "async browser completion %s", dump(payload));
        json_decref(payload);
        J.request_free(request);
        CHECK(recorder_wait_frees(&r, 1, 5000));
        recorder_destroy(&r);
        CHECK_EQ_INT(J.client_is_signed_in(second), 1);
        free(location);
        free(mine_email);
    }
    free(uuid);
    free(token);
    free(email);
    J.client_free(second);
    J.client_free(client);
}

/* ---- bad arguments ----------------------------------------------------------------------------------------- */

static char sentinel_byte;
#define SENTINEL ((void *)&sentinel_byte)
#define BAD_UTF8 "\xff\xfe"
#define CHECK_FAILS_OUT(call, out, expected)                                                               \
    do {                                                                                                   \
        out = SENTINEL;                                                                                    \
        CHECK_STATUS(call, expected);                                                                      \
        CHECK_MSG(out == NULL, "%s: the out-parameter was not set to NULL on failure", #call);            \
    } while (0)

/* An async call with a bad argument: refused at its start (that status returned) or started and failed; either
 * way the callback runs once with the status. */
static void check_async_refused(const char *file, int line, const char *what, jump_status got, jump_status expected,
                                recorder *r) {
    json_t *payload;
    if (got != expected && got != JUMP_OK)
        harness_fail(file, line, "%s returned %d, expected %d (or JUMP_OK and the failure in the callback)", what,
                     (int)got, (int)expected);
    if (!recorder_wait_calls(r, 1, 5000)) {
        harness_fail(file, line, "%s: the callback did not run", what);
        return;
    }
    payload = recorder_payload(r, 0);
    if (json_integer_value(json_object_get(payload, "status")) != expected)
        harness_fail(file, line, "%s: the callback reported %lld", what,
                     (long long)json_integer_value(json_object_get(payload, "status")));
    json_decref(payload);
    if (!recorder_wait_frees(r, 1, 5000)) harness_fail(file, line, "%s: userdata_free did not run", what);
}
#define CHECK_ASYNC_REFUSED(call, expected)                                                                \
    do {                                                                                                   \
        recorder r_;                                                                                       \
        jump_status s_;                                                                                    \
        recorder_init(&r_);                                                                                \
        s_ = call;                                                                                         \
        check_async_refused(__FILE__, __LINE__, #call, s_, expected, &r_);                                 \
        recorder_destroy(&r_);                                                                             \
    } while (0)

/* An open_url that cannot open anything. */
static jump_status refuse_open(void *userdata, const char *url) {
    (void)userdata;
    (void)url;
    return JUMP_E_UNSUPPORTED;
}

TEST(bad_arguments_are_statuses_never_crashes) {
    jump_client *client, *freed;
    char *out;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);

    /* Providers and begin. */
    CHECK_FAILS_OUT(J.client_providers(NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_providers(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_load_engage_config(NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_begin(NULL, "google", NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_begin(client, NULL, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, BAD_UTF8, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "", NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_social_begin(client, "google", NULL, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "[1,2]", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "options"), "non-object options: %s", J.error_last());
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"link\":", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"bogus\":1}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_MSG(last_detail_is("argument", "bogus"), "unknown option: %s", J.error_last());
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"force_reauth\":\"yes\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"input\":" "\"" BAD_UTF8 "\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"link\":true,\"merge_token\":\"m\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"redirect_uri\":\"javascript:alert(1)\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_begin(client, "google", "{\"redirect_uri\":\"http://example.com/cb\"}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);

    /* Complete. */
    CHECK_FAILS_OUT(J.client_social_complete(NULL, "http://127.0.0.1/x?state=1", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_complete(client, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_complete(client, "http://127.0.0.1/x?state=" BAD_UTF8, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_complete(client, "", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_complete(client, "http://127.0.0.1/x?state=%zz%&&==&state", &out), out,
                    JUMP_E_INVALID_ARGUMENT);

    /* Native. */
    CHECK_FAILS_OUT(J.client_social_sign_in_native(NULL, "google", "{}", NULL, NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, NULL, "{}", NULL, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", NULL, NULL, NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "", NULL, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", BAD_UTF8, NULL, NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "twitter", "{}", BAD_UTF8, NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, BAD_UTF8, "{}", NULL, NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "{}", NULL, "\"link\"", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "{}", NULL, "{\"link\":1}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "{}", NULL, "{\"merge_token\":7}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    /* Linking needs a signed-in user. */
    CHECK_FAILS_OUT(J.client_social_sign_in_native(client, "google", "{}", NULL, "{\"link\":true}", &out), out,
                    JUMP_E_NOT_SIGNED_IN);

    /* Registration, merge, linked profiles, unlink, token URL. */
    CHECK_FAILS_OUT(J.client_register_social(NULL, "t", "{}", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_register_social(client, NULL, "{}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, "", "{}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, BAD_UTF8, "{}", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, "t", NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, "t", "[]", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_register_social(client, "t", "{", &out), out, JUMP_E_INVALID_ARGUMENT);
    /* A token Capture never saw. */
    CHECK(J.client_register_social(client, "0123456789012345678901234567890123456789",
                                   "{\"email\":\"never@example.com\"}", &out) != JUMP_OK);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    CHECK_FAILS_OUT(J.client_sign_in_merge(NULL, "a@example.com", "pw123456", "m", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_sign_in_merge(client, "a@example.com", "pw123456", NULL, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_sign_in_merge(client, "a@example.com", "pw123456", "", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_sign_in_merge(client, NULL, "pw123456", "m", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_sign_in_merge(client, "a@example.com", BAD_UTF8, "m", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_linked_profiles(NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_linked_profiles(client, &out), out, JUMP_E_NOT_SIGNED_IN);
    CHECK_STATUS(J.client_linked_profiles(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_unlink_account(NULL, "x"), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_unlink_account(client, NULL), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_unlink_account(client, BAD_UTF8), JUMP_E_INVALID_ARGUMENT);
    CHECK_STATUS(J.client_unlink_account(client, "https://x.example/1"), JUMP_E_NOT_SIGNED_IN);
    CHECK_STATUS(J.client_set_token_url(NULL, NULL), JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_set_token_url(client, BAD_UTF8), JUMP_E_INVALID_ARGUMENT);

    /* Async starts refused: the status, and the callback once with it. */
    CHECK_ASYNC_REFUSED(J.client_social_complete_async(NULL, "x", recorder_callback, &r_, recorder_free, NULL),
                        JUMP_E_INVALID_HANDLE);
    CHECK_ASYNC_REFUSED(J.client_social_complete_async(client, NULL, recorder_callback, &r_, recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_social_sign_in_native_async(client, "google", BAD_UTF8, NULL, NULL, recorder_callback,
                                                             &r_, recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_social_sign_in_native_async(client, "google", "{}", NULL, "[]", recorder_callback, &r_,
                                                             recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_register_social_async(client, "t", "7", recorder_callback, &r_, recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_sign_in_merge_async(client, "a@example.com", "pw123456", NULL, recorder_callback, &r_,
                                                     recorder_free, NULL),
                        JUMP_E_INVALID_ARGUMENT);
    CHECK_ASYNC_REFUSED(J.client_unlink_account_async(NULL, "x", recorder_callback, &r_, recorder_free, NULL),
                        JUMP_E_INVALID_HANDLE);

    /* A freed client handle. */
    freed = social_client(NULL);
    REQUIRE(freed != NULL);
    J.client_free(freed);
    CHECK_FAILS_OUT(J.client_providers(freed, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_begin(freed, "google", NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_complete(freed, "http://127.0.0.1/?state=x", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_sign_in_native(freed, "google", "{}", NULL, NULL, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_linked_profiles(freed, &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_STATUS(J.client_unlink_account(freed, "x"), JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_share_content(freed, "{\"action\":\"a\"}", &out), out, JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_share(freed, "{\"action\":\"a\"}", "[\"facebook\"]", &out), out, JUMP_E_INVALID_HANDLE);

    /* Sharing arguments. */
    CHECK_FAILS_OUT(J.client_share(client, NULL, "[\"facebook\"]", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share(client, "{\"action\":\"a\"}", NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share(client, "{\"url\":\"https://example.com\"}", "[\"facebook\"]", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share(client, "{\"action\":\"a\"}", "{\"facebook\":1}", &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share(client, "[]", "[\"facebook\"]", &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share_content(client, NULL, &out), out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_share_content(client, "{\"action\":", &out), out, JUMP_E_INVALID_ARGUMENT);
    /* Loopback arguments. */
    CHECK_FAILS_OUT(J.client_social_sign_in_loopback(client, "google", NULL, NULL, NULL, 1000, &out), out,
                    JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_loopback(NULL, "google", NULL, NULL, NULL, 1000, &out), out,
                    JUMP_E_INVALID_HANDLE);
    CHECK_FAILS_OUT(J.client_social_sign_in_loopback(client, "google", "{\"redirect_uri\":\"http://127.0.0.1:1/x\"}",
                                                     refuse_open, NULL, 1000, &out),
                    out, JUMP_E_INVALID_ARGUMENT);
    CHECK_FAILS_OUT(J.client_social_sign_in_loopback(client, "google", NULL, refuse_open, NULL, 5000, &out), out,
                    JUMP_E_UNSUPPORTED);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    J.client_free(client);
}

/* ---- sharing ----------------------------------------------------------------------------------------------- */

/* GET /emulator/engage/activities -> the array (new reference) or NULL. */
static json_t *activities(void) {
    json_t *reply = emu_call("GET", "/emulator/engage/activities", NULL, NULL);
    json_t *list = json_object_get(reply, "activities");
    if (list != NULL) json_incref(list);
    json_decref(reply);
    return list;
}

/* A client signed in through the browser with facebook (thin registration) and twitter linked, so it holds
 * both device tokens. */
static jump_client *sharing_client(char **facebook_identifier) {
    jump_client *client = social_client(THIN);
    char *email = unique_email("share"), *location;
    json_t *result = NULL;
    if (facebook_identifier != NULL) *facebook_identifier = NULL;
    if (client == NULL) return NULL;
    location = browser_new(client, "facebook", NULL, "Sha Re", email);
    if (location == NULL || complete(client, location, &result) != JUMP_OK) {
        printf("    the facebook browser sign-in failed: %s\n", J.error_last());
        free(location);
        free(email);
        J.client_free(client);
        return NULL;
    }
    if (facebook_identifier != NULL) *facebook_identifier = dup_or_null(json_str(result, "identifier"));
    json_decref(result);
    free(location);
    location = browser_new(client, "twitter", "{\"link\":true}", "Sha Re", email);
    if (location == NULL || complete(client, location, &result) != JUMP_OK) {
        printf("    linking twitter through the browser failed: %s\n", J.error_last());
        free(location);
        free(email);
        J.client_free(client);
        return NULL;
    }
    json_decref(result);
    free(location);
    free(email);
    return client;
}

TEST(share_activity_and_status_reach_the_providers) {
    jump_client *client;
    json_t *result, *list, *entry;
    char *out = NULL, *fb_identifier = NULL;
    size_t i;
    int saw_activity = 0, saw_status = 0;
    REQUIRE_EMULATOR();
    client = sharing_client(&fb_identifier);
    REQUIRE(client != NULL);
    emu_call("DELETE", "/emulator/engage/activities", NULL, NULL);

    REQUIRE_OK(J.client_share(client,
                              "{\"action\":\"read an article\",\"url\":\"https://news.example/a/1\","
                              "\"title\":\"Article\",\"user_generated_content\":\"worth it\"}",
                              "[\"facebook\",\"twitter\"]", &out));
    result = take_json(out);
    CHECK_MSG(json_is_true(json_object_get(json_object_get(json_object_get(result, "results"), "facebook"), "ok")) &&
                  str_is(json_object_get(json_object_get(result, "results"), "facebook"), "method", "activity"),
              "share result %s", dump(result));
    CHECK_MSG(str_is(json_object_get(json_object_get(result, "results"), "twitter"), "method", "activity"),
              "twitter with a url: %s", dump(result));
    json_decref(result);

    /* Twitter uses set_status when there is no URL. */
    REQUIRE_OK(J.client_share(client, "{\"action\":\"is thinking\",\"user_generated_content\":\"hello world\"}",
                              "[\"twitter\"]", &out));
    result = take_json(out);
    CHECK_MSG(str_is(json_object_get(json_object_get(result, "results"), "twitter"), "method", "set_status"),
              "twitter without a url: %s", dump(result));
    json_decref(result);

    list = activities();
    for (i = 0; i < json_array_size(list); i++) {
        entry = json_array_get(list, i);
        if (str_is(entry, "provider", "facebook") && str_is(entry, "kind", "activity") &&
            str_is(json_object_get(entry, "activity"), "action", "read an article"))
            saw_activity++;
        if (str_is(entry, "provider", "twitter") && str_is(entry, "kind", "status")) saw_status++;
        if (str_is(entry, "provider", "facebook") && fb_identifier != NULL)
            CHECK_MSG(str_is(entry, "identifier", fb_identifier), "the facebook share went out as %s",
                      str_or(entry, "identifier"));
    }
    CHECK_MSG(saw_activity == 1 && saw_status == 1 && json_array_size(list) == 3, "the emulator recorded %s",
              list ? dump(list) : "(nothing)");
    json_decref(list);
    free(fb_identifier);
    J.client_free(client);
}

TEST(share_failure_is_classified_per_provider) {
    jump_client *client;
    json_t *detail, *results, *failed, *list;
    char *out = NULL;
    REQUIRE_EMULATOR();
    client = sharing_client(NULL);
    REQUIRE(client != NULL);
    emu_call("DELETE", "/emulator/engage/activities", NULL, NULL);
    json_decref(emu_call("POST", "/emulator/engage/share_errors",
                         "{\"provider\":\"facebook\",\"code\":4,\"msg\":\"(#341) Feed action request limit reached\"}",
                         NULL));

    CHECK_STATUS(J.client_share(client, "{\"action\":\"shared\",\"url\":\"https://example.com/x\"}",
                                "[\"facebook\",\"twitter\",\"linkedin\"]", &out),
                 JUMP_E_SERVER);
    CHECK(out == NULL);
    detail = error_detail();
    results = json_object_get(detail, "results");
    failed = json_object_get(results, "facebook");
    CHECK_MSG(json_is_false(json_object_get(failed, "ok")) && str_is(failed, "error_class", "rate_limit") &&
                  json_integer_value(json_object_get(failed, "code")) == 4,
              "facebook: %s", dump(detail));
    CHECK_MSG(json_is_true(json_object_get(json_object_get(results, "twitter"), "ok")), "twitter: %s",
              dump(results));
    /* Not signed in with linkedin through the browser: no device token. */
    CHECK_MSG(str_is(json_object_get(results, "linkedin"), "error_class", "not_signed_in"), "linkedin: %s",
              dump(results));
    json_decref(detail);
    list = activities();
    CHECK_MSG(json_array_size(list) == 1 && str_is(json_array_get(list, 0), "provider", "twitter"),
              "recorded %s", list ? dump(list) : "(nothing)");
    json_decref(list);

    /* An unknown device token on the server means: sign in again. */
    json_decref(emu_call("POST", "/emulator/engage/share_errors",
                         "{\"provider\":\"twitter\",\"code\":0,\"msg\":\"Missing parameter: apiKey\"}", NULL));
    CHECK_STATUS(J.client_share(client, "{\"action\":\"shared\",\"url\":\"https://example.com/y\"}", "[\"twitter\"]",
                                &out),
                 JUMP_E_SERVER);
    detail = error_detail();
    CHECK_MSG(str_is(json_object_get(json_object_get(detail, "results"), "twitter"), "error_class", "reauthenticate"),
              "twitter: %s", dump(detail));
    json_decref(detail);
    /* The queue is used up: the next share goes through. */
    CHECK_OK(J.client_share(client, "{\"action\":\"shared\",\"url\":\"https://example.com/z\"}", "[\"facebook\"]",
                            &out));
    J.string_free(out);
    J.client_free(client);
}

TEST(sharing_tokens_survive_a_restart_and_leave_with_sign_out) {
    const char *dir;
    jump_client *client;
    char *email = unique_email("restart"), *location, *out = NULL;
    json_t *result = NULL, *detail;
    jump_status status;
    REQUIRE_EMULATOR();
    dir = emu_tmpdir();
    client = social_client_in(dir, THIN);
    REQUIRE(client != NULL);
    location = browser_new(client, "facebook", NULL, "Re Start", email);
    REQUIRE(location != NULL);
    REQUIRE_OK(complete(client, location, &result));
    json_decref(result);
    free(location);
    J.client_free(client);

    /* The app starts again: still signed in, and still able to share with facebook. */
    client = social_client_in(dir, THIN);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    CHECK_OK(J.client_share(client, "{\"action\":\"came back\",\"url\":\"https://example.com/back\"}", "[\"facebook\"]",
                            &out));
    J.string_free(out);
    /* A native sign-in gives no device token: twitter cannot be shared to. */
    {
        char *tw_email = unique_email("restart.tw"), *tw = profile_token("Tw", tw_email);
        CHECK_OK(native(client, "twitter", tw, "secret-1", "{\"link\":true}", &result));
        json_decref(result);
        CHECK_STATUS(J.client_share(client, "{\"action\":\"x\",\"url\":\"https://example.com/t\"}", "[\"twitter\"]",
                                    &out),
                     JUMP_E_SERVER);
        CHECK(str_is(json_object_get(json_object_get((detail = error_detail()), "results"), "twitter"), "error_class",
                     "not_signed_in"));
        json_decref(detail);
        free(tw);
        free(tw_email);
    }

    /* Signed out: the device tokens go too (in memory and on disk). */
    CHECK_OK(J.client_sign_out(client));
    status = J.client_share(client, "{\"action\":\"gone\",\"url\":\"https://example.com/gone\"}", "[\"facebook\"]", &out);
    CHECK_MSG(status == JUMP_E_NOT_SIGNED_IN || status == JUMP_E_SERVER, "share after sign-out returned %d", (int)status);
    if (status == JUMP_E_SERVER) {
        detail = error_detail();
        CHECK(str_is(json_object_get(json_object_get(detail, "results"), "facebook"), "error_class", "not_signed_in"));
        json_decref(detail);
    }
    J.client_free(client);
    client = social_client_in(dir, THIN);
    REQUIRE(client != NULL);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    status = J.client_share(client, "{\"action\":\"gone\",\"url\":\"https://example.com/gone\"}", "[\"facebook\"]", &out);
    CHECK_MSG(status == JUMP_E_NOT_SIGNED_IN || status == JUMP_E_SERVER, "share after a restart signed out: %d",
              (int)status);
    J.client_free(client);
    free(email);
}

TEST(share_content_shortens_urls_for_email_and_sms) {
    jump_client *client;
    json_t *content, *email, *sms, *urls;
    const char *short_url;
    char *out = NULL;
    http_reply reply;
    REQUIRE_EMULATOR();
    client = social_client(NULL);
    REQUIRE(client != NULL);
    REQUIRE_OK(J.client_share_content(client,
                                      "{\"action\":\"read\",\"title\":\"A title\",\"description\":\"A description\","
                                      "\"url\":\"https://news.example/long/path?id=42\","
                                      "\"email\":{\"subject\":\"Look\",\"message_body\":\"See https://news.example/e\","
                                      "\"urls\":[\"https://news.example/e\"]},"
                                      "\"sms\":{\"message\":\"See this\",\"urls\":[\"https://news.example/s\"]}}",
                                      &out));
    content = take_json(out);
    email = json_object_get(content, "email");
    sms = json_object_get(content, "sms");
    CHECK_MSG(str_is(email, "subject", "Look"), "email %s", dump(email));
    CHECK_MSG(json_str(email, "body") != NULL, "email has no body");
    urls = json_object_get(email, "urls");
    short_url = json_str(urls, "https://news.example/e");
    CHECK_MSG(has_prefix(short_url, emu_url()) && strstr(short_url, "/s/") != NULL, "email urls %s",
              dump(urls));
    if (short_url != NULL && http_raw("GET", short_url, NULL, &reply) == 0) {
        CHECK_MSG(reply.status == 302 && reply.location != NULL && strcmp(reply.location, "https://news.example/e") == 0,
                  "GET %s -> %ld %s", short_url, reply.status, reply.location ? reply.location : "");
        http_reply_free(&reply);
    }
    CHECK_MSG(json_str(sms, "message") != NULL && strstr(json_str(sms, "message"), "See this") != NULL, "sms %s",
              dump(sms));
    CHECK_MSG(has_prefix(json_str(json_object_get(sms, "urls"), "https://news.example/s"), emu_url()), "sms urls %s",
              dump(json_object_get(sms, "urls")));
    json_decref(content);

    /* When get_urls fails the URLs stay long. */
    CHECK(emu_fault("http_500", 5, "/openid/get_urls", 0) == 0);
    REQUIRE_OK(J.client_share_content(client, "{\"action\":\"read\",\"url\":\"https://news.example/kept\"}", &out));
    content = take_json(out);
    {
        char *text = json_dumps(content, JSON_COMPACT);
        CHECK_MSG(text != NULL && strstr(text, "https://news.example/kept") != NULL && strstr(text, "/s/") == NULL,
                  "without shortening: %s", text ? text : "(none)");
        free(text);
    }
    json_decref(content);
    emu_clear_faults();
    J.client_free(client);
}

/* ---- loopback ---------------------------------------------------------------------------------------------- */

typedef struct browser_thread {
    pthread_t thread;
    int started;
    int opened;          /* open_url calls */
    char *url;           /* the sign-in URL it was given */
    char *email;         /* for the identity it makes */
    int press_cancel;    /* cancel on the page instead */
    int probe;           /* first send the listener what a browser or a stray local client also sends */
    long probe_status[2];/* its answers: /favicon.ico, and the callback path with a state it never issued */
    int do_nothing;      /* never visit the URL */
    long landing_status; /* what the listener answered the browser */
    char *landing_url;
    char *landing_body;
} browser_thread;

static void *browser_main(void *arg) {
    browser_thread *b = arg;
    char *location;
    http_reply reply;
    const char *fields[] = {"display_name", "Loop Back", "email", b->email, NULL, NULL};
    if (b->probe) {
        char *token_url = query_param(b->url, "token_url"), *origin, *forged, *slash;
        if (token_url != NULL) {
            origin = strdup(token_url);
            slash = strchr(origin + strlen("http://"), '/');
            if (slash != NULL) *slash = '\0';
            strcat(origin = realloc(origin, strlen(origin) + 16), "/favicon.ico");
            if (http_raw("GET", origin, NULL, &reply) == 0) b->probe_status[0] = reply.status;
            http_reply_free(&reply);
            forged = with_param(token_url, "state", "not-issued-by-libjump");
            forged = realloc(forged, strlen(forged) + 32);
            strcat(forged, "&token=forged0123456789");
            if (http_raw("GET", forged, NULL, &reply) == 0) b->probe_status[1] = reply.status;
            http_reply_free(&reply);
            free(forged);
            free(origin);
            free(token_url);
        }
    }
    location = b->press_cancel ? idp_press_at(__FILE__, __LINE__, b->url, "id", "cancel", NULL, NULL)
                               : idp_press_at(__FILE__, __LINE__, b->url, "id", "create-identity", fields, NULL);
    if (location == NULL) return NULL;
    b->landing_url = location;
    if (http_raw("GET", location, NULL, &reply) == 0) {
        b->landing_status = reply.status;
        b->landing_body = reply.body;
        reply.body = NULL;
    }
    http_reply_free(&reply);
    return NULL;
}

/* jump_open_url_fn: hands the URL to a "browser" on another thread and returns at once. */
static jump_status open_in_browser(void *userdata, const char *url) {
    browser_thread *b = userdata;
    b->opened++;
    free(b->url);
    b->url = strdup(url);
    if (b->do_nothing) return JUMP_OK;
    if (pthread_create(&b->thread, NULL, browser_main, b) != 0) return JUMP_E_INTERNAL;
    b->started = 1;
    return JUMP_OK;
}

static void browser_finish(browser_thread *b) {
    if (b->started) pthread_join(b->thread, NULL);
    b->started = 0;
    free(b->url);
    free(b->email);
    free(b->landing_url);
    free(b->landing_body);
}

TEST(loopback_sign_in_with_the_browser_on_another_thread) {
    jump_client *client;
    browser_thread b;
    char *out = NULL;
    json_t *result;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    memset(&b, 0, sizeof b);
    b.email = unique_email("loopback");
    CHECK_OK(J.client_social_sign_in_loopback(client, "google", NULL, open_in_browser, &b, 20000, &out));
    result = take_json(out);
    CHECK_EQ_INT(b.opened, 1);
    CHECK_MSG(str_is(result, "outcome", "registered") && str_is(result, "provider", "google"), "loopback result %s",
              result ? dump(result) : "(none)");
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    json_decref(result);
    if (b.started) pthread_join(b.thread, NULL);
    b.started = 0;
    CHECK_MSG(b.url != NULL && has_prefix(b.url, emu_url()), "open_url got %s", b.url ? b.url : "(none)");
    {
        char *token_url = query_param(b.url, "token_url");
        CHECK_MSG(has_prefix(token_url, "http://127.0.0.1:"), "the loopback token_url is %s",
                  token_url ? token_url : "(none)");
        free(token_url);
    }
    CHECK_MSG(has_prefix(b.landing_url, "http://127.0.0.1:"), "the browser landed on %s",
              b.landing_url ? b.landing_url : "(none)");
    CHECK_MSG(b.landing_status == 200 && b.landing_body != NULL && b.landing_body[0] != '\0',
              "the listener answered the browser %ld", b.landing_status);
    browser_finish(&b);

    /* Cancelled on the page. */
    CHECK_OK(J.client_sign_out(client));
    memset(&b, 0, sizeof b);
    b.email = unique_email("loopback.cancel");
    b.press_cancel = 1;
    CHECK_STATUS(J.client_social_sign_in_loopback(client, "google", NULL, open_in_browser, &b, 20000, &out),
                 JUMP_E_CANCELLED);
    CHECK(last_detail_is("reason", "user_canceled"));
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    browser_finish(&b);
    J.client_free(client);
}

/* jump_open_url_fn of a host whose "open" blocks until the browser is closed (a console browser, or
 * webbrowser.open with some $BROWSER): it starts the browser, then waits until the sign-in has finished. */
typedef struct blocking_open {
    browser_thread browser;
    jump_client *client;
    int finished_inside; /* the sign-in completed while open_url still ran */
} blocking_open;

static jump_status open_and_block(void *userdata, const char *url) {
    blocking_open *o = userdata;
    int i;
    jump_status status = open_in_browser(&o->browser, url);
    if (status != JUMP_OK) return status;
    for (i = 0; i < 500 && !J.client_is_signed_in(o->client); i++) sleep_ms(10);
    o->finished_inside = J.client_is_signed_in(o->client);
    return JUMP_OK;
}

TEST(loopback_serves_while_open_url_blocks) {
    blocking_open o;
    char *out = NULL;
    json_t *result;
    REQUIRE_EMULATOR();
    memset(&o, 0, sizeof o);
    o.client = social_client(THIN);
    REQUIRE(o.client != NULL);
    o.browser.email = unique_email("blocking");
    CHECK_OK(J.client_social_sign_in_loopback(o.client, "google", NULL, open_and_block, &o, 20000, &out));
    result = take_json(out);
    CHECK_MSG(o.finished_inside, "the sign-in did not finish while open_url blocked (the listener waited for it)");
    CHECK_MSG(str_is(result, "outcome", "registered"), "loopback result %s", result ? dump(result) : "(none)");
    CHECK_EQ_INT(o.browser.landing_status, 200);
    json_decref(result);
    browser_finish(&o.browser);
    J.client_free(o.client);
}

TEST(loopback_listener_is_not_ended_by_stray_requests) {
    jump_client *client;
    browser_thread b;
    char *out = NULL;
    json_t *result;
    jump_status status;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);
    memset(&b, 0, sizeof b);
    b.email = unique_email("loopback.stray");
    b.probe = 1;
    /* Before the browser comes back, the listener gets a favicon request and a callback with a state this
     * client never issued (a stray local client, or a stale tab): neither may end the sign-in. */
    status = J.client_social_sign_in_loopback(client, "google", NULL, open_in_browser, &b, 20000, &out);
    CHECK_MSG(status == JUMP_OK, "the sign-in returned %d after stray requests: %s", (int)status, J.error_last());
    result = take_json(out);
    CHECK_MSG(status != JUMP_OK || str_is(result, "outcome", "registered"), "outcome %s", str_or(result, "outcome"));
    json_decref(result);
    if (b.started) pthread_join(b.thread, NULL);
    b.started = 0;
    CHECK_MSG(b.probe_status[0] == 404, "/favicon.ico -> %ld", b.probe_status[0]);
    CHECK_MSG(b.probe_status[1] >= 400, "a callback with a foreign state -> %ld (the sign-in page said received)",
              b.probe_status[1]);
    CHECK_MSG(b.landing_status == 200, "the real browser landing -> %ld", b.landing_status);
    browser_finish(&b);
    J.client_free(client);
}

TEST(loopback_times_out_when_the_browser_never_comes_back) {
    jump_client *client;
    browser_thread b;
    char *out = NULL;
    double start;
    recorder r;
    jump_request *request = SENTINEL;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);

    /* Nobody comes back: JUMP_E_TIMEOUT after timeout_ms, and nothing is left pending. */
    memset(&b, 0, sizeof b);
    b.do_nothing = 1;
    start = now_ms();
    CHECK_STATUS(J.client_social_sign_in_loopback(client, "google", NULL, open_in_browser, &b, 1500, &out),
                 JUMP_E_TIMEOUT);
    CHECK(out == NULL);
    CHECK_MSG(now_ms() - start >= 1400 && now_ms() - start < 10000, "timed out after %.0f ms", now_ms() - start);
    CHECK_EQ_INT(b.opened, 1);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    /* The listener is gone: the token URL it advertised refuses connections. */
    if (b.url != NULL) {
        char *token_url = query_param(b.url, "token_url");
        http_reply reply;
        if (token_url != NULL) {
            CHECK_MSG(http_raw("GET", token_url, NULL, &reply) != 0, "the listener still answers after the timeout");
            http_reply_free(&reply);
        }
        free(token_url);
    }
    browser_finish(&b);

    /* An async start without open_url is refused through the callback too. */
    recorder_init(&r);
    CHECK_STATUS(J.client_social_sign_in_loopback_async(client, "google", NULL, NULL, 1000, recorder_callback, &r,
                                                        recorder_free, &request),
                 JUMP_E_INVALID_ARGUMENT);
    CHECK(request == NULL);
    CHECK(recorder_wait_calls(&r, 1, 5000));
    CHECK(recorder_wait_frees(&r, 1, 5000));
    recorder_destroy(&r);
    J.client_free(client);
}

/* The async loopback whose callback userdata is also what open_url receives: a struct holding both. */
typedef struct loopback_async {
    recorder r; /* first member: recorder_callback casts userdata to a recorder */
    browser_thread b;
} loopback_async;

static jump_status open_async(void *userdata, const char *url) {
    loopback_async *a = userdata;
    return open_in_browser(&a->b, url);
}

TEST(loopback_async_delivers_the_outcome_and_can_be_cancelled) {
    jump_client *client;
    loopback_async a;
    jump_request *request = NULL;
    json_t *payload;
    double start;
    REQUIRE_EMULATOR();
    client = social_client(THIN);
    REQUIRE(client != NULL);

    memset(&a, 0, sizeof a);
    recorder_init(&a.r);
    a.b.email = unique_email("loopback.async");
    REQUIRE_OK(J.client_social_sign_in_loopback_async(client, "facebook", NULL, open_async, 20000, recorder_callback, &a,
                                                      recorder_free, &request));
    payload = completion_of(&a.r);
    REQUIRE_MSG(payload != NULL, "no completion");
    CHECK_MSG(json_integer_value(json_object_get(payload, "status")) == 0 &&
                  str_is(json_object_get(payload, "result"), "outcome", "registered"),
              "async loopback %s", dump(payload));
    json_decref(payload);
    J.request_free(request);
    CHECK(recorder_wait_frees(&a.r, 1, 5000));
    CHECK_EQ_INT(a.b.opened, 1);
    CHECK_EQ_INT(J.client_is_signed_in(client), 1);
    browser_finish(&a.b);
    recorder_destroy(&a.r);
    CHECK_OK(J.client_sign_out(client));

    /* Cancelled while waiting for the browser. */
    memset(&a, 0, sizeof a);
    recorder_init(&a.r);
    a.b.do_nothing = 1;
    request = NULL;
    REQUIRE_OK(J.client_social_sign_in_loopback_async(client, "google", NULL, open_async, 60000, recorder_callback, &a,
                                                      recorder_free, &request));
    sleep_ms(300);
    start = now_ms();
    CHECK_OK(J.request_cancel(request));
    payload = completion_of(&a.r);
    CHECK_MSG(payload != NULL && json_integer_value(json_object_get(payload, "status")) == JUMP_E_CANCELLED,
              "cancelled loopback: %s", payload ? dump(payload) : "(no completion)");
    CHECK_MSG(now_ms() - start < 5000, "the cancel took %.0f ms", now_ms() - start);
    json_decref(payload);
    J.request_free(request);
    CHECK(recorder_wait_frees(&a.r, 1, 5000));
    CHECK_EQ_INT(a.b.opened, 1);
    CHECK_EQ_INT(J.client_is_signed_in(client), 0);
    browser_finish(&a.b);
    recorder_destroy(&a.r);
    J.client_free(client);
}
