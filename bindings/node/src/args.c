/*
 * args.c - reading a method's receiver and arguments, and the errors and results every method shares.
 *
 * Layer 1 of 4 (arguments), the lowest: calls no other file of the addon (README.md: "Layers").
 */
#include "addon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const napi_type_tag CLIENT_TAG = {0x6a756d70636c6e74ULL, 0x4e6f646541646f6eULL};
const napi_type_tag REQUEST_TAG = {0x6a756d7072657174ULL, 0x4e6f646541646f6eULL};

/* ---- errors ------------------------------------------------------------------------------------------- */

napi_value status_error(napi_env env, jump_status status, const char *detail) {
    napi_value error, code, text;
    if (napi_create_object(env, &error) != napi_ok) return NULL;
    if (napi_create_int32(env, (int32_t)status, &code) == napi_ok) napi_set_named_property(env, error, "status", code);
    if (napi_create_string_utf8(env, detail ? detail : "{}", NAPI_AUTO_LENGTH, &text) == napi_ok)
        napi_set_named_property(env, error, "detail", text);
    return error;
}

void throw_napi(napi_env env, const char *what) {
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return;
    napi_throw_error(env, "ERR_JUMP_NAPI", what);
}

napi_value undefined(napi_env env) {
    napi_value result = NULL;
    napi_get_undefined(env, &result);
    return result;
}

/* ---- arguments ---------------------------------------------------------------------------------------- */

static void type_error(napi_env env, const char *code, const char *name, const char *what) {
    char message[128];
    snprintf(message, sizeof message, "%s %s", name, what);
    napi_throw_type_error(env, code, message);
}

/* A JS string as a malloc'ed UTF-8 copy (the caller frees it). Not a string, or one holding NUL (which C would
 * silently cut short): TypeError, returns NULL. */
char *string_arg(napi_env env, napi_value value, const char *name) {
    napi_valuetype type;
    size_t length = 0, copied = 0;
    char *text;
    if (napi_typeof(env, value, &type) != napi_ok || type != napi_string) {
        type_error(env, "ERR_INVALID_ARG_TYPE", name, "must be a string");
        return NULL;
    }
    if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) {
        throw_napi(env, "cannot read a string argument");
        return NULL;
    }
    if ((text = malloc(length + 1)) == NULL) {
        throw_napi(env, "out of memory");
        return NULL;
    }
    if (napi_get_value_string_utf8(env, value, text, length + 1, &copied) != napi_ok) {
        free(text);
        throw_napi(env, "cannot read a string argument");
        return NULL;
    }
    if (strlen(text) != copied) {
        free(text);
        type_error(env, "ERR_INVALID_ARG_VALUE", name, "must not contain NUL characters");
        return NULL;
    }
    return text;
}

void free_secret(char *text) {
    if (text == NULL) return;
    memset(text, 0, strlen(text)); /* a secret: do not leave it in freed memory */
    free(text);
}

addon_client *receiver(napi_env env, napi_callback_info info, size_t max, napi_value *argv) {
    size_t argc = max;
    napi_value self;
    bool tagged = false;
    void *data = NULL;
    if (napi_get_cb_info(env, info, &argc, argv, &self, NULL) != napi_ok) {
        throw_napi(env, "cannot read the call's arguments");
        return NULL;
    }
    if (napi_check_object_type_tag(env, self, &CLIENT_TAG, &tagged) != napi_ok || !tagged ||
        napi_unwrap(env, self, &data) != napi_ok || data == NULL) {
        napi_throw_type_error(env, "ERR_INVALID_THIS", "not a NativeClient");
        return NULL;
    }
    return data;
}

int take_args(napi_env env, napi_callback_info info, const char *format, const char *const *names, call_args *a) {
    size_t count = strlen(format), i;
    memset(a, 0, sizeof *a);
    a->format = format;
    if ((a->c = receiver(env, info, count, a->argv)) == NULL) return 0;
    for (i = 0; i < count; i++) {
        napi_valuetype type = napi_undefined;
        if (napi_typeof(env, a->argv[i], &type) != napi_ok) {
            throw_napi(env, "cannot read an argument");
            break;
        }
        if (format[i] == 'o' && (type == napi_null || type == napi_undefined)) continue;
        if (format[i] == 's' || format[i] == 'o') {
            if ((a->s[i] = string_arg(env, a->argv[i], names[i])) == NULL) break;
        } else if (format[i] == 'i') {
            double value = 0;
            if (type != napi_number || napi_get_value_double(env, a->argv[i], &value) != napi_ok ||
                value != value || value < -9007199254740991.0 || value > 9007199254740991.0 ||
                napi_get_value_int64(env, a->argv[i], &a->n[i]) != napi_ok || (double)a->n[i] != value) {
                type_error(env, "ERR_INVALID_ARG_TYPE", names[i], "must be an integer");
                break;
            }
        }
    }
    if (i < count) {
        free_args(a);
        return 0;
    }
    return 1;
}

void free_args(call_args *a) {
    for (size_t i = 0; i < MAX_ARGS; i++) {
        free_secret(a->s[i]);
        a->s[i] = NULL;
    }
}

/* ---- results ------------------------------------------------------------------------------------------ */

napi_value take_string(napi_env env, char *text) {
    napi_value result = NULL;
    napi_status status = text == NULL ? napi_get_null(env, &result)
                                      : napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &result);
    if (status != napi_ok) {
        result = NULL;
        throw_napi(env, "cannot create a string");
    }
    jump_string_free(text);
    return result;
}

napi_value take_secret(napi_env env, char *text) {
    napi_value result = NULL;
    if (text != NULL && napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &result) != napi_ok) {
        result = NULL;
        throw_napi(env, "cannot create a string");
    }
    if (text == NULL && napi_get_null(env, &result) != napi_ok) result = NULL;
    if (text != NULL) memset(text, 0, strlen(text));
    jump_string_free(text);
    return result;
}
