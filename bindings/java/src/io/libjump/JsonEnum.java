package io.libjump;

import java.util.function.Function;

/** What the enums of the generated records (bindings/java/generated) share: each names the JSON strings this
 * binding knows, and UNKNOWN for one a newer library sends. */
final class JsonEnum {
    private JsonEnum() {}

    /**
     * The constant a JSON value names.
     *
     * @param <E> the enum
     * @param value the JSON value as {@link Json#parse} reads it
     * @param values the enum's constants
     * @param json a constant's JSON string (null for UNKNOWN)
     * @param unknown the constant for a string none of the others is
     * @return the constant whose JSON string value is, unknown for another string, null when value is no string
     */
    static <E extends Enum<E>> E of(Object value, E[] values, Function<E, String> json, E unknown) {
        if (!(value instanceof String)) return null;
        for (E v : values) if (value.equals(json.apply(v))) return v;
        return unknown;
    }

    /**
     * A constant as text: its JSON string, so that text made of it reads as before it was an enum.
     *
     * @param constant the constant
     * @param json its JSON string (null for UNKNOWN)
     * @return json, or the constant's name when json is null
     */
    static String text(Enum<?> constant, String json) {
        return json == null ? constant.name() : json;
    }
}
