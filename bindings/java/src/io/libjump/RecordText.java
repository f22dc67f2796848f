package io.libjump;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;

/** The toString of the generated records (bindings/java/generated): the components in order but json (the whole
 * document), a secret one as *** when it is set. */
final class RecordText {
    private RecordText() {}

    /**
     * A record as text.
     *
     * @param record a generated record, whose last component is json
     * @param secrets the components shown as *** when set
     * @return e.g. Credentials[kind=capture, accessToken=***, ...]
     */
    static String of(java.lang.Record record, String... secrets) {
        List<String> hidden = Arrays.asList(secrets);
        StringBuilder out = new StringBuilder(record.getClass().getSimpleName()).append('[');
        String sep = "";
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            if (c.getName().equals("json")) continue;
            Object value;
            try {
                value = c.getAccessor().invoke(record);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException(e);
            }
            out.append(sep).append(c.getName()).append('=').append(
                    hidden.contains(c.getName()) && value != null ? "***" : value);
            sep = ", ";
        }
        return out.append(']').toString();
    }
}
