/*
 * jump_addon.c - the Node.js addon of libjump: a thin N-API layer under bindings/node/index.js (addon.h lists
 * the other files).
 *
 * One NativeClient wraps one jump_client in queue mode (jump_client_use_event_queue). Completions and events
 * wait in libjump's queue; a uv_poll_t on the queue's fd (jump_client_event_fd, readable exactly while
 * something waits) wakes the Node event loop, which pumps jump_client_next_event on the JS thread and hands
 * the documents, as JSON text, to the object's "ondocument" function. So no JavaScript runs on a libjump thread
 * for them. What libjump itself calls back (storage, authenticate, openUrl, the log) goes through bridge.c; the
 * blocking calls without an _async form run on threads of work.c.
 *
 * N-API version 8 only (type tags): one build serves every Node.js with N-API >= 8. libjump is linked
 * (-ljump, rpath $ORIGIN/../lib), so the header's prototypes are checked by the compiler.
 *
 * Layer 4 of 4 (entry), the top: the module's init and NativeClient; calls any layer below, none calls it.
 */
#include "addon.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* At most this many documents per wake-up; the poll is level-triggered, so the rest come on the next turn
 * and timers and I/O are not starved by a flood of events. */
#define PUMP_BATCH 256

/* ---- the poll: pumping the queue on the loop thread ---------------------------------------------------- */

static void free_poll(uv_handle_t *handle) { free(handle); }

/* Safe to repeat; no napi call, so it also serves the finalizer and the env cleanup hook (quiet). The poll stops
 * before jump_client_free closes the fd: libuv must never watch a closed (and maybe reused) descriptor. */
void shut(addon_client *c, int quiet) {
    jump_client *client = NULL;
    if (c->poll != NULL) {
        uv_poll_stop(c->poll);
        uv_close((uv_handle_t *)c->poll, free_poll);
        c->poll = NULL;
    }
    pthread_mutex_lock(bridge_lock(c->bridge));
    if (c->client != NULL) {
        /* A call still running on a thread of work.c uses the client: the last of them frees it instead. */
        if (c->busy > 0) c->doomed = c->client;
        else client = c->client;
        c->client = NULL;
    }
    pthread_mutex_unlock(bridge_lock(c->bridge));
    if (client != NULL) free_jump_client(c, client, quiet);
}

static void free_client(addon_client *c) {
    bridge_unref(c->bridge);
    free(c);
}

/* Up to PUMP_BATCH documents off the queue, in one guarded call. */
typedef struct pumped {
    jump_client *client;
    char *texts[PUMP_BATCH];
    uint32_t count;
} pumped;

static jump_status take_documents(void *p) {
    pumped *d = p;
    while (d->count < PUMP_BATCH && jump_client_next_event(d->client, &d->texts[d->count]) == JUMP_OK) d->count++;
    return JUMP_OK; /* JUMP_E_NOT_FOUND ended it: drained */
}

static void on_readable(uv_poll_t *poll, int status, int events) {
    addon_client *c = poll->data;
    napi_env env = c->env;
    napi_handle_scope scope;
    napi_value self = NULL, handler = NULL, batch = NULL, result;
    napi_valuetype type = napi_undefined;
    pumped documents = {.count = 0};
    uint32_t count = 0;
    (void)status;
    (void)events;
    if (c->client == NULL || napi_open_handle_scope(env, &scope) != napi_ok) return;
    if (napi_get_reference_value(env, c->self, &self) != napi_ok || self == NULL ||
        napi_get_named_property(env, self, "ondocument", &handler) != napi_ok ||
        napi_typeof(env, handler, &type) != napi_ok || napi_create_array(env, &batch) != napi_ok)
        type = napi_undefined;
    /* Drain even without a handler: the fd stays readable while documents wait, and would spin the loop. */
    documents.client = c->client;
    guarded(c, take_documents, &documents);
    for (uint32_t i = 0; i < documents.count; i++) {
        napi_value item;
        if (type == napi_function && napi_create_string_utf8(env, documents.texts[i], NAPI_AUTO_LENGTH, &item) == napi_ok &&
            napi_set_element(env, batch, count, item) == napi_ok)
            count++;
        jump_string_free(documents.texts[i]);
    }
    /* napi_make_callback, not napi_call_function: it opens a callback scope, so the promises resolved here run
     * their continuations (microtasks, nextTicks) when it returns, as for any I/O callback. */
    if (count > 0 && napi_make_callback(env, NULL, self, handler, 1, &batch, &result) == napi_pending_exception) {
        napi_value error;
        if (napi_get_and_clear_last_exception(env, &error) == napi_ok) napi_fatal_exception(env, error);
    }
    napi_close_handle_scope(env, scope);
}

