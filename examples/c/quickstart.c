/*
 * quickstart.c - a tour of libjump from C: register, sign in, edit and sync the record, survive an expired
 * access token, restore the session from disk, sign out.
 *
 * Build and run against a local emulator (what `make demo` does):
 *   cc -std=c99 -Wall -Wextra -Werror -O1 -g -Iinclude -o build/bin/quickstart examples/c/quickstart.c -ldl
 *   scripts/with-emulator.sh build/bin/quickstart build/lib/libjump.so
 *
 * The library is loaded with dlopen, so this program needs nothing but libdl at link time. Every function
 * pointer gets its exact type from jump.h (__typeof__), so the compiler still checks every call.
 * The emulator's base URL comes from JUMP_EMULATOR_URL (scripts/with-emulator.sh sets it).
 */
#define _DEFAULT_SOURCE /* mkdtemp, getaddrinfo, nanosleep, dirent with -std=c99 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <dlfcn.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "jump.h"

/* ---------------------------------------------------------------------------------------------------- */
/* The part of the API this program uses, resolved at run time.                                         */
/* ---------------------------------------------------------------------------------------------------- */

#define JUMP_FUNCTIONS(X)                                                                                 \
    X(abi_version) X(version) X(status_str) X(error_last) X(string_free)                                  \
    X(config_new) X(config_set_string) X(config_free)                                                     \
    X(client_new) X(client_free) X(client_is_signed_in) X(client_register_traditional)                    \
    X(client_sign_in) X(client_sign_out) X(client_record) X(client_fetch_record) X(client_sync)           \
    X(client_set_event_callback)                                                                          \
    X(record_get) X(record_get_string) X(record_set_string) X(record_free)

/* jump.name(...) calls jump_name through a pointer of exactly jump_name's type. */
static struct {
#define X(name) __typeof__(&jump_##name) name;
    JUMP_FUNCTIONS(X)
#undef X
} jump;

static void load_library(const char *path) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        exit(1);
    }
    /* memcpy, not a cast: ISO C has no conversion from dlsym's void * to a function pointer (POSIX
     * guarantees the representation is the same). */
