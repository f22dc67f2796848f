/*
 * module.c - the module's own functions: libjump's versions and status descriptions, decoding a sign-in token,
 * the effective settings of a config, the process-wide log sink, and the two that serve lib/host.js.
 *
 * Layer 3 of 4 (work): calls only the layers below, the bridge (bridge*.c) and args.c.
 */
#include "addon.h"

#include <stdlib.h>

/* Up to max arguments (the missing ones undefined). */
static int arguments(napi_env env, napi_callback_info info, size_t max, napi_value *argv) {
    size_t argc = max;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) {
        throw_napi(env, "cannot read the call's arguments");
        return 0;
    }
    return 1;
}

/* versionNumber() -> (major << 16) | (minor << 8) | patch */
napi_value module_version_number(napi_env env, napi_callback_info info) {
    napi_value result = NULL;
    (void)info;
    if (napi_create_uint32(env, jump_version_number(), &result) != napi_ok) throw_napi(env, "cannot create a number");
    return result;
}

/* abiVersion() -> the loaded library's ABI version */
napi_value module_abi_version(napi_env env, napi_callback_info info) {
    napi_value result = NULL;
    (void)info;
    if (napi_create_int32(env, jump_abi_version(), &result) != napi_ok) throw_napi(env, "cannot create a number");
    return result;
}

/* statusStr(status) -> libjump's description of a status code (unknown codes included) */
napi_value module_status_str(napi_env env, napi_callback_info info) {
    napi_value argv[1], result = NULL;
    int32_t status = 0;
    napi_valuetype type = napi_undefined;
    if (!arguments(env, info, 1, argv)) return NULL;
    if (napi_typeof(env, argv[0], &type) != napi_ok || type != napi_number ||
        napi_get_value_int32(env, argv[0], &status) != napi_ok) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "status must be a number");
        return NULL;
    }
    if (napi_create_string_utf8(env, jump_status_str((jump_status)status), NAPI_AUTO_LENGTH, &result) != napi_ok)
        throw_napi(env, "cannot create a string");
    return result;
}

/* decodeSignInToken(signInToken) -> JSON text */
napi_value module_decode_sign_in_token(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    char *token, *text = NULL;
    jump_status status;
    if (!arguments(env, info, 1, argv) || (token = string_arg(env, argv[0], "signInToken")) == NULL) return NULL;
    status = jump_sign_in_token_decode(token, &text);
    free_secret(token);
    if (status != JUMP_OK) return failure(env, status);
    return take_string(env, text);
}

/* effectiveConfig(configJson) -> JSON text: the settings a client made from it would have, defaults included */
napi_value module_effective_config(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    jump_config *config = NULL;
    char *json, *text = NULL;
    jump_status status;
    if (!arguments(env, info, 1, argv) || (json = string_arg(env, argv[0], "config")) == NULL) return NULL;
    status = jump_config_from_json(json, &config);
    free_secret(json); /* may hold nothing secret today, but a config is the app's to judge */
    if (status == JUMP_OK) status = jump_config_to_json(config, &text);
    if (status != JUMP_OK) {
        napi_value result = failure(env, status); /* before jump_config_free, which may replace the last error */
        jump_config_free(config);
        return result;
    }
    jump_config_free(config);
    return take_string(env, text);
}

/* setLogCallback(handlerId, minLevel): handler 0 removes libjump's log callback. */
napi_value module_set_log_callback(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    uint32_t id = 0;
    int32_t level = 0;
    jump_status status;
    bridge *b = bridge_of(env);
    if (!arguments(env, info, 2, argv)) return NULL;
    if (b == NULL || napi_get_value_uint32(env, argv[0], &id) != napi_ok ||
        napi_get_value_int32(env, argv[1], &level) != napi_ok) {
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "setLogCallback(handlerId, minLevel) takes two numbers");
        return NULL;
    }
    if ((status = bridge_set_log(b, id, level)) != JUMP_OK) return failure(env, status);
    return undefined(env);
}

/* setHostDispatcher(fn): lib/host.js's function that runs every host call */
napi_value module_set_host_dispatcher(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    if (!arguments(env, info, 1, argv)) return NULL;
    return bridge_set_dispatcher(env, argv[0]);
}

/* answerHostCall(token, answer): a handler's answer that came later (a settled Promise) */
napi_value module_answer_host_call(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    if (!arguments(env, info, 2, argv)) return NULL;
    return bridge_answer(env, argv[0], argv[1]);
}

/* noop(): nothing, for measuring the per-call overhead of N-API itself (benchmarks). */
napi_value module_noop(napi_env env, napi_callback_info info) {
    (void)info;
    return undefined(env);
}