/* ---- lifetime ------------------------------------------------------------------------------------------ */

/* The environment is going away (process exit, worker end) while the client is open: stop the poll while the
 * loop still exists. The finalizer, which may run later, then finds it shut. */
static void cleanup_hook(void *arg) {
    addon_client *c = arg;
    c->hook = 0;
    shut(c, 1);
}

static void finalize(napi_env env, void *data, void *hint) {
    addon_client *c = data;
    int orphaned;
    (void)hint;
    if (c->hook) napi_remove_env_cleanup_hook(env, cleanup_hook, c);
    c->hook = 0;
    shut(c, 1);
    if (c->self != NULL) napi_delete_reference(env, c->self);
    c->self = NULL;
    if (c->bound != NULL) {
        c->bound->c = NULL;
        drop_cell(c->bound);
        c->bound = NULL;
    }
    /* Busy only at environment teardown (running work holds self strongly otherwise): the last of it frees c. */
    pthread_mutex_lock(bridge_lock(c->bridge));
    orphaned = c->busy > 0;
    c->orphaned = orphaned;
    pthread_mutex_unlock(bridge_lock(c->bridge));
    if (!orphaned) free_client(c);
}

/* The storage handler id of new NativeClient's second argument: 0 for none (undefined). */
static int storage_arg(napi_env env, napi_value value, uint32_t *id) {
    napi_valuetype type = napi_undefined;
    *id = 0;
    if (napi_typeof(env, value, &type) == napi_ok && type == napi_undefined) return 1;
    if (type != napi_number || napi_get_value_uint32(env, value, id) != napi_ok || *id == 0) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "storage must be a handler id");
        return 0;
    }
    return 1;
}

/* jump_client_new in queue mode, and the queue's fd. */
typedef struct new_ctx {
    addon_client *c;
    jump_config *config;
    int fd;
} new_ctx;

static jump_status new_client(void *p) {
    new_ctx *n = p;
    jump_status status = jump_client_new(n->config, &n->c->client);
    if (status == JUMP_OK) status = jump_client_use_event_queue(n->c->client, 1);
    if (status == JUMP_OK) status = jump_client_event_fd(n->c->client, &n->fd);
    return status;
}

/* new NativeClient(configJson, storageHandlerId?) */
static napi_value client_new(napi_env env, napi_callback_info info) {
    size_t argc = 2;
    napi_value argv[2], self, target;
    addon_client *c;
    new_ctx made = {NULL, NULL, -1};
    jump_status status;
    uv_loop_t *loop = NULL;
    uint32_t storage = 0;
    char *json;
    if (napi_get_cb_info(env, info, &argc, argv, &self, NULL) != napi_ok) {
        throw_napi(env, "cannot read the call's arguments");
        return NULL;
    }
    if (napi_get_new_target(env, info, &target) != napi_ok || target == NULL) {
        napi_throw_type_error(env, "ERR_CONSTRUCT_CALL_REQUIRED", "NativeClient must be called with new");
        return NULL;
    }
    if (argc < 1) argv[0] = undefined(env);
    if (argc < 2) argv[1] = undefined(env);
    if (!storage_arg(env, argv[1], &storage) || (json = string_arg(env, argv[0], "config")) == NULL) return NULL;
    if ((c = calloc(1, sizeof *c)) == NULL || (c->bridge = bridge_of(env)) == NULL) {
        free(c);
        free_secret(json);
        throw_napi(env, "out of memory");
        return NULL;
    }
    c->env = env;
    bridge_ref(c->bridge);
    made.c = c;
    status = jump_config_from_json(json, &made.config);
    free_secret(json);
    if (status == JUMP_OK && storage != 0 && (status = bridge_set_storage(c->bridge, made.config, storage)) == JUMP_OK) {
        c->armed = 1; /* before jump_client_new, which loads the saved session through it */
    }
    if (status == JUMP_OK) status = guarded(c, new_client, &made);
    if (status != JUMP_OK) {
        napi_value error = failure(env, status); /* before jump_config_free, which may replace the last error */
        jump_config_free(made.config);
        if (error != NULL) napi_throw(env, error);
        shut(c, 0);
        free_client(c);
        return NULL;
    }
    jump_config_free(made.config);
    if (napi_get_uv_event_loop(env, &loop) != napi_ok || (c->poll = calloc(1, sizeof *c->poll)) == NULL) {
        shut(c, 0);
        free_client(c);
        throw_napi(env, "no event loop");
        return NULL;
    }
    if (uv_poll_init(loop, c->poll, made.fd) != 0) {
        free(c->poll);
        c->poll = NULL;
        shut(c, 0);
        free_client(c);
        throw_napi(env, "cannot poll the client's event fd");
        return NULL;
    }
    c->poll->data = c;
    /* Watching always, so events reach listeners whenever the loop runs; unref'ed so an idle client does not
     * keep the process alive (set_active refs it while a request is pending). */
    uv_poll_start(c->poll, UV_READABLE, on_readable);
    uv_unref((uv_handle_t *)c->poll);
    if (napi_wrap(env, self, c, finalize, NULL, &c->self) != napi_ok) {
        shut(c, 0);
        free_client(c);
        throw_napi(env, "cannot wrap the client");
        return NULL;
    }
    /* From here the finalizer owns c. */
    if (napi_type_tag_object(env, self, &CLIENT_TAG) != napi_ok) {
        throw_napi(env, "cannot tag the client");
        return NULL;
    }
    if (napi_add_env_cleanup_hook(env, cleanup_hook, c) == napi_ok) c->hook = 1;
    bind_hot_methods(env, self, c);
    return self;
}

