/*
 * client.c - a C app signing its user in through its own backend (app_backend.py) with libjump.
 *
 *   cc -std=c99 -Iinclude -o build/bin/backend_client examples/backend/client.c -ldl -lcurl
 *   backend_client LIBJUMP_SO API_BASE BACKEND_URL STORAGE_DIR USER PASSWORD
 *
 * identify_external_user asks the backend (libcurl) for a sign-in token only when the app user differs
 * from the one libjump restored; then the user's profile is read with jump_client_request.
 */
#define _POSIX_C_SOURCE 200809L
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jump.h"

#define FUNCTIONS(X)                                                                                     \
    X(error_last) X(string_free) X(config_from_json) X(config_free) X(client_new) X(client_free)         \
    X(client_identify_external_user) X(client_status) X(client_request)

static struct {
#define X(name) __typeof__(&jump_##name) name;
    FUNCTIONS(X)
#undef X
} jump;

typedef struct reply {
    char data[8192];
    size_t size;
} reply;

static size_t collect(char *data, size_t size, size_t count, void *userdata) {
    reply *r = userdata;
    size_t n = size * count;
    if (n > sizeof r->data - 1 - r->size) return 0;
    memcpy(r->data + r->size, data, n);
    r->size += n;
    r->data[r->size] = 0;
    return n;
}

typedef struct login {
    const char *backend, *password;
} login;

/* The authenticate callback: POST {backend}/login, hand {"type":"sign_in_token",..} to libjump. */
static jump_status ask_backend(void *userdata, const char *user, jump_storage_sink sink, void *sink_context) {
    login *l = userdata;
    char url[512], body[512], answer[8400];
    const char *token, *end;
    reply r = {{0}, 0};
    long code = 0;
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    CURL *curl = curl_easy_init();
    printf("asking the backend for a sign-in token for %s\n", user);
    snprintf(url, sizeof url, "%s/login", l->backend);
    snprintf(body, sizeof body, "{\"username\":\"%s\",\"password\":\"%s\"}", user, l->password);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
    if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    /* {"sign_in_token": "<base64>"}: the value is the next string after the key (base64 has no quotes). */
    token = strstr(r.data, "\"sign_in_token\"");
    if (code != 200 || token == NULL) return JUMP_E_BAD_CREDENTIALS;
    token = strchr(token + strlen("\"sign_in_token\""), '"');
    if (token == NULL) return JUMP_E_SERVER;
    token++;
    end = strchr(token, '"');
    if (end == NULL) return JUMP_E_SERVER;
    snprintf(answer, sizeof answer, "{\"type\":\"sign_in_token\",\"sign_in_token\":\"%.*s\"}", (int)(end - token), token);
    sink(sink_context, answer, strlen(answer));
    return JUMP_OK;
}

int main(int argc, char **argv) {
    void *library;
    char config_json[1024], *result = NULL, *status = NULL, *response = NULL, path[256];
    const char *user_id;
    jump_config *config = NULL;
    jump_client *client = NULL;
    login l;
    if (argc != 7) {
        fprintf(stderr, "usage: %s LIBJUMP_SO API_BASE BACKEND_URL STORAGE_DIR USER PASSWORD\n", argv[0]);
        return 2;
    }
    library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return fprintf(stderr, "dlopen: %s\n", dlerror()), 1;
#define X(name)                                                                                          \
    *(void **)&jump.name = dlsym(library, "jump_" #name);                                                \
    if (jump.name == NULL) return fprintf(stderr, "missing jump_%s\n", #name), 1;
    FUNCTIONS(X)
#undef X
    curl_global_init(CURL_GLOBAL_DEFAULT);
    snprintf(config_json, sizeof config_json,
             "{\"signInTokenAuthBaseUrl\":\"%s\",\"signInTokenApiBaseUrl\":\"%s\",\"storageDirectory\":\"%s\"}",
             argv[2], argv[2], argv[4]);
    if (jump.config_from_json(config_json, &config) != JUMP_OK || jump.client_new(config, &client) != JUMP_OK)
        return fprintf(stderr, "client: %s\n", jump.error_last()), 1;
    jump.config_free(config);
    l.backend = argv[3];
    l.password = argv[6];
    if (jump.client_identify_external_user(client, argv[5], ask_backend, &l, &result) != JUMP_OK)
        return fprintf(stderr, "identify: %s\n", jump.error_last()), 1;
    printf("identify: %s\n", result);
    jump.client_status(client, &status);
    user_id = strstr(status, "\"user_id\":\"");
    if (user_id == NULL) return fprintf(stderr, "no user in %s\n", status), 1;
    user_id += strlen("\"user_id\":\"");
    snprintf(path, sizeof path, "/v2/user/%.36s/profile", user_id);
    if (jump.client_request(client, "GET", path, NULL, NULL, 0, &response) != JUMP_OK)
        return fprintf(stderr, "request: %s\n", jump.error_last()), 1;
    printf("profile: %s\n", strstr(response, "\"status\":200") ? "200" : response);
    jump.string_free(result);
    jump.string_free(status);
    jump.string_free(response);
    jump.client_free(client);
    curl_global_cleanup();
    return 0;
}
