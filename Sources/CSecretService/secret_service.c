/* secret_service.c - the Secret Service through libsecret-1, loaded at run time (secret_service.h says why).
 * libsecret's and GLib's declarations are restated here, as their stable ABI has them, so the build needs
 * neither library nor its headers. Only the non-variadic ("v") password calls are used. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "secret_service.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the ABI of GLib and libsecret that is used ---------------------------------------------------------- */

typedef struct { unsigned int domain; int code; char *message; } GError;
typedef struct GHashTable GHashTable;
typedef unsigned int (*GHashFunc)(const void *);
typedef int (*GEqualFunc)(const void *, const void *);

typedef struct { const char *name; int type; } SecretSchemaAttribute; /* type 0: string */
typedef struct {
    const char *name;
    int flags; /* SECRET_SCHEMA_NONE */
    SecretSchemaAttribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} SecretSchema;

/* How long the check of the default collection may take. libsecret's own calls take no timeout: D-Bus's
 * default (25 s) bounds each of them when a daemon hangs after answering the check (jump.h says so). */
enum { CALL_TIMEOUT_MS = 5000 };

static struct {
    GHashTable *(*hash_table_new)(GHashFunc, GEqualFunc);
    int (*hash_table_insert)(GHashTable *, void *, void *);
    void (*hash_table_unref)(GHashTable *);
    GHashFunc str_hash;
    GEqualFunc str_equal;
    void (*error_free)(GError *);
    void (*object_unref)(void *);
    void *(*bus_get_sync)(int, void *, GError **);
    void (*connection_set_exit_on_close)(void *, int);
    void *(*connection_call_sync)(void *, const char *, const char *, const char *, const char *, void *,
                                  const void *, int, int, void *, GError **);
    void *(*variant_new)(const char *, ...);
    void (*variant_get)(void *, const char *, ...);
    int (*variant_get_boolean)(void *);
    int (*variant_is_of_type)(void *, const void *);
    void (*variant_unref)(void *);
    int (*storev_sync)(const SecretSchema *, GHashTable *, const char *, const char *, const char *, void *, GError **);
    char *(*lookupv_sync)(const SecretSchema *, GHashTable *, void *, GError **);
    int (*clearv_sync)(const SecretSchema *, GHashTable *, void *, GError **);
    void (*password_free)(char *);
    void (*service_disconnect)(void);
} lib;