/* setActive(bool): a request is pending (true) or none is (false). While one is, the poll keeps the loop alive
 * and the JS object is held strongly, so its ondocument (and through it the promises) cannot be collected
 * before the completion arrives; otherwise the object stays collectable and its finalizer frees the client. */
static napi_value client_set_active(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    bool on = false;
    uint32_t refs;
    addon_client *c = receiver(env, info, 1, argv);
    if (c == NULL) return NULL;
    if (napi_get_value_bool(env, argv[0], &on) != napi_ok) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "active must be a boolean");
        return NULL;
    }
    if (c->poll == NULL || (on ? 1 : 0) == c->active) return undefined(env);
    if (on) {
        if (napi_reference_ref(env, c->self, &refs) != napi_ok) {
            throw_napi(env, "cannot hold the client");
            return NULL;
        }
        uv_ref((uv_handle_t *)c->poll);
    } else {
        if (napi_reference_unref(env, c->self, &refs) != napi_ok) {
            throw_napi(env, "cannot release the client");
            return NULL;
        }
        uv_unref((uv_handle_t *)c->poll);
    }
    c->active = on ? 1 : 0;
    return undefined(env);
}

/* close(): frees the client now (idempotent). Safe inside ondocument: the pump re-checks c->client. */
static napi_value client_close(napi_env env, napi_callback_info info) {
    uint32_t refs;
    addon_client *c = receiver(env, info, 0, NULL);
    if (c == NULL) return NULL;
    if (c->active) {
        napi_reference_unref(env, c->self, &refs); /* failing only leaks the object; nothing to throw for */
        c->active = 0;
    }
    if (c->hook) {
        napi_remove_env_cleanup_hook(env, cleanup_hook, c);
        c->hook = 0;
    }
    shut(c, 0);
    return undefined(env);
}

/* ---- module -------------------------------------------------------------------------------------------- */

#define METHOD(name, fn) {name, NULL, fn, NULL, NULL, NULL, napi_default_method, NULL}
#define FUNCTION(name, fn) {name, NULL, fn, NULL, NULL, NULL, napi_enumerable, NULL}
#define VALUE(name, value) {name, NULL, NULL, NULL, NULL, value, napi_enumerable, NULL}

/* Node unloads (dlclose) an addon a worker thread loaded when that worker ends, but the worker's loop still
 * runs the close callbacks (free_poll) of the poll handles shut by cleanup_hook after that, and threads of
 * work.c may still be running: they would jump into unmapped code. So the addon pins itself, as libjump does
 * (jump.h: never unloaded). RTLD_NOLOAD only promotes the copy already loaded; failing leaves the old behaviour,
 * which is right outside workers. */
