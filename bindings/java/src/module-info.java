/**
 * libjump for Java: the {@code io.libjump} package over libjump's C ABI (JNI). The same jar works on the module
 * path (as this module) and on the class path (unnamed).
 */
module io.libjump {
    exports io.libjump;
}
