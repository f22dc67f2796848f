package io.libjump;

/** The floor the benchmark measures the binding against (bindings/java/bench): a no-op registered by the same
 * glue (jump_jni.c), with jump_client_is_signed_in's JNI shape. */
final class NativeBench {
    private NativeBench() {}

    static native int noop(long handle);
}