static const SecretSchema schema = {
    "org.libjump.Secret", 0, {{"application", 0}, {"scope", 0}, {"entry", 0}, {NULL, 0}}, 0, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL,
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure; /* static text; NULL once loaded */
static pthread_mutex_t pid_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t used_by; /* the process that first called libsecret (0: none yet) */

#define FIX "run in a desktop session, or headless under dbus-run-session with gnome-keyring-daemon --unlock " \
            "(or set secretStore to \"file\")"

static void load(void) {
    /* RTLD_NODELETE: libsecret and GLib keep threads and type registrations that must outlive any unload. */
    void *glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    void *gobject = dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    void *gio = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    void *secret = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (glib == NULL || gobject == NULL || gio == NULL || secret == NULL) {
        load_failure = "libsecret-1.so.0 cannot be loaded (install libsecret-1-0, the Secret Service client library)";
        return;
    }
#define SYM(field, handle, name)                                                                            \
    do {                                                                                                     \
        *(void **)&lib.field = dlsym(handle, name);                                                          \
        if (lib.field == NULL) {                                                                             \
            load_failure = "libsecret-1.so.0 or GLib lacks " name " (libsecret 0.18 or later is needed)";  \
            return;                                                                                          \
        }                                                                                                    \
    } while (0)
    SYM(hash_table_new, glib, "g_hash_table_new");
    SYM(hash_table_insert, glib, "g_hash_table_insert");
    SYM(hash_table_unref, glib, "g_hash_table_unref");
    SYM(str_hash, glib, "g_str_hash");
    SYM(str_equal, glib, "g_str_equal");
    SYM(error_free, glib, "g_error_free");
    SYM(object_unref, gobject, "g_object_unref");
    SYM(bus_get_sync, gio, "g_bus_get_sync");
    SYM(connection_set_exit_on_close, gio, "g_dbus_connection_set_exit_on_close");
    SYM(connection_call_sync, gio, "g_dbus_connection_call_sync");
    SYM(variant_new, glib, "g_variant_new");
    SYM(variant_get, glib, "g_variant_get");
    SYM(variant_get_boolean, glib, "g_variant_get_boolean");
    SYM(variant_is_of_type, glib, "g_variant_is_of_type");
    SYM(variant_unref, glib, "g_variant_unref");
    SYM(storev_sync, secret, "secret_password_storev_sync");
    SYM(lookupv_sync, secret, "secret_password_lookupv_sync");
    SYM(clearv_sync, secret, "secret_password_clearv_sync");
    SYM(password_free, secret, "secret_password_free");
    SYM(service_disconnect, secret, "secret_service_disconnect");
#undef SYM
    load_failure = NULL;
}

static char *message(const char *format, const char *detail) {
    char *text = NULL;
    if (asprintf(&text, format, detail ? detail : "") < 0) return NULL;
    return text;
}

/* A GError's message (then freed), prefixed with what failed. */
static char *take_error(const char *what, GError *error) {
    char *text = message(what, error && error->message ? error->message : "unknown error");
    if (error) lib.error_free(error);
    return text;
}

/* Whether a session bus can be reached at all: without one, GDBus would try X11 autolaunch. */
static int has_session_bus(void) {
    const char *address = getenv("DBUS_SESSION_BUS_ADDRESS");
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    char path[4096];
    struct stat st;
    if (address != NULL && address[0] != '\0') return 1;
    if (runtime == NULL || runtime[0] == '\0') return 0;
    snprintf(path, sizeof path, "%s/bus", runtime);
    return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* Loads libsecret and checks this process may use it; NULL, or why not (malloc'd). */
static char *ready(void) {
    pid_t self = getpid();
    int forked;
    /* First: without a bus, GLib is never loaded into the host at all. */
    if (!has_session_bus()) return message("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set): %s", FIX);
    pthread_once(&load_once, load);
    if (load_failure != NULL) return message("%s", load_failure);
    pthread_mutex_lock(&pid_lock);
    if (used_by == 0) used_by = self;
    forked = used_by != self;
    pthread_mutex_unlock(&pid_lock);
    if (forked) {
        return message("this process was forked after its parent used the Secret Service, and libsecret's D-Bus "
                       "connection does not survive a fork: use it in the parent, or exec a new process%s", "");
    }
    return NULL;
}

/* One call to the Secret Service on the session bus, bounded by a timeout; NULL with *error on failure. */
static void *service_call(void *connection, const char *path, const char *interface, const char *method,
                          void *parameters, const char *reply_type, GError **error) {
    return lib.connection_call_sync(connection, "org.freedesktop.secrets", path, interface, method, parameters,
                                    reply_type, 0 /* G_DBUS_CALL_FLAGS_NONE */, CALL_TIMEOUT_MS, NULL, error);
}

/* The default collection's state, asked of the service itself (libsecret's proxies cache the Locked property,
 * which gnome-keyring does not always announce changes of): NULL when unlocked, else why not (malloc'd). */
static char *default_collection_unlocked(void) {
    GError *error = NULL;
    void *connection = lib.bus_get_sync(2 /* G_BUS_TYPE_SESSION */, NULL, &error);
    void *reply, *value;
    const char *path = NULL;
    char *collection;
    int locked;
    if (connection == NULL) return take_error("the D-Bus session bus cannot be reached (%s): " FIX, error);
    /* GLib's shared session-bus connection (libsecret's too) raises SIGTERM in its process when the bus goes
     * away ("exit-on-close"): right for a desktop application, fatal for a host that merely embeds libjump.
     * Turned off here, before every libsecret call (a new connection is made after a bus is lost). */
    lib.connection_set_exit_on_close(connection, 0);
    reply = service_call(connection, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "ReadAlias",
                         lib.variant_new("(s)", "default"), "(o)", &error);
    if (reply == NULL) {
        lib.object_unref(connection);
        return take_error("the Secret Service does not answer (%s): " FIX, error);
    }
    lib.variant_get(reply, "(&o)", &path);
    collection = strdup(path != NULL ? path : "/");
    lib.variant_unref(reply);
    if (collection == NULL || strcmp(collection, "/") == 0) {
        free(collection);
        lib.object_unref(connection);
        return message("the Secret Service has no default collection (a keyring daemon creates it at the first "
                       "unlock): %s", FIX);
    }
    reply = service_call(connection, collection, "org.freedesktop.DBus.Properties", "Get",
                         lib.variant_new("(ss)", "org.freedesktop.Secret.Collection", "Locked"), "(v)", &error);
    free(collection);
    lib.object_unref(connection);
    if (reply == NULL) return take_error("the Secret Service's default collection cannot be read (%s)", error);
    lib.variant_get(reply, "(v)", &value);
    locked = !lib.variant_is_of_type(value, "b") || lib.variant_get_boolean(value); /* unknown: locked */
    lib.variant_unref(value);
    lib.variant_unref(reply);
    if (locked) {
        return message("the Secret Service's default collection is locked: unlock it (log in to the desktop "
                       "session, or gnome-keyring-daemon --unlock)%s", "");
    }
    return NULL;
}

/* libsecret keeps one proxy of the service for the process, bound to the daemon that answered first: after that
 * daemon restarts, every call fails ("The name :1.x was not provided by any .service files", "The session
 * wrapping the secret does not exist"). On such an error the proxy is dropped and the call made once more
 * (true: *error was cleared, retry). */
static int forget_stale_service(GError **error) {
    static const char *const stale[] = {"was not provided by any", "ServiceUnknown", "NameHasNoOwner",
                                        "UnknownObject", "No such object", "No such interface", "does not exist"};
    const char *text = (*error != NULL && (*error)->message != NULL) ? (*error)->message : "";
    size_t i;
    int known = 0;
    for (i = 0; i < sizeof stale / sizeof stale[0]; i++) known |= strstr(text, stale[i]) != NULL;
    if (!known) return 0; /* a refusal or a timeout: said as it is, not tried again */
    if (*error != NULL) {
        lib.error_free(*error);
        *error = NULL;
    }
    lib.service_disconnect();
    return 1;
}

static GHashTable *attributes(const char *scope, const char *entry) {
    GHashTable *table = lib.hash_table_new(lib.str_hash, lib.str_equal);
    if (table == NULL) return NULL;
    lib.hash_table_insert(table, (void *)"application", (void *)"libjump");
    lib.hash_table_insert(table, (void *)"scope", (void *)scope);
    lib.hash_table_insert(table, (void *)"entry", (void *)entry);
    return table;
}

/* ---- the availability probe, bounded by a timeout ------------------------------------------------------- */

typedef struct probe {
    pthread_mutex_t lock;
    pthread_cond_t done_changed;
    int done;
    int refs; /* the caller's and the thread's: the caller may stop waiting first */
    char *reason;
} probe;

static void probe_release(probe *p) {
    int last;
    pthread_mutex_lock(&p->lock);
    last = --p->refs == 0;
    pthread_mutex_unlock(&p->lock);
    if (!last) return;
    free(p->reason);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->done_changed);
    free(p);
}

static void *probe_main(void *arg) {
    probe *p = arg;
    char *reason = default_collection_unlocked();
    pthread_mutex_lock(&p->lock);
    p->reason = reason;
    p->done = 1;
    pthread_cond_broadcast(&p->done_changed);
    pthread_mutex_unlock(&p->lock);
    probe_release(p);
    return NULL;
}

int jumpi_secret_available(int timeout_ms, char **out_reason) {
    char *why = ready();
    probe *p;
    pthread_t thread;
    pthread_attr_t attr;
    struct timespec until;
    int ok;
    *out_reason = NULL;
    if (why != NULL) {
        *out_reason = why;
        return 0;
    }
    if ((p = calloc(1, sizeof *p)) == NULL) {
        *out_reason = message("out of memory%s", "");
        return 0;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->done_changed, NULL);
    p->refs = 2;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 << 10);
    if (pthread_create(&thread, &attr, probe_main, p) != 0) {
        pthread_attr_destroy(&attr);
        p->refs = 1;
        probe_release(p);
        *out_reason = message("no thread for the Secret Service probe%s", "");
        return 0;
    }
    pthread_attr_destroy(&attr);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec += 1;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&p->lock);
    while (!p->done) {
        if (pthread_cond_timedwait(&p->done_changed, &p->lock, &until) == ETIMEDOUT) break;
    }
    if (!p->done) {
        if (asprintf(out_reason, "the Secret Service did not answer within %d ms: " FIX, timeout_ms) < 0) *out_reason = NULL;
        ok = 0;
    } else if (p->reason != NULL) {
        *out_reason = p->reason;
        p->reason = NULL;
        ok = 0;
    } else {
        ok = 1;
    }
    pthread_mutex_unlock(&p->lock);
    probe_release(p);
    return ok;
}

