/* jump_jni_host.c - the JNI functions of jump.h's calls that take host functions (storage, open_url,
 * authenticate): libjump calls C functions here, which call the Java adapter objects (io.libjump.HostStorage,
 * HostOpenUrl, HostAuthenticate). Their prototypes are in jump_jni_generated.c. A Java adapter never
 * throws (it turns an exception into a status): a pending exception here would be lost in libjump. */
#include "jump_jni.h"

#include <stdlib.h>

/* Calls host.name(byte[] arg[, byte[] arg2]) returning Object: byte[] (given to sink) or an Integer status. */
static jump_status jj_host_object_call(jobject host, const char *name, const char *arg, jump_storage_sink sink,
                                       void *sink_context) {
    JNIEnv *env = jj_env();
    if (env == NULL || host == NULL) return JUMP_E_INTERNAL;
    if ((*env)->PushLocalFrame(env, 8) != 0) {
        (*env)->ExceptionClear(env);
        return JUMP_E_INTERNAL;
    }
    jump_status status = JUMP_E_INTERNAL;
    jclass cls = (*env)->GetObjectClass(env, host);
    jmethodID method = (*env)->GetMethodID(env, cls, name, "([B)Ljava/lang/Object;");
    jbyteArray key = jj_bytes_of(env, arg);
    jobject answer = method ? (*env)->CallObjectMethod(env, host, method, key) : NULL;
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
    } else if (answer != NULL && (*env)->IsInstanceOf(env, answer, jj_byte_array_class)) {
        jj_text data;
        if (jj_bytes_get(env, (jbyteArray)answer, &data)) {
            sink(sink_context, data.data, data.length);
            jj_text_release(&data);
            status = JUMP_OK;
        } else {
            (*env)->ExceptionClear(env);
        }
    } else if (answer != NULL && (*env)->IsInstanceOf(env, answer, jj_integer_class)) {
        status = (jump_status)(*env)->CallIntMethod(env, answer, jj_integer_value);
        if ((*env)->ExceptionCheck(env)) {
            (*env)->ExceptionClear(env);
            status = JUMP_E_INTERNAL;
        }
    }
    (*env)->PopLocalFrame(env, NULL);
    return status;
}

/* Calls host.name(byte[] a[, byte[] b]) returning int (a status). */
static jump_status jj_host_int_call(jobject host, const char *name, const char *a, const char *b, size_t b_length) {
    JNIEnv *env = jj_env();
    if (env == NULL || host == NULL) return JUMP_E_INTERNAL;
    if ((*env)->PushLocalFrame(env, 8) != 0) {
        (*env)->ExceptionClear(env);
        return JUMP_E_INTERNAL;
    }
    jump_status status = JUMP_E_INTERNAL;
    jclass cls = (*env)->GetObjectClass(env, host);
    jmethodID method = (*env)->GetMethodID(env, cls, name, b ? "([B[B)I" : "([B)I");
    jbyteArray first = jj_bytes_of(env, a);
    jbyteArray second = NULL;
    if (b != NULL) {
        second = (*env)->NewByteArray(env, (jsize)b_length);
        if (second != NULL) (*env)->SetByteArrayRegion(env, second, 0, (jsize)b_length, (const jbyte *)b);
    }
    if (method != NULL && !(*env)->ExceptionCheck(env))
        status = b ? (jump_status)(*env)->CallIntMethod(env, host, method, first, second)
                   : (jump_status)(*env)->CallIntMethod(env, host, method, first);
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        status = JUMP_E_INTERNAL;
    }
    (*env)->PopLocalFrame(env, NULL);
    return status;
}

/* ---- storage ---- */

static jump_status jj_storage_load(void *context, const char *key, jump_storage_sink sink, void *sink_context) {
    return jj_host_object_call(((jj_callback *)context)->host, "load", key, sink, sink_context);
}

static jump_status jj_storage_save(void *context, const char *key, const char *data, size_t length) {
    static const char empty[1] = "";
    return jj_host_int_call(((jj_callback *)context)->host, "save", key, data ? data : empty, length);
}

static jump_status jj_storage_erase(void *context, const char *key) {
    return jj_host_int_call(((jj_callback *)context)->host, "erase", key, NULL, 0);
}

