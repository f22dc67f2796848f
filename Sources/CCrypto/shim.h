#ifndef JUMP_CCRYPTO_SHIM_H
#define JUMP_CCRYPTO_SHIM_H
/* OpenSSL's libcrypto: the HMAC of the refresh signature and base64. libcurl loads libcrypto.so.3 already
 * (libcurl4-openssl), so linking it adds no library to the process; it replaces swift-crypto's BoringSSL
 * copy (1.8 MiB) and FoundationEssentials' base64 (3.4 MiB with the rest of Foundation). */
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/random.h>

/* HMAC-SHA1 of message under key into out (20 bytes); 1 on success, 0 on failure. */
static inline int jumpi_hmac_sha1(const unsigned char *key, int key_length, const unsigned char *message,
                                 size_t message_length, unsigned char out[20]) {
    unsigned int length = 0;
    return HMAC(EVP_sha1(), key, key_length, message, message_length, out, &length) != NULL && length == 20;
}

/* count bytes from the system CSPRNG in one getrandom call (Swift's generator asks for 8 bytes a call); 1 when
 * filled, 0 when the system refused. */
static inline int jumpi_random_bytes(void *out, size_t count) {
    ssize_t got;
    do {
        got = getrandom(out, count, 0);
    } while (got < 0 && errno == EINTR);
    return got >= 0 && (size_t)got == count;
}

#endif