/* ---- items ----------------------------------------------------------------------------------------------- */

int jumpi_secret_store(const char *scope, const char *entry, const char *label, const char *secret, char **out_error) {
    GHashTable *table;
    GError *error = NULL;
    int stored;
    *out_error = ready();
    if (*out_error == NULL) *out_error = default_collection_unlocked();
    if (*out_error != NULL) return -1;
    if ((table = attributes(scope, entry)) == NULL) {
        *out_error = message("out of memory%s", "");
        return -1;
    }
    stored = lib.storev_sync(&schema, table, NULL, label, secret, NULL, &error);
    if (!stored && forget_stale_service(&error)) stored = lib.storev_sync(&schema, table, NULL, label, secret, NULL, &error);
    lib.hash_table_unref(table);
    if (!stored) {
        *out_error = take_error("the Secret Service refused to store the item (%s)", error);
        return -1;
    }
    if (error != NULL) lib.error_free(error);
    return 0;
}

int jumpi_secret_lookup(const char *scope, const char *entry, char **out_secret, char **out_error) {
    GHashTable *table;
    GError *error = NULL;
    char *found;
    *out_secret = NULL;
    *out_error = ready();
    /* A locked collection would make libsecret ask for a prompt; refused here instead, with the reason. */
    if (*out_error == NULL) *out_error = default_collection_unlocked();
    if (*out_error != NULL) return -1;
    if ((table = attributes(scope, entry)) == NULL) {
        *out_error = message("out of memory%s", "");
        return -1;
    }
    found = lib.lookupv_sync(&schema, table, NULL, &error);
    if (error != NULL && forget_stale_service(&error)) found = lib.lookupv_sync(&schema, table, NULL, &error);
    lib.hash_table_unref(table);
    if (error != NULL) {
        if (found != NULL) lib.password_free(found);
        *out_error = take_error("the Secret Service could not be read (%s)", error);
        return -1;
    }
    if (found == NULL) return 0;
    *out_secret = strdup(found);
    lib.password_free(found);
    if (*out_secret == NULL) {
        *out_error = message("out of memory%s", "");
        return -1;
    }
    return 1;
}

int jumpi_secret_clear(const char *scope, const char *entry, char **out_error) {
    GHashTable *table;
    GError *error = NULL;
    *out_error = ready();
    if (*out_error == NULL) *out_error = default_collection_unlocked();
    if (*out_error != NULL) return -1;
    if ((table = attributes(scope, entry)) == NULL) {
        *out_error = message("out of memory%s", "");
        return -1;
    }
    lib.clearv_sync(&schema, table, NULL, &error); /* FALSE without an error: there was nothing to remove */
    if (error != NULL && forget_stale_service(&error)) lib.clearv_sync(&schema, table, NULL, &error);
    lib.hash_table_unref(table);
    if (error != NULL) {
        *out_error = take_error("the Secret Service could not remove the item (%s)", error);
        return -1;
    }
    return 0;
}

void jumpi_secret_free(char *secret) {
    if (secret == NULL) return;
    explicit_bzero(secret, strlen(secret));
    free(secret);
}
