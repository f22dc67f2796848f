package io.libjump;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the generated records' {@code of} methods read a parsed document with (scripts/generators/java_results.py):
 * each reads one JSON value as {@link Json#parse} gives it, a value of another type as absent (null), so a
 * document a newer library changed still decodes.
 */
final class Decode {
    private Decode() {}

    static String string(Object v) {
        return v instanceof String ? (String) v : null;
    }

    static Boolean bool(Object v) {
        return v instanceof Boolean ? (Boolean) v : null;
    }

    static boolean bool(Object v, boolean absent) {
        return v instanceof Boolean ? (Boolean) v : absent;
    }

    static Long integer(Object v) {
        return v instanceof Number ? ((Number) v).longValue() : null;
    }

    static long integer(Object v, long absent) {
        return v instanceof Number ? ((Number) v).longValue() : absent;
    }

    static Double number(Object v) {
        return v instanceof Number ? ((Number) v).doubleValue() : null;
    }

    static double number(Object v, double absent) {
        return v instanceof Number ? ((Number) v).doubleValue() : absent;
    }

    static Instant epochSeconds(Object v) {
        Long s = integer(v);
        return s == null ? null : Instant.ofEpochSecond(s);
    }

    static Duration seconds(Object v) {
        Long s = integer(v);
        return s == null ? null : Duration.ofSeconds(s);
    }

    static Duration milliseconds(Object v) {
        Long ms = integer(v);
        return ms == null ? null : Duration.ofMillis(ms);
    }

    static Duration orZero(Duration d) {
        return d == null ? Duration.ZERO : d;
    }

    /** An unmodifiable list of the elements read (an element of another type is null), or null. */
    static <T> List<T> list(Object v, Function<Object, T> element) {
        if (!(v instanceof List)) return null;
        List<T> out = new ArrayList<>();
        for (Object e : (List<?>) v) out.add(element.apply(e));
        return Collections.unmodifiableList(out);
    }

    /** An unmodifiable map of the members read, in order, or null. */
    static <T> Map<String, T> map(Object v, Function<Object, T> value) {
        if (!(v instanceof Map)) return null;
        Map<String, T> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) out.put(String.valueOf(e.getKey()), value.apply(e.getValue()));
        return Collections.unmodifiableMap(out);
    }

    static <T> List<T> listOrEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    static <T> Map<String, T> mapOrEmpty(Map<String, T> map) {
        return map == null ? Map.of() : map;
    }
}