static void pin_addon(void) {
    Dl_info self;
    if (dladdr((void *)pin_addon, &self) != 0 && self.dli_fname != NULL)
        (void)dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

static napi_value init(napi_env env, napi_value exports) {
    static const napi_property_descriptor methods[] = {
        METHOD("setActive", client_set_active),
        METHOD("close", client_close),
        METHOD("signIn", client_sign_in),
        METHOD("registerTraditional", client_register_traditional),
        METHOD("sync", client_sync),
        METHOD("fetchRecord", client_fetch_record),
        METHOD("socialSignInNative", client_social_sign_in_native),
        METHOD("registerSocial", client_register_social),
        METHOD("signInMerge", client_sign_in_merge),
        METHOD("signInWithToken", client_sign_in_with_token),
        METHOD("credentials", client_credentials),
        METHOD("updateProfile", client_update_profile),
        METHOD("changePassword", client_change_password),
        METHOD("forgotPassword", client_forgot_password),
        METHOD("resendVerificationEmail", client_resend_verification_email),
        METHOD("socialComplete", client_social_complete),
        METHOD("socialSignInLoopback", client_social_sign_in_loopback),
        METHOD("unlinkAccount", client_unlink_account),
        METHOD("share", client_share),
        METHOD("switchAccount", client_switch_account),
        METHOD("cancel", client_cancel),
        METHOD("signOut", client_sign_out),
        METHOD("loadFlow", client_load_flow),
        METHOD("loadSchema", client_load_schema),
        METHOD("loadEngageConfig", client_load_engage_config),
        METHOD("providers", client_providers),
        METHOD("socialBegin", client_social_begin),
        METHOD("shareContent", client_share_content),
        METHOD("accessToken", client_access_token),
        METHOD("refreshAccessToken", client_refresh_access_token),
        METHOD("request", client_request),
        METHOD("identifyExternalUser", client_identify_external_user),
        METHOD("state", client_state),
        METHOD("status", client_status),
        METHOD("isSignedIn", client_is_signed_in),
        METHOD("hasValidCredentials", client_has_valid_credentials),
        METHOD("useApiKey", client_use_api_key),
        METHOD("useWebLogin", client_use_web_login),
        METHOD("linkedProfiles", client_linked_profiles),
        METHOD("setTokenUrl", client_set_token_url),
        METHOD("restore", client_restore),
        METHOD("eraseQuarantine", client_erase_quarantine),
        METHOD("accounts", client_accounts),
        METHOD("removeAccount", client_remove_account),
        METHOD("recordGet", client_record_get),
        METHOD("recordSet", client_record_set),
        METHOD("recordClear", client_record_clear),
        METHOD("recordChanges", client_record_changes),
        METHOD("recordDiscardChanges", client_record_discard),
        METHOD("recordGetString", client_record_get_string),
        METHOD("recordGetInt", client_record_get_int),
        METHOD("recordGetNumber", client_record_get_number),
        METHOD("recordGetBoolean", client_record_get_bool),
        METHOD("recordSetString", client_record_set_string),
        METHOD("recordAppend", client_record_append),
        METHOD("recordRemove", client_record_remove),
        METHOD("recordReplacePlural", client_record_replace_plural),
        METHOD("recordElementCount", client_record_element_count),
        METHOD("recordElementPaths", client_record_element_paths),
        METHOD("recordRevert", client_record_revert),
    };
    napi_value cls, version, abi;
    pin_addon();
    if (jump_abi_version() != JUMP_ABI_VERSION) { /* a libjump.so.N of another ABI: refuse, as jump.h asks */
        napi_throw_error(env, "ERR_JUMP_ABI", "the loaded libjump has another ABI version than this addon's");
        return NULL;
    }
    if (napi_create_string_utf8(env, jump_version(), NAPI_AUTO_LENGTH, &version) != napi_ok ||
        napi_create_int32(env, JUMP_ABI_VERSION, &abi) != napi_ok || !bridge_init(env)) {
        throw_napi(env, "cannot initialize the jump addon");
        return NULL;
    }
    {
        const napi_property_descriptor functions[] = {
            FUNCTION("noop", module_noop),
            FUNCTION("versionNumber", module_version_number),
            FUNCTION("abiVersion", module_abi_version),
            FUNCTION("statusStr", module_status_str),
            FUNCTION("decodeSignInToken", module_decode_sign_in_token),
            FUNCTION("effectiveConfig", module_effective_config),
            FUNCTION("setLogCallback", module_set_log_callback),
            FUNCTION("setHostDispatcher", module_set_host_dispatcher),
            FUNCTION("answerHostCall", module_answer_host_call),
            VALUE("libraryVersion", version),
            VALUE("ABI_VERSION", abi),
        };
        if (napi_define_class(env, "NativeClient", NAPI_AUTO_LENGTH, client_new, NULL,
                              sizeof methods / sizeof methods[0], methods, &cls) != napi_ok ||
            napi_set_named_property(env, exports, "NativeClient", cls) != napi_ok ||
            napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions) != napi_ok) {
            throw_napi(env, "cannot initialize the jump addon");
            return NULL;
        }
    }
    return exports;
}

/* Built by a plain cc rule (Makefile), not node-gyp, so the module name is ours to give. */
NAPI_MODULE(jump, init)
