/*
 * requests.c - the network calls libjump runs on its own threads: each method starts an _async function
 * without a callback (queue mode) and returns {id, handle}; the completion, carrying that id, comes through
 * the client's queue (jump_addon.c) and settles the Promise in lib/client.js. handle cancels it.
 *
 * Layer 3 of 4 (work): calls only the layers below, the bridge (bridge*.c) and args.c.
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>

static void free_request(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    jump_request_free(data); /* the operation goes on if still running; only the handle goes */
}

/* A started request as {id, handle} (handle: a tagged external freeing the jump_request when collected), or
 * the failure of a start that failed. */
static napi_value request_result(napi_env env, jump_status status, jump_request *request) {
    napi_value result, handle, id;
    uint64_t value = 0;
    jump_status id_status;
    if (status != JUMP_OK) {
        result = failure(env, status);
        jump_request_free(request);
        return result;
    }
    if ((id_status = jump_request_id(request, &value)) != JUMP_OK) {
        result = failure(env, id_status);
        jump_request_free(request);
        return result;
    }
    if (napi_create_external(env, request, free_request, NULL, &handle) != napi_ok) {
        jump_request_free(request);
        throw_napi(env, "cannot create a request handle");
        return NULL;
    }
    /* Ids are counters far below 2^53, so a double holds them exactly, as JSON.parse's "request_id" does. */
    if (napi_type_tag_object(env, handle, &REQUEST_TAG) != napi_ok || napi_create_object(env, &result) != napi_ok ||
        napi_create_double(env, (double)value, &id) != napi_ok ||
        napi_set_named_property(env, result, "id", id) != napi_ok ||
        napi_set_named_property(env, result, "handle", handle) != napi_ok) {
        throw_napi(env, "cannot describe a request");
        return NULL;
    }
    return result;
}

/* A start: the method's arguments, and the request it started. */
typedef struct start_ctx {
    call_args a;
    jump_request *request;
    void *userdata;     /* the loopback's openUrl handler */
    char *body;         /* request's body bytes (copied: libjump copies them again before returning) */
    size_t body_length;
} start_ctx;

/* Reads the arguments as format says (take_args), starts the request with fn (guarded) and returns
 * request_result. */
static napi_value start(napi_env env, napi_callback_info info, const char *format, const char *const *names,
                        guarded_fn fn) {
    start_ctx s = {.request = NULL};
    jump_status status;
    if (!take_args(env, info, format, names, &s.a)) return NULL;
    status = guarded(s.a.c, fn, &s);
    free_args(&s.a);
    return request_result(env, status, s.request);
}

#define CLIENT(s) (((start_ctx *)(s))->a.c->client)
#define ARG(s, i) (((start_ctx *)(s))->a.s[i])
#define REQUEST(s) (&((start_ctx *)(s))->request)

static jump_status start_sign_in(void *s) {
    return jump_client_sign_in_async(CLIENT(s), ARG(s, 0), ARG(s, 1), NULL, NULL, NULL, REQUEST(s));
}
/* signIn(user, password) */
napi_value client_sign_in(napi_env env, napi_callback_info info) {
    return start(env, info, "ss", NAMES("user", "password"), start_sign_in);
}

static jump_status start_register_traditional(void *s) {
    return jump_client_register_traditional_async(CLIENT(s), ARG(s, 0), ARG(s, 1), NULL, NULL, NULL, REQUEST(s));
}
/* registerTraditional(attributesJson, password) */
napi_value client_register_traditional(napi_env env, napi_callback_info info) {
    return start(env, info, "ss", NAMES("attributes", "password"), start_register_traditional);
}

static jump_status start_sync(void *s) { return jump_client_sync_async(CLIENT(s), NULL, NULL, NULL, REQUEST(s)); }
/* sync() */
napi_value client_sync(napi_env env, napi_callback_info info) { return start(env, info, "", NULL, start_sync); }

static jump_status start_fetch_record(void *s) {
    return jump_client_fetch_record_async(CLIENT(s), NULL, NULL, NULL, REQUEST(s));
}
/* fetchRecord() */
napi_value client_fetch_record(napi_env env, napi_callback_info info) {
    return start(env, info, "", NULL, start_fetch_record);
}

static jump_status start_social_sign_in_native(void *s) {
    return jump_client_social_sign_in_native_async(CLIENT(s), ARG(s, 0), ARG(s, 1), ARG(s, 2), ARG(s, 3), NULL, NULL,
                                                   NULL, REQUEST(s));
}
/* socialSignInNative(provider, token, tokenSecret|null, optionsJson|null) */
napi_value client_social_sign_in_native(napi_env env, napi_callback_info info) {
    return start(env, info, "ssoo", NAMES("provider", "token", "tokenSecret", "options"), start_social_sign_in_native);
}

