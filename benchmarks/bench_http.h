/* bench_http.h - what the by-hand sides of bench_signin and bench_many share: a libcurl write callback that
 * collects a response body into a NUL-terminated buffer, form parameters, and the refresh secret libjump
 * makes per sign-in. The including file defines die(what, detail). */
#ifndef JUMP_BENCH_HTTP_H
#define JUMP_BENCH_HTTP_H

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, const char *detail);

struct buffer {
    char *data;
    size_t length;
};

static size_t collect(char *data, size_t size, size_t count, void *userdata) {
    struct buffer *buffer = userdata;
    char *grown = realloc(buffer->data, buffer->length + size * count + 1);
    if (grown == NULL) return 0;
    memcpy(grown + buffer->length, data, size * count);
    buffer->data = grown;
    buffer->length += size * count;
    buffer->data[buffer->length] = '\0';
    return size * count;
}

/* Appends "&name=<url-encoded value>" (keys go out raw, values encoded: docs/protocol.md section 2.1). */
static void add_parameter(CURL *curl, char *body, size_t size, const char *name, const char *value) {
    char *escaped = curl_easy_escape(curl, value, 0);
    size_t used = strlen(body);
    snprintf(body + used, size - used, "%s%s=%s", used ? "&" : "", name, escaped);
    curl_free(escaped);
}

/* A fresh 40-hex-digit refresh secret per sign-in, as libjump makes. */
static void refresh_secret(char out[41]) {
    static FILE *random;
    unsigned char bytes[20];
    if (random == NULL && (random = fopen("/dev/urandom", "rb")) == NULL) die("/dev/urandom", "cannot open");
    if (fread(bytes, 1, sizeof bytes, random) != sizeof bytes) die("/dev/urandom", "short read");
    for (int i = 0; i < 20; i++) snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

#endif
