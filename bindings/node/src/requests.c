/*
 * requests.c - the network calls libjump runs on its own threads: each method starts an _async function
 * without a callback (queue mode) and returns {id, handle}; the completion, carrying that id, comes through
 * the client's queue (jump_addon.c) and settles the Promise in lib/client.js. handle cancels it.
 */
#include "addon.h"

/* signIn(user, password) */
napi_value client_sign_in(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "ss", NAMES("user", "password"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_sign_in_async(a.c->client, a.s[0], a.s[1], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* registerTraditional(attributesJson, password) */
napi_value client_register_traditional(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "ss", NAMES("attributes", "password"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_register_traditional_async(a.c->client, a.s[0], a.s[1], NULL, NULL, NULL,
                                                                 &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* sync() */
napi_value client_sync(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "", NULL, &a)) return NULL;
    GUARDED(a.c, status = jump_client_sync_async(a.c->client, NULL, NULL, NULL, &request));
    return request_result(env, status, request);
}

/* fetchRecord() */
napi_value client_fetch_record(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "", NULL, &a)) return NULL;
    GUARDED(a.c, status = jump_client_fetch_record_async(a.c->client, NULL, NULL, NULL, &request));
    return request_result(env, status, request);
}

/* socialSignInNative(provider, token, tokenSecret|null, optionsJson|null) */
napi_value client_social_sign_in_native(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "ssoo", NAMES("provider", "token", "tokenSecret", "options"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_social_sign_in_native_async(a.c->client, a.s[0], a.s[1], a.s[2], a.s[3], NULL,
                                                                  NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* registerSocial(socialRegistrationToken, attributesJson) */
napi_value client_register_social(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "ss", NAMES("socialRegistrationToken", "attributes"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_register_social_async(a.c->client, a.s[0], a.s[1], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* signInMerge(user, password, mergeToken) */
napi_value client_sign_in_merge(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "sss", NAMES("user", "password", "mergeToken"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_sign_in_merge_async(a.c->client, a.s[0], a.s[1], a.s[2], NULL, NULL, NULL,
                                                          &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* signInWithToken(signInToken) */
napi_value client_sign_in_with_token(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "s", NAMES("signInToken"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_sign_in_with_token_async(a.c->client, a.s[0], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* credentials(minTtlSeconds, flags) */
napi_value client_credentials(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "ii", NAMES("minTtl", "flags"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_credentials_async(a.c->client, a.n[0], (uint32_t)a.n[1], NULL, NULL, NULL,
                                                        &request));
    return request_result(env, status, request);
}

/* updateProfile(attributesJson|null) */
napi_value client_update_profile(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "o", NAMES("attributes"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_update_profile_async(a.c->client, a.s[0], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* changePassword(currentPassword, newPassword) */
napi_value client_change_password(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "ss", NAMES("currentPassword", "newPassword"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_change_password_async(a.c->client, a.s[0], a.s[1], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* forgotPassword(email) */
napi_value client_forgot_password(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "s", NAMES("email"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_forgot_password_async(a.c->client, a.s[0], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* resendVerificationEmail(email) */
napi_value client_resend_verification_email(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "s", NAMES("email"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_resend_verification_email_async(a.c->client, a.s[0], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* socialComplete(url) */
napi_value client_social_complete(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "s", NAMES("url"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_social_complete_async(a.c->client, a.s[0], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* socialSignInLoopback(provider, optionsJson|null, openUrlHandlerId, timeoutMs): open_url runs on a libjump
 * thread, which waits while the JS handler runs on the loop (bridge.c). userdata_free releases the handler. */
napi_value client_social_sign_in_loopback(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    void *userdata;
    if (!take_args(env, info, "soii", NAMES("provider", "options", "openUrl", "timeoutMs"), &a)) return NULL;
    if ((userdata = host_userdata_new(a.c->bridge, (uint32_t)a.n[2])) == NULL) {
        free_args(&a);
        throw_napi(env, "out of memory");
        return NULL;
    }
    GUARDED(a.c, status = jump_client_social_sign_in_loopback_async(
                     a.c->client, a.s[0], a.s[1], bridge_open_url,
                     a.n[3] > INT32_MAX ? INT32_MAX : a.n[3] < 0 ? 0 : (int32_t)a.n[3], NULL, userdata,
                     host_userdata_free, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* unlinkAccount(identifier) */
napi_value client_unlink_account(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "s", NAMES("identifier"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_unlink_account_async(a.c->client, a.s[0], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* share(activityJson, providersJson) */
napi_value client_share(napi_env env, napi_callback_info info) {
    call_args a;
    jump_request *request = NULL;
    jump_status status;
    if (!take_args(env, info, "ss", NAMES("activity", "providers"), &a)) return NULL;
    GUARDED(a.c, status = jump_client_share_async(a.c->client, a.s[0], a.s[1], NULL, NULL, NULL, &request));
    free_args(&a);
    return request_result(env, status, request);
}

/* cancel(handle): asks the request to stop; its completion then says JUMP_E_CANCELLED (unless it finished). */
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