static jump_status start_register_social(void *s) {
    return jump_client_register_social_async(CLIENT(s), ARG(s, 0), ARG(s, 1), NULL, NULL, NULL, REQUEST(s));
}
/* registerSocial(socialRegistrationToken, attributesJson) */
napi_value client_register_social(napi_env env, napi_callback_info info) {
    return start(env, info, "ss", NAMES("socialRegistrationToken", "attributes"), start_register_social);
}

static jump_status start_sign_in_merge(void *s) {
    return jump_client_sign_in_merge_async(CLIENT(s), ARG(s, 0), ARG(s, 1), ARG(s, 2), NULL, NULL, NULL, REQUEST(s));
}
/* signInMerge(user, password, mergeToken) */
napi_value client_sign_in_merge(napi_env env, napi_callback_info info) {
    return start(env, info, "sss", NAMES("user", "password", "mergeToken"), start_sign_in_merge);
}

static jump_status start_sign_in_with_token(void *s) {
    return jump_client_sign_in_with_token_async(CLIENT(s), ARG(s, 0), NULL, NULL, NULL, REQUEST(s));
}
/* signInWithToken(signInToken) */
napi_value client_sign_in_with_token(napi_env env, napi_callback_info info) {
    return start(env, info, "s", NAMES("signInToken"), start_sign_in_with_token);
}

static jump_status start_credentials(void *s) {
    start_ctx *c = s;
    return jump_client_credentials_async(CLIENT(s), c->a.n[0], (uint32_t)c->a.n[1], NULL, NULL, NULL, REQUEST(s));
}
/* credentials(minTtlSeconds, flags) */
napi_value client_credentials(napi_env env, napi_callback_info info) {
    return start(env, info, "ii", NAMES("minTtl", "flags"), start_credentials);
}

static jump_status start_request(void *s) {
    start_ctx *c = s;
    return jump_client_request_async(CLIENT(s), ARG(s, 0), ARG(s, 1), ARG(s, 2), c->body, c->body_length, NULL, NULL,
                                     NULL, REQUEST(s));
}
/* request(method, url, headersJson|null, body|null). body: a string or a Uint8Array (Buffer), sent as its bytes. */
napi_value client_request(napi_env env, napi_callback_info info) {
    start_ctx s = {.request = NULL};
    napi_valuetype type = napi_undefined;
    bool typed = false;
    jump_status status;
    napi_value result;
    if (!take_args(env, info, "sso_", NAMES("method", "url", "headers", "body"), &s.a)) return NULL;
    napi_typeof(env, s.a.argv[3], &type);
    if (type == napi_string) {
        if ((s.body = string_arg(env, s.a.argv[3], "body")) == NULL) { /* TypeError for a NUL: send bytes instead */
            free_args(&s.a);
            return NULL;
        }
        s.body_length = strlen(s.body);
    } else if (napi_is_typedarray(env, s.a.argv[3], &typed) == napi_ok && typed) {
        napi_typedarray_type kind;
        size_t offset = 0;
        void *data = NULL;
        napi_value buffer;
        if (napi_get_typedarray_info(env, s.a.argv[3], &kind, &s.body_length, &data, &buffer, &offset) != napi_ok ||
            kind != napi_uint8_array || (s.body = malloc(s.body_length + 1)) == NULL) {
            free_args(&s.a);
            napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "body must be a string or a Uint8Array");
            return NULL;
        }
        if (s.body_length > 0) memcpy(s.body, data, s.body_length);
        s.body[s.body_length] = '\0';
    } else if (type != napi_null && type != napi_undefined) {
        free_args(&s.a);
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "body must be a string or a Uint8Array");
        return NULL;
    }
    status = guarded(s.a.c, start_request, &s);
    if (s.body != NULL) memset(s.body, 0, s.body_length);
    free(s.body);
    free_args(&s.a);
    result = request_result(env, status, s.request);
    return result;
}

static jump_status start_update_profile(void *s) {
    return jump_client_update_profile_async(CLIENT(s), ARG(s, 0), NULL, NULL, NULL, REQUEST(s));
}
/* updateProfile(attributesJson|null) */
napi_value client_update_profile(napi_env env, napi_callback_info info) {
    return start(env, info, "o", NAMES("attributes"), start_update_profile);
}