#define X(name)                                                                                          \
    {                                                                                                     \
        void *symbol = dlsym(library, "jump_" #name);                                                     \
        if (symbol == NULL) {                                                                             \
            fprintf(stderr, "%s has no jump_" #name " (an older libjump?)\n", path);                     \
            exit(1);                                                                                      \
        }                                                                                                 \
        memcpy(&jump.name, &symbol, sizeof symbol);                                                       \
    }
    JUMP_FUNCTIONS(X)
#undef X
    /* A library with another ABI would misread our arguments: refuse it before calling anything else. */
    if (jump.abi_version() != JUMP_ABI_VERSION) {
        fprintf(stderr, "%s has ABI %d, this program was built for ABI %d\n", path, (int)jump.abi_version(),
                JUMP_ABI_VERSION);
        exit(1);
    }
}

/* ---------------------------------------------------------------------------------------------------- */
/* Failing loudly: the status name, then libjump's JSON detail of the failure.                          */
/* ---------------------------------------------------------------------------------------------------- */

static const char *status_name(jump_status status) {
    static const char *const names[] = {
        "JUMP_OK", "JUMP_E_INVALID_ARGUMENT", "JUMP_E_INVALID_HANDLE", "JUMP_E_NETWORK", "JUMP_E_TIMEOUT",
        "JUMP_E_SERVER", "JUMP_E_NOT_SIGNED_IN", "JUMP_E_BAD_CREDENTIALS", "JUMP_E_MERGE_REQUIRED",
        "JUMP_E_REGISTRATION_REQUIRED", "JUMP_E_VALIDATION", "JUMP_E_NOT_FOUND", "JUMP_E_EXPIRED",
        "JUMP_E_STORAGE", "JUMP_E_CANCELLED", "JUMP_E_UNSUPPORTED", "JUMP_E_BUSY", "JUMP_E_INTERNAL",
        "JUMP_E_CONFLICT", "JUMP_E_ALREADY_SIGNED_IN"}; /* jump.h's order; Tests/abi/check_abi.py compares */
    int index = -(int)status;
    return index >= 0 && index < (int)(sizeof names / sizeof names[0]) ? names[index] : "JUMP_E_(unknown)";
}

/* Call right after the failing call: jump_error_last() is only valid until the next jump_* call. */
static void check(jump_status status, const char *what) {
    if (status == JUMP_OK) return;
    fprintf(stderr, "FAILED: %s: %s (%s)\n  detail: %s\n", what, status_name(status), jump.status_str(status),
            jump.error_last());
    exit(1);
}

static void fail(const char *what) {
    fprintf(stderr, "FAILED: %s\n", what);
    exit(1);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Events arrive on a libjump thread; the main thread only looks at them through these atomics.         */
/* ---------------------------------------------------------------------------------------------------- */

struct events {
    int token_refreshed; /* set (release) once json holds the first token_refreshed event */
    char json[512];
};

static void on_event(void *userdata, const char *json) {
    struct events *events = userdata;
    /* The text is only valid during this call: copy what we want to show later. */
    int first = !__atomic_load_n(&events->token_refreshed, __ATOMIC_ACQUIRE);
    if (first && strstr(json, "\"token_refreshed\"") != NULL) {
        snprintf(events->json, sizeof events->json, "%s", json);
        __atomic_store_n(&events->token_refreshed, 1, __ATOMIC_RELEASE);
    }
}

static int wait_for(int *flag, int timeout_ms) {
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int waited = 0; waited < timeout_ms; waited += 10) {
        if (__atomic_load_n(flag, __ATOMIC_ACQUIRE)) return 1;
        nanosleep(&tick, NULL);
    }
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

/* ---------------------------------------------------------------------------------------------------- */
/* A tiny HTTP/1.1 client for the emulator's admin API (loopback, plain HTTP), so this example needs no  */
/* HTTP library of its own. Returns the HTTP status, or -1.                                              */
/* ---------------------------------------------------------------------------------------------------- */

static int http_post(const char *base_url, const char *path, const char *json_body) {
    char host[256], port[16] = "80", request[1024], response[4096];
    if (sscanf(base_url, "http://%255[^:/]:%15[0-9]", host, port) < 1) return -1;
    struct addrinfo hints = {0}, *address = NULL;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &address) != 0) return -1;
    int fd = socket(address->ai_family, SOCK_STREAM, 0);
    struct timeval timeout = {10, 0}; /* never hang the demo on a stuck emulator */
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    int connected = fd >= 0 && connect(fd, address->ai_addr, address->ai_addrlen) == 0;
    freeaddrinfo(address);
    int length = snprintf(request, sizeof request,
                          "POST %s HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: application/json\r\n"
                          "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                          path, host, port, strlen(json_body), json_body);
    if (!connected || length >= (int)sizeof request || write(fd, request, (size_t)length) != length) {
        if (fd >= 0) close(fd);
        return -1;
    }
    /* Only the status line matters; read until it is complete (the server closes after answering). */
    size_t got = 0;
    ssize_t n;
    while (got < sizeof response - 1 && (n = read(fd, response + got, sizeof response - 1 - got)) > 0) {
        got += (size_t)n;
        response[got] = '\0';
        if (strstr(response, "\r\n") != NULL) break;
    }
    close(fd);
    response[got] = '\0';
    int status = -1;
    return sscanf(response, "HTTP/1.%*d %d", &status) == 1 ? status : -1;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Small helpers around the API.                                                                        */
/* ---------------------------------------------------------------------------------------------------- */

static jump_client *new_client(const char *url, const char *storage_directory, struct events *events) {
    const char *settings[][2] = {
        {"captureDomain", url},           {"captureFlowDomain", url},
        {"captureClientId", "jump-default-client"}, {"captureAppId", "default-app"},
        {"captureFlowName", "standard"},  {"captureLocale", "en-US"},
        {"storageDirectory", storage_directory},
    };
    jump_config *config = NULL;
    check(jump.config_new(&config), "jump_config_new");
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
        check(jump.config_set_string(config, settings[i][0], settings[i][1]), settings[i][0]);
    jump_client *client = NULL;
    check(jump.client_new(config, &client), "jump_client_new");
    jump.config_free(config); /* the client keeps its own copy */
    check(jump.client_set_event_callback(client, on_event, events, NULL), "jump_client_set_event_callback");
    return client;
}

/* One line of "attribute value" pairs from the signed-in user's record (values as JSON). */
static void print_record(jump_client *client, const char *const *paths, size_t count) {
    jump_record *record = NULL;
    check(jump.client_record(client, &record), "jump_client_record");
    for (size_t i = 0; i < count; i++) {
        char *value = NULL;
        check(jump.record_get(record, paths[i], &value), paths[i]);
        printf("%s %s %s", i == 0 ? "" : ",", paths[i] + 1, value);
        jump.string_free(value);
    }
    printf("\n");
    jump.record_free(record);
}

/* A string attribute of the signed-in user's record; the caller frees it with jump.string_free. */
static char *record_string(jump_client *client, const char *path) {
    jump_record *record = NULL;
    char *value = NULL;
    check(jump.client_record(client, &record), "jump_client_record");
    check(jump.record_get_string(record, path, &value), path);
    jump.record_free(record);
    if (value == NULL) fail("a record attribute is null");
    return value;
}

/* The demo's storage directory (a mkdtemp dir), removed at exit, on failure too. */
static char storage[] = "/tmp/jump-quickstart.XXXXXX";

/* Flat: libjump keeps one session file per installation, plus the cached flow. */
static void remove_storage(void) {
    const char *path = storage;
    DIR *directory = opendir(path);
    struct dirent *entry;
    char file[4096];
    while (directory != NULL && (entry = readdir(directory)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        snprintf(file, sizeof file, "%s/%s", path, entry->d_name);
        unlink(file);
    }
    if (directory != NULL) closedir(directory);
    rmdir(path);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *library = argc > 1 ? argv[1] : getenv("JUMP_LIBRARY_PATH");
    if (library == NULL || *library == '\0') library = "build/lib/libjump.so";
    const char *url = getenv("JUMP_EMULATOR_URL");
    if (url == NULL || *url == '\0') fail("JUMP_EMULATOR_URL is not set (run me through scripts/with-emulator.sh)");
    load_library(library);
    printf("libjump %s (ABI %d) from %s, emulator at %s\n", jump.version(), (int)jump.abi_version(), library, url);

    if (mkdtemp(storage) == NULL) fail("mkdtemp");
    atexit(remove_storage);
    struct events events = {0};
    jump_client *client = new_client(url, storage, &events);

    /* 1. Register: the attributes are record attributes; libjump maps them onto the flow's form fields. */
    char email[96], attributes[512];
    const char *password = "correct horse battery";
    snprintf(email, sizeof email, "ann.%ld.%ld@example.com", (long)time(NULL), (long)getpid());
    snprintf(attributes, sizeof attributes,
             "{\"email\":\"%s\",\"givenName\":\"Ann\",\"familyName\":\"Example\","
             "\"displayName\":\"Ann E.\",\"birthday\":\"1990-05-17\"}",
             email);
    char *result = NULL;
    check(jump.client_register_traditional(client, attributes, password, &result), "jump_client_register_traditional");
    char *uuid = record_string(client, "/uuid");
    printf("[1/9] registered %s (uuid %s): %s\n", email, uuid, result);
    jump.string_free(result);
    jump.string_free(uuid);

    /* 2. Sign out (erases the saved session), then sign in with the same credentials. */
    check(jump.client_sign_out(client), "jump_client_sign_out");
    if (jump.client_is_signed_in(client)) fail("still signed in after jump_client_sign_out");
    check(jump.client_sign_in(client, email, password, &result), "jump_client_sign_in");
    printf("[2/9] signed out, then signed in again with email + password: %s\n", result);
    jump.string_free(result);

    /* 3. The record came with the sign-in response: no extra request. */
    printf("[3/9] record:");
    const char *const fields[] = {"/email", "/givenName", "/familyName", "/displayName", "/birthday"};
    print_record(client, fields, sizeof fields / sizeof fields[0]);

    /* 4. Edits are local until sync, which sends only the changed attributes. */
    jump_record *record = NULL;
    check(jump.client_record(client, &record), "jump_client_record");
    check(jump.record_set_string(record, "/aboutMe", "Writes C, reads JSON."), "set /aboutMe");
    check(jump.record_set_string(record, "/givenName", "Annie"), "set /givenName");
    jump.record_free(record);
    check(jump.client_sync(client, &result), "jump_client_sync");
    printf("[4/9] changed aboutMe and givenName, synced; sent: %s\n", result);
    jump.string_free(result);

    /* 5. Access tokens last an hour: move the emulator's clock 2 hours on so ours expires. */
    int http_status = http_post(url, "/emulator/clock", "{\"advance_seconds\":7200}");
    if (http_status != 200) {
        fprintf(stderr, "FAILED: POST %s/emulator/clock answered %d\n", url, http_status);
        return 1;
    }
    printf("[5/9] advanced the emulator clock by 2 hours: the access token has expired\n");

    /* 6. An authorized call: libjump refreshes the token (signed with the refresh secret) and retries. */
    check(jump.client_fetch_record(client), "jump_client_fetch_record");
    if (!wait_for(&events.token_refreshed, 5000)) fail("no token_refreshed event within 5 s of the fetch");
    char *given_name = record_string(client, "/givenName"); /* as the server now has it: our sync landed */
    printf("[6/9] fetched the record (givenName %s) with an expired token: refreshed transparently, event %s\n",
           given_name, events.json);
    jump.string_free(given_name);

    /* 7. A new client with the same storageDirectory picks the session up from disk, without the network. */
    jump.client_free(client);
    struct events restored_events = {0};
    client = new_client(url, storage, &restored_events);
    if (!jump.client_is_signed_in(client)) fail("the new client did not restore the session");
    char *restored_uuid = record_string(client, "/uuid"), *restored_email = record_string(client, "/email");
    printf("[7/9] freed the client; a new one restored the session from %s: uuid %s, email %s\n", storage,
           restored_uuid, restored_email);
    jump.string_free(restored_uuid);
    jump.string_free(restored_email);

    /* 8. Sign out: the session leaves memory and disk. */
    check(jump.client_sign_out(client), "jump_client_sign_out");
    if (jump.client_is_signed_in(client)) fail("still signed in after jump_client_sign_out");
    printf("[8/9] signed out\n");

    jump.client_free(client);
    printf("[9/9] done\n");
    return 0;
}
