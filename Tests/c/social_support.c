/* social_support.c - see social_support.h. */
#include "social_support.h"

#include <curl/curl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- small JSON helpers ---------------------------------------------------------------------------------- */

const char *str_or(json_t *object, const char *key) {
    const char *s = json_str(object, key);
    return s != NULL ? s : "(none)";
}

int str_is(json_t *object, const char *key, const char *value) {
    const char *s = json_str(object, key);
    return s != NULL && value != NULL && strcmp(s, value) == 0;
}

int has_prefix(const char *s, const char *prefix) {
    return s != NULL && prefix != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

char *dup_or_null(const char *s) { return s != NULL ? strdup(s) : NULL; }

/* JSON text for a failure message: a few rotating static buffers, so messages need no freeing. */
const char *dump(json_t *json) {
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
int last_detail_is(const char *key, const char *value) {
    char *got = last_detail_string(key);
    int same = got != NULL && strcmp(got, value) == 0;
    free(got);
    return same;
}

/* 1 when a JSON array of objects has an element whose `key` is `value`. */
int array_has_member(json_t *array, const char *key, const char *value) {
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
    return json_text_with_members(extra, more, "social_extra");
}

/* A Capture + Engage client for the emulator, with its own storage directory. */
jump_client *social_client_at(const char *file, int line, const char *more) {
    char *extra = social_extra(more);
    jump_client *client = new_client_at(file, line, NULL, extra);
    free(extra);
    return client;
}

/* The same in a given storage directory (a restart of the app). */
jump_client *social_client_in_at(const char *file, int line, const char *dir, const char *more) {
    char *extra = social_extra(more);
    jump_client *client = new_client_at(file, line, dir, extra);
    free(extra);
    return client;
}

/* An Engage-only client: no captureDomain at all. */
jump_client *engage_only_client(const char *more) {
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
int http_raw(const char *method, const char *url, const char *form_body, http_reply *reply) {
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = NULL;
    emu_body body = {NULL, 0};
    CURLcode rc;
    memset(reply, 0, sizeof *reply);
    if (curl == NULL) return -1;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 20000L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, emu_body_writer);
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

void http_reply_free(http_reply *reply) {
    free(reply->location);
    free(reply->body);
    memset(reply, 0, sizeof *reply);
}

/* The decoded value of query parameter `name` of url (malloc'd) or NULL. */
char *query_param(const char *url, const char *name) {
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
char *with_param(const char *url, const char *name, const char *value) {
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
char *absolute(const char *url_or_path) {
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
char *idp_press_at(const char *file, int line, const char *start_url, const char *attr, const char *value,
                   const char *const *overrides, char **page_out) {
    http_reply page, answer;
    char *body, *action = NULL, *target, *location;
    if (page_out != NULL) *page_out = NULL;
    if (http_raw("GET", start_url, NULL, &page) != 0) {
        support_fail_plain(file, line, "the provider start page could not be fetched: %s", start_url);
        http_reply_free(&page);
        return NULL;
    }
    if (page.status >= 300 && page.status < 400 && page.location != NULL) {
        location = strdup(page.location);
        http_reply_free(&page);
        return location;
    }
    if (page.status != 200) {
        support_fail_plain(file, line, "GET %s -> HTTP %ld: %.300s", start_url, page.status, page.body);
        http_reply_free(&page);
        return NULL;
    }
    body = form_submission(page.body, attr, value, overrides, &action);
    if (body == NULL || action == NULL) {
        support_fail_plain(file, line, "the provider page has no form with a button %s=\"%s\":\n%.2000s", attr,
                           value, page.body);
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
        support_fail_plain(file, line, "POST %s (%s) -> HTTP %ld (Location %s): %.300s", target, body, answer.status,
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
char *idp_create_at(const char *file, int line, const char *url, const char *name, const char *email, char **page) {
    const char *fields[] = {"display_name", name, "email", email, NULL, NULL};
    return idp_press_at(file, line, url, "id", "create-identity", fields, page);
}

/* ---- test identities --------------------------------------------------------------------------------------- */

/* POST /emulator/identities; 0 on success. */
int create_identity(const char *provider, const char *display_name, const char *email, identity *out) {
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
json_t *begin_at(const char *file, int line, jump_client *client, const char *provider, const char *options) {
    char *out = NULL;
    jump_status status = J.client_social_begin(client, provider, options, &out);
    json_t *begun;
    if (status != JUMP_OK) {
        support_fail(file, line, "jump_client_social_begin(%s, %s) returned %d", provider, options ? options : "NULL",
                     (int)status);
        return NULL;
    }
    begun = take_json(out);
    if (json_str(begun, "url") == NULL || json_str(begun, "state") == NULL) {
        support_fail_plain(file, line, "the begin answer lacks url or state");
        json_decref(begun);
        return NULL;
    }
    return begun;
}

/* Begins and signs in on the page with an existing identity (its id) -> the completion URL (malloc'd). */
char *browser_existing_at(const char *file, int line, jump_client *client, const char *provider,
                          const char *options, const identity *ident) {
    json_t *begun = begin_at(file, line, client, provider, options);
    char *location;
    if (begun == NULL) return NULL;
    location = idp_press_at(file, line, json_str(begun, "url"), "value", ident->id, NULL, NULL);
    json_decref(begun);
    return location;
}

/* Begins and creates a new identity on the page -> the completion URL (malloc'd). */
char *browser_new_at(const char *file, int line, jump_client *client, const char *provider, const char *options,
                     const char *name, const char *email) {
    json_t *begun = begin_at(file, line, client, provider, options);
    char *location;
    if (begun == NULL) return NULL;
    location = idp_create_at(file, line, json_str(begun, "url"), name, email, NULL);
    json_decref(begun);
    return location;
}

/* jump_client_social_complete -> (status, result JSON or NULL). */
jump_status complete(jump_client *client, const char *url, json_t **result) {
    char *out = NULL;
    jump_status status = J.client_social_complete(client, url, &out);
    *result = status == JUMP_OK ? take_json(out) : NULL;
    if (status != JUMP_OK && out != NULL) J.string_free(out);
    return status;
}

jump_status native(jump_client *client, const char *provider, const char *token, const char *secret,
                   const char *options, json_t **result) {
    char *out = NULL;
    jump_status status = J.client_social_sign_in_native(client, provider, token, secret, options, &out);
    *result = status == JUMP_OK ? take_json(out) : NULL;
    if (status != JUMP_OK && out != NULL) J.string_free(out);
    return status;
}

/* The provider token the emulator's /signin/oauth_token takes: a JSON profile (malloc'd). */
char *profile_token(const char *display_name, const char *email) {
    json_t *token = json_pack("{s:s, s:s}", "display_name", display_name, "email", email);
    char *text = json_dumps(token, JSON_COMPACT);
    json_decref(token);
    return text;
}

char *identifier_token(const char *identifier) {
    json_t *token = json_pack("{s:s}", "identifier", identifier);
    char *text = json_dumps(token, JSON_COMPACT);
    json_decref(token);
    return text;
}

/* jump_client_linked_profiles (new reference) or NULL. */
json_t *linked(jump_client *client) {
    char *out = NULL;
    if (J.client_linked_profiles(client, &out) != JUMP_OK) return NULL;
    return take_json(out);
}

/* 1 when the client's record view has a /profiles element with this identifier. */
int record_has_identity(jump_client *client, const char *identifier) {
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
int server_user_has_identity(const char *uuid, const char *identifier) {
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

char *state_text(jump_client *client) {
    char *out = NULL, *copy;
    if (J.client_state(client, &out) != JUMP_OK) return strdup("(no state)");
    copy = strdup(out);
    J.string_free(out);
    return copy;
}

/* POST /emulator/merge_conflict (new reference) or NULL. */
json_t *merge_conflict(const char *email, const char *existing_provider, const char *provider) {
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

/* ---- async and out-parameters ------------------------------------------------------------------------------ */

char sentinel_byte;

json_t *completion_of(recorder *r) {
    if (!recorder_wait_calls(r, 1, 30000)) return NULL;
    return recorder_payload(r, 0);
}
