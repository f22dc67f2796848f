/* jump_jni.c - the JNI glue's hand-written core: registration, string and exception conversions, and the
 * callback trampolines that run Java code on libjump's threads. */
#define _GNU_SOURCE
#include "jump_jni.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static JavaVM *jj_vm;
static pthread_key_t jj_attached; /* set on the threads this glue attached: its destructor detaches them */
static jclass jj_errors_class, jj_illegal_argument_class;
static jmethodID jj_errors_from_native, jj_callback_on_document, jj_callback_released;
jclass jj_byte_array_class, jj_integer_class;
jmethodID jj_integer_value;

static void jj_detach(void *value) {
    (void)value;
    /* libjump's threads (jump-events, jump-work) exit when idle: a thread attached once stays attached
     * until then, so a burst of callbacks costs one attach, and the VM forgets the thread when it ends. */
    if (jj_vm != NULL) (*jj_vm)->DetachCurrentThread(jj_vm);
}

JNIEnv *jj_env(void) {
    JNIEnv *env = NULL;
    if (jj_vm == NULL) return NULL;
    jint got = (*jj_vm)->GetEnv(jj_vm, (void **)&env, JNI_VERSION_1_8);
    if (got == JNI_OK) return env;
    if (got != JNI_EDETACHED) return NULL;
    char name[32] = "jump-native";
    pthread_getname_np(pthread_self(), name, sizeof name);
    JavaVMAttachArgs args = {JNI_VERSION_1_8, name, NULL};
    /* a daemon: a libjump thread never keeps the JVM from exiting */
    if ((*jj_vm)->AttachCurrentThreadAsDaemon(jj_vm, (void **)&env, &args) != JNI_OK) return NULL;
    pthread_setspecific(jj_attached, env);
    return env;
}

static jclass jj_global_class(JNIEnv *env, const char *name) {
    jclass local = (*env)->FindClass(env, name);
    if (local == NULL) return NULL;
    jclass global = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    return global;
}

/* The benchmark's floor (bindings/java/bench): a JNI call of the same shape as jump_client_is_signed_in's,
 * (J)I, through this same library and registration, doing nothing. */
static jint JNICALL jj_bench_noop(JNIEnv *env, jclass cls, jlong handle) {
    (void)env;
    (void)cls;
    return (jint)(handle & 1);
}

static const JNINativeMethod jj_bench_methods[] = {{"noop", "(J)I", (void *)jj_bench_noop}};

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    if (pthread_key_create(&jj_attached, jj_detach) != 0) return JNI_ERR;
    jj_errors_class = jj_global_class(env, "io/libjump/Errors");
    jj_illegal_argument_class = jj_global_class(env, "java/lang/IllegalArgumentException");
    jj_byte_array_class = jj_global_class(env, "[B");
    jj_integer_class = jj_global_class(env, "java/lang/Integer");
    jclass callback = (*env)->FindClass(env, "io/libjump/NativeCallback");
    jclass native = (*env)->FindClass(env, "io/libjump/Native");
    if (!jj_errors_class || !jj_illegal_argument_class || !jj_byte_array_class || !jj_integer_class || !callback ||
        !native)
        return JNI_ERR;
    jj_errors_from_native = (*env)->GetStaticMethodID(env, jj_errors_class, "fromNative",
                                                      "(I[B)Lio/libjump/JumpException;");
    jj_callback_on_document = (*env)->GetMethodID(env, callback, "onDocument", "([B)V");
    jj_callback_released = (*env)->GetMethodID(env, callback, "released", "()V");
    jj_integer_value = (*env)->GetMethodID(env, jj_integer_class, "intValue", "()I");
    if (!jj_errors_from_native || !jj_callback_on_document || !jj_callback_released || !jj_integer_value)
        return JNI_ERR;
    if ((*env)->RegisterNatives(env, native, jj_generated_methods, jj_generated_method_count) != 0) return JNI_ERR;
    /* The benchmark's floor (bindings/java/bench/NativeBench.java): not in the jar, so only there when the
       benchmark's classes are on the class path of the loader that loads this library. */
    jclass bench = (*env)->FindClass(env, "io/libjump/NativeBench");
    if (bench == NULL)
        (*env)->ExceptionClear(env); /* NoClassDefFoundError: an app, not the benchmark */
    else if ((*env)->RegisterNatives(env, bench, jj_bench_methods, 1) != 0)
        return JNI_ERR;
    jj_vm = vm;
    return JNI_VERSION_1_8;
}

