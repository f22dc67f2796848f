/* jump_jni.h - what the JNI glue's files share: the conversions jump_jni_generated.c uses, the callback
 * trampolines and the attached-thread environment. */
#ifndef JUMP_JNI_H
#define JUMP_JNI_H

#include <jni.h>
#include <stddef.h>
#include <stdint.h>

#include "jump.h"

/* A borrowed string or byte array copied out of a Java byte[]: NUL-terminated, on the stack when short. */
typedef struct {
    const char *data; /* NULL for a null byte[] */
    size_t length;
    char *heap;
    char small[192];
} jj_text;

/* Copies a UTF-8 byte[] (no NUL inside: that is an IllegalArgumentException, return 0). */
int jj_text_get(JNIEnv *env, jbyteArray array, jj_text *text);
/* Copies a byte[] of any content. */
int jj_bytes_get(JNIEnv *env, jbyteArray array, jj_text *text);
void jj_text_release(jj_text *text);

/* A new byte[] of a C string (NULL for NULL). */
jbyteArray jj_bytes_of(JNIEnv *env, const char *string);
/* jj_bytes_of, then jump_string_free. */
jbyteArray jj_take_string(JNIEnv *env, char *string);
/* Throws the JumpException of status, with jump_error_last()'s detail (read now, on this thread). */
void jj_throw_status(JNIEnv *env, jump_status status);

/* A jump_callback's userdata: a global reference to an io.libjump.NativeCallback (and, for loopback, the
 * host object open_url calls). NULL for a null callback (or when the reference could not be made: then an
 * exception is pending). */
typedef struct {
    jobject target;
    jobject host;
} jj_callback;
void *jj_callback_new(JNIEnv *env, jobject callback);
void jj_on_document(void *userdata, const char *json);
void jj_callback_free(void *userdata);

/* The JNIEnv of the calling thread, attaching a libjump thread (as a daemon, once: it is detached when the
 * thread exits). NULL when the VM is gone or refuses. */
JNIEnv *jj_env(void);

/* Cached classes and methods (JNI_OnLoad). */
extern jclass jj_byte_array_class, jj_integer_class;
extern jmethodID jj_integer_value;

extern const JNINativeMethod jj_generated_methods[];
extern const int jj_generated_method_count;

#endif
