/*
 * pinless_curl.c - an LD_PRELOAD shim for test_tls_proxy.py: libcurl as built on a TLS backend without public
 * key pinning, whose curl_easy_setopt answers CURLOPT_PINNEDPUBLICKEY with CURLE_NOT_BUILT_IN (and does not
 * pin). Every other option goes to the real libcurl, found through the already loaded libcurl.so.4 (libjump's
 * dependency, loaded local to it: RTLD_NEXT from here would not see it).
 */
#define _GNU_SOURCE
#define CURL_DISABLE_TYPECHECK /* this file defines curl_easy_setopt itself */
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdarg.h>

CURLcode curl_easy_setopt(CURL *handle, CURLoption option, ...) {
    static CURLcode (*real)(CURL *, CURLoption, ...);
    if (real == NULL) {
        void *curl = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_NOLOAD);
        if (curl == NULL) curl = dlopen("libcurl.so.4", RTLD_LAZY);
        if (curl != NULL) real = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(curl, "curl_easy_setopt");
        if (real == NULL) return CURLE_FAILED_INIT;
    }
    if (option == CURLOPT_PINNEDPUBLICKEY) return CURLE_NOT_BUILT_IN;
    va_list args;
    va_start(args, option);
    CURLcode code;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        code = real(handle, option, va_arg(args, long));
    } else if (option >= CURLOPTTYPE_OFF_T && option < CURLOPTTYPE_BLOB) {
        code = real(handle, option, va_arg(args, curl_off_t));
    } else {
        code = real(handle, option, va_arg(args, void *));
    }
    va_end(args);
    return code;
}
