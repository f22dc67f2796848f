package io.libjump;

/** The floor the benchmark measures the binding against (Overhead.java): a no-op registered by the same glue
 * (jump_jni.c, JNI_OnLoad, when this class is on the class path), with jump_client_is_signed_in's JNI shape.
 * Benchmark code, built by run.sh beside Overhead: not in the binding's sources or its jar. */
final class NativeBench {
    private NativeBench() {}

    static native int noop(long handle);
}