static jump_status start_change_password(void *s) {
    return jump_client_change_password_async(CLIENT(s), ARG(s, 0), ARG(s, 1), NULL, NULL, NULL, REQUEST(s));
}
/* changePassword(currentPassword, newPassword) */
napi_value client_change_password(napi_env env, napi_callback_info info) {
    return start(env, info, "ss", NAMES("currentPassword", "newPassword"), start_change_password);
}

static jump_status start_forgot_password(void *s) {
    return jump_client_forgot_password_async(CLIENT(s), ARG(s, 0), NULL, NULL, NULL, REQUEST(s));
}
/* forgotPassword(email) */
napi_value client_forgot_password(napi_env env, napi_callback_info info) {
    return start(env, info, "s", NAMES("email"), start_forgot_password);
}

static jump_status start_resend_verification_email(void *s) {
    return jump_client_resend_verification_email_async(CLIENT(s), ARG(s, 0), NULL, NULL, NULL, REQUEST(s));
}
/* resendVerificationEmail(email) */
napi_value client_resend_verification_email(napi_env env, napi_callback_info info) {
    return start(env, info, "s", NAMES("email"), start_resend_verification_email);
}

static jump_status start_social_complete(void *s) {
    return jump_client_social_complete_async(CLIENT(s), ARG(s, 0), NULL, NULL, NULL, REQUEST(s));
}
/* socialComplete(url) */
napi_value client_social_complete(napi_env env, napi_callback_info info) {
    return start(env, info, "s", NAMES("url"), start_social_complete);
}

static jump_status start_social_sign_in_loopback(void *s) {
    start_ctx *c = s;
    int64_t timeout = c->a.n[3];
    return jump_client_social_sign_in_loopback_async(CLIENT(s), ARG(s, 0), ARG(s, 1), bridge_open_url,
                                                     timeout > INT32_MAX ? INT32_MAX : timeout < 0 ? 0 : (int32_t)timeout,
                                                     NULL, c->userdata, host_userdata_free, REQUEST(s));
}
/* socialSignInLoopback(provider, optionsJson|null, openUrlHandlerId, timeoutMs): open_url runs on a libjump
 * thread, which waits while the JS handler runs on the loop (bridge.c). userdata_free releases the handler. */
napi_value client_social_sign_in_loopback(napi_env env, napi_callback_info info) {
    start_ctx s = {.request = NULL};
    jump_status status;
    if (!take_args(env, info, "soii", NAMES("provider", "options", "openUrl", "timeoutMs"), &s.a)) return NULL;
    if ((s.userdata = host_userdata_new(s.a.c->bridge, (uint32_t)s.a.n[2])) == NULL) {
        free_args(&s.a);
        throw_napi(env, "out of memory");
        return NULL;
    }
    status = guarded(s.a.c, start_social_sign_in_loopback, &s); /* libjump owns userdata from here */
    free_args(&s.a);
    return request_result(env, status, s.request);
}

static jump_status start_unlink_account(void *s) {
    return jump_client_unlink_account_async(CLIENT(s), ARG(s, 0), NULL, NULL, NULL, REQUEST(s));
}
/* unlinkAccount(identifier) */
napi_value client_unlink_account(napi_env env, napi_callback_info info) {
    return start(env, info, "s", NAMES("identifier"), start_unlink_account);
}

static jump_status start_switch_account(void *s) {
    return jump_client_switch_account_async(CLIENT(s), ARG(s, 0), NULL, NULL, NULL, REQUEST(s));
}
/* switchAccount(uuid) */
napi_value client_switch_account(napi_env env, napi_callback_info info) {
    return start(env, info, "s", NAMES("uuid"), start_switch_account);
}

static jump_status start_share(void *s) {
    return jump_client_share_async(CLIENT(s), ARG(s, 0), ARG(s, 1), NULL, NULL, NULL, REQUEST(s));
}
/* share(activityJson, providersJson) */
napi_value client_share(napi_env env, napi_callback_info info) {
    return start(env, info, "ss", NAMES("activity", "providers"), start_share);
}

/* cancel(handle): asks the request to stop; its completion then says JUMP_E_CANCELLED (unless it finished).
 * jump_request_cancel only sets the request's flag (no lock): it runs right here. */
napi_value client_cancel(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    bool tagged = false;
    void *request = NULL;
    jump_status status;
    addon_client *c = receiver(env, info, 1, argv);
    if (c == NULL) return NULL;
    if (napi_check_object_type_tag(env, argv[0], &REQUEST_TAG, &tagged) != napi_ok || !tagged ||
        napi_get_value_external(env, argv[0], &request) != napi_ok) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "not a request handle");
        return NULL;
    }
    status = jump_request_cancel(request);
    return status == JUMP_OK ? undefined(env) : failure(env, status);
}