void JNICALL jj_config_set_storage(JNIEnv *env, jclass cls, jlong config, jobject host) {
    (void)cls;
    jj_callback *c = NULL;
    if (host != NULL) {
        /* the host object is its own NativeCallback (released() runs from context_free) */
        c = jj_callback_new(env, host);
        if (c == NULL) return;
        c->host = (*env)->NewGlobalRef(env, host);
    }
    jump_status s = c ? jump_config_set_storage((jump_config *)(intptr_t)config, jj_storage_load, jj_storage_save,
                                                jj_storage_erase, c, jj_callback_free)
                      : jump_config_set_storage((jump_config *)(intptr_t)config, NULL, NULL, NULL, NULL, NULL);
    if (s != JUMP_OK) jj_throw_status(env, s);
}

/* ---- social sign-in through the loopback receiver ---- */

static jump_status jj_open_url(void *userdata, const char *url) {
    return jj_host_int_call(((jj_callback *)userdata)->host, "openUrl", url, NULL, 0);
}

jbyteArray JNICALL jj_client_social_sign_in_loopback(JNIEnv *env, jclass cls, jlong client, jbyteArray provider,
                                                     jbyteArray options_json, jobject host, jint timeout_ms) {
    (void)cls;
    jbyteArray result = NULL;
    jj_callback c = {NULL, host}; /* open_url runs on this thread, during the call: a local ref will do */
    jj_text t_provider, t_options;
    if (!jj_text_get(env, provider, &t_provider)) return NULL;
    if (!jj_text_get(env, options_json, &t_options)) {
        jj_text_release(&t_provider);
        return NULL;
    }
    char *out = NULL;
    jump_status s = jump_client_social_sign_in_loopback((jump_client *)(intptr_t)client, t_provider.data,
                                                        t_options.data, jj_open_url, &c, (int32_t)timeout_ms, &out);
    if (s != JUMP_OK)
        jj_throw_status(env, s);
    else
        result = jj_take_string(env, out);
    jj_text_release(&t_options);
    jj_text_release(&t_provider);
    return result;
}

jlong JNICALL jj_client_social_sign_in_loopback_async(JNIEnv *env, jclass cls, jlong client, jbyteArray provider,
                                                      jbyteArray options_json, jobject host, jint timeout_ms,
                                                      jobject callback) {
    (void)cls;
    jj_text t_provider, t_options;
    if (!jj_text_get(env, provider, &t_provider)) return 0;
    if (!jj_text_get(env, options_json, &t_options)) {
        jj_text_release(&t_provider);
        return 0;
    }
    jlong result = 0;
    /* one userdata for open_url and the completion; libjump frees it after both */
    jj_callback *c = jj_callback_new(env, callback);
    if (c != NULL) {
        c->host = host ? (*env)->NewGlobalRef(env, host) : NULL;
        jump_request *request = NULL;
        jump_status s = jump_client_social_sign_in_loopback_async(
            (jump_client *)(intptr_t)client, t_provider.data, t_options.data, jj_open_url, (int32_t)timeout_ms,
            jj_on_document, c, jj_callback_free, &request);
        result = s == JUMP_OK ? (jlong)(intptr_t)request : 0;
    }
    jj_text_release(&t_options);
    jj_text_release(&t_provider);
    return result;
}

/* ---- identify an external user: the app's authenticate ---- */

static jump_status jj_authenticate(void *userdata, const char *external_user_id, jump_storage_sink sink,
                                   void *sink_context) {
    return jj_host_object_call((jobject)userdata, "authenticate", external_user_id, sink, sink_context);
}

jbyteArray JNICALL jj_client_identify_external_user(JNIEnv *env, jclass cls, jlong client,
                                                    jbyteArray external_user_id, jobject host) {
    (void)cls;
    jbyteArray result = NULL;
    jj_text t_id;
    if (!jj_text_get(env, external_user_id, &t_id)) return NULL;
    char *out = NULL;
    /* authenticate runs on this thread, during the call: the local reference stays valid */
    jump_status s = jump_client_identify_external_user((jump_client *)(intptr_t)client, t_id.data,
                                                       host ? jj_authenticate : NULL, host, &out);
    if (s != JUMP_OK)
        jj_throw_status(env, s);
    else
        result = jj_take_string(env, out);
    jj_text_release(&t_id);
    return result;
}
