/* secret_service.h - libjump's bridge to the Secret Service (org.freedesktop.secrets: gnome-keyring, KWallet,
 * KeePassXC) through libsecret-1, loaded with dlopen at the first use: libjump.so has no link-time dependency
 * on libsecret or GLib, and a machine without them simply has no Secret Service.
 *
 * Every function blocks (D-Bus round trips) and may be called from any thread. Strings returned through
 * out-parameters are malloc'd: free secrets with jumpi_secret_free (it wipes them), messages with free. A
 * process forked after using libsecret cannot use it (GDBus's worker thread stays in the parent): the calls
 * then fail with a message saying so. Attributes of every item: application=libjump, scope, entry. */
#ifndef JUMP_SECRET_SERVICE_H
#define JUMP_SECRET_SERVICE_H

/* Internal to libjump.so: hidden, so the version script's jump_* never exports them. */
#pragma GCC visibility push(hidden)

/* 1 when the Secret Service answers within timeout_ms and its default collection is unlocked; else 0 with
 * *out_reason (why not, and how to fix it). */
int jumpi_secret_available(int timeout_ms, char **out_reason);
/* Stores secret (UTF-8 text) under (scope, entry), replacing any; 0, or -1 with *out_error. */
int jumpi_secret_store(const char *scope, const char *entry, const char *label, const char *secret, char **out_error);
/* 1 with *out_secret, 0 when there is no such item, or -1 with *out_error (locked, no service, ...). */
int jumpi_secret_lookup(const char *scope, const char *entry, char **out_secret, char **out_error);
/* Removes the item; 0 (also when there was none), or -1 with *out_error. */
int jumpi_secret_clear(const char *scope, const char *entry, char **out_error);
/* Wipes and frees a secret returned by jumpi_secret_lookup. */
void jumpi_secret_free(char *secret);

#pragma GCC visibility pop

#endif
