package io.libjump;

import java.nio.charset.StandardCharsets;

/** Strings cross the JNI glue as UTF-8 byte[] (JNI's own strings are "modified UTF-8", wrong for text outside
 * the BMP); the glue adds the NUL and refuses one inside. */
final class Utf8 {
    private Utf8() {}

    static byte[] encode(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    static String decode(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