static int jj_copy(JNIEnv *env, jbyteArray array, jj_text *text, int refuse_nul) {
    text->data = NULL;
    text->length = 0;
    text->heap = NULL;
    if (array == NULL) return 1;
    jsize n = (*env)->GetArrayLength(env, array);
    char *buffer = text->small;
    if ((size_t)n >= sizeof text->small) {
        buffer = text->heap = malloc((size_t)n + 1);
        if (buffer == NULL) {
            (*env)->ThrowNew(env, jj_illegal_argument_class, "out of memory copying an argument");
            return 0;
        }
    }
    (*env)->GetByteArrayRegion(env, array, 0, n, (jbyte *)buffer);
    buffer[n] = 0;
    text->data = buffer;
    text->length = (size_t)n;
    if (refuse_nul && memchr(buffer, 0, (size_t)n) != NULL) {
        jj_text_release(text);
        (*env)->ThrowNew(env, jj_illegal_argument_class, "a string argument holds a NUL character");
        return 0;
    }
    return 1;
}

int jj_text_get(JNIEnv *env, jbyteArray array, jj_text *text) { return jj_copy(env, array, text, 1); }
int jj_bytes_get(JNIEnv *env, jbyteArray array, jj_text *text) { return jj_copy(env, array, text, 0); }

void jj_text_release(jj_text *text) {
    free(text->heap);
    text->heap = NULL;
    text->data = NULL;
}

jbyteArray jj_bytes_of(JNIEnv *env, const char *string) {
    if (string == NULL) return NULL;
    size_t n = strlen(string);
    jbyteArray array = (*env)->NewByteArray(env, (jsize)n);
    if (array != NULL) (*env)->SetByteArrayRegion(env, array, 0, (jsize)n, (const jbyte *)string);
    return array;
}

jbyteArray jj_take_string(JNIEnv *env, char *string) {
    jbyteArray array = jj_bytes_of(env, string);
    jump_string_free(string);
    return array;
}

void jj_throw_status(JNIEnv *env, jump_status status) {
    jbyteArray detail = jj_bytes_of(env, jump_error_last());
    if ((*env)->ExceptionCheck(env)) return; /* out of memory: that one is thrown */
    jobject error = (*env)->CallStaticObjectMethod(env, jj_errors_class, jj_errors_from_native, (jint)status, detail);
    if (error != NULL && !(*env)->ExceptionCheck(env)) (*env)->Throw(env, (jthrowable)error);
}

void *jj_callback_new(JNIEnv *env, jobject callback) {
    if (callback == NULL) return NULL;
    jj_callback *c = calloc(1, sizeof *c);
    if (c == NULL) {
        (*env)->ThrowNew(env, jj_illegal_argument_class, "out of memory for a callback");
        return NULL;
    }
    c->target = (*env)->NewGlobalRef(env, callback);
    if (c->target == NULL) {
        free(c);
        return NULL; /* OutOfMemoryError pending */
    }
    return c;
}

void jj_on_document(void *userdata, const char *json) {
    jj_callback *c = userdata;
    JNIEnv *env = jj_env();
    if (env == NULL) return;
    /* a frame per call: this thread may stay attached for many callbacks */
    if ((*env)->PushLocalFrame(env, 8) != 0) {
        (*env)->ExceptionClear(env);
        return;
    }
    jbyteArray bytes = jj_bytes_of(env, json);
    if (bytes != NULL) (*env)->CallVoidMethod(env, c->target, jj_callback_on_document, bytes);
    /* NativeCallback.onDocument catches what it can; an Error escaping it must not stay pending here */
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    (*env)->PopLocalFrame(env, NULL);
}

void jj_callback_free(void *userdata) {
    jj_callback *c = userdata;
    JNIEnv *env = jj_env();
    if (env != NULL) {
        (*env)->CallVoidMethod(env, c->target, jj_callback_released);
        if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
        (*env)->DeleteGlobalRef(env, c->target);
        if (c->host != NULL) (*env)->DeleteGlobalRef(env, c->host);
    }
    free(c);
}
