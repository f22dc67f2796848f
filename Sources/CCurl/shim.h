#ifndef JUMP_CCURL_SHIM_H
#define JUMP_CCURL_SHIM_H
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

/* curl_easy_setopt / curl_easy_getinfo are variadic, which Swift cannot call: typed wrappers. */
static inline CURLcode jumpi_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode jumpi_curl_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode jumpi_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode jumpi_curl_setopt_write(CURL *h, CURLoption o,
        size_t (*cb)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, o, cb); }
static inline CURLcode jumpi_curl_setopt_blob(CURL *h, CURLoption o, const void *data, size_t len) {
    struct curl_blob blob = {(void *)data, len, CURL_BLOB_COPY};
    return curl_easy_setopt(h, o, &blob);
}
/* libcurl's built-in CA bundle path (CURLINFO_CAINFO, libcurl 7.84+), malloc'd, or NULL when it has none. */
static inline char *jumpi_curl_default_ca_file(void) {
#if LIBCURL_VERSION_NUM >= 0x075400
    char *path = NULL, *copy = NULL;
    CURL *h = curl_easy_init();
    if (h != NULL && curl_easy_getinfo(h, CURLINFO_CAINFO, &path) == CURLE_OK && path != NULL) copy = strdup(path);
    if (h != NULL) curl_easy_cleanup(h);
    return copy;
#else
    return NULL;
#endif
}
static inline CURLMcode jumpi_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLcode jumpi_curl_response_code(CURL *h, long *out) { return curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, out); }
/* Bytes of request headers sent, over every attempt of the transfer: 0 when nothing left. */
static inline CURLcode jumpi_curl_request_size(CURL *h, long *out) { return curl_easy_getinfo(h, CURLINFO_REQUEST_SIZE, out); }
static inline CURLcode jumpi_curl_content_type(CURL *h, char **out) { return curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, out); }

/* 1 when curl_global_init may run while other threads use libcurl (libcurl 7.84+ built thread-safe). */
static inline int jumpi_curl_init_is_thread_safe(void) {
#ifdef CURL_VERSION_THREADSAFE
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && (info->features & CURL_VERSION_THREADSAFE) != 0;
#else
    return 0;
#endif
}

#endif
