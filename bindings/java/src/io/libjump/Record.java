package io.libjump;

import java.lang.ref.Cleaner;
import java.util.List;
import java.util.Map;

/** A live view of the signed-in user's record (jump_record). Paths: "/", "/aboutMe", "/primaryAddress/city",
 * "/photos#12/value". Edits are local (and saved with the session) until Client.sync(). Values are JSON
 * values as Json reads them: Map, List, String, Long, Double, Boolean or null. */
public final class Record implements AutoCloseable {
    private final Handle handle;
    private final Cleaner.Cleanable cleanable;

    private static final class Handle implements Runnable {
        volatile long value;

        Handle(long value) {
            this.value = value;
        }

        @Override
        public void run() {
            long h = value;
            value = 0;
            Native.jump_record_free(h);
        }
    }

    Record(long h) {
        handle = new Handle(h);
        cleanable = Config.CLEANER.register(this, handle);
    }

    private long h() {
        long v = handle.value;
        if (v == 0) throw new IllegalStateException("the Record is closed");
        return v;
    }

    private static byte[] u(String s) {
        return Utf8.encode(s);
    }

    /** The value at path; JumpNotFoundException when there is none. */
    public Object get(String path) {
        return Json.parse(getJson(path));
    }

    public String getJson(String path) {
        return Utf8.decode(Native.jump_record_get(h(), u(path)));
    }

    /** The string at path (null for JSON null). */
    public String getString(String path) {
        return Utf8.decode(Native.jump_record_get_string(h(), u(path)));
    }

    public long getLong(String path) {
        return Native.jump_record_get_int64(h(), u(path));
    }

    public double getDouble(String path) {
        return Native.jump_record_get_double(h(), u(path));
    }

    public boolean getBoolean(String path) {
        return Native.jump_record_get_bool(h(), u(path)) != 0;
    }

    /** Sets the attribute at path to a JSON value (a Map sets the members it names). */
    public void set(String path, Object value) {
        Native.jump_record_set(h(), u(path), u(Json.write(value)));
    }

    /** Sets the attribute at path to a string (null: JSON null). */
    public void setString(String path, String value) {
        Native.jump_record_set_string(h(), u(path), u(value));
    }

    public void clear(String path) {
        Native.jump_record_clear(h(), u(path));
    }

    /** Appends an element to a plural; returns its path ("/photos#-1" until a sync). */
    public String append(String pluralPath, Map<String, ?> element) {
        return Utf8.decode(Native.jump_record_append(h(), u(pluralPath), u(Json.write(element))));
    }

    public void remove(String elementPath) {
        Native.jump_record_remove(h(), u(elementPath));
    }

    public void replacePlural(String pluralPath, List<? extends Map<String, ?>> elements) {
        Native.jump_record_replace_plural(h(), u(pluralPath), u(Json.write(elements)));
    }

    public long elementCount(String pluralPath) {
        return Native.jump_record_element_count(h(), u(pluralPath));
    }

    @SuppressWarnings("unchecked")
    public List<String> elementPaths(String pluralPath) {
        return (List<String>) Json.parse(Utf8.decode(Native.jump_record_element_paths(h(), u(pluralPath))));
    }

    /** The unsynced changes: {"changed":[paths],"update":{..},"requests":[..]}. */
    public Object changes() {
        return Json.parse(Utf8.decode(Native.jump_record_changes(h())));
    }

    /** Drops the unsynced edits at path and below. */
    public void revert(String path) {
        Native.jump_record_revert(h(), u(path));
    }

    public void discardChanges() {
        Native.jump_record_discard_changes(h());
    }

    @Override
    public void close() {
        cleanable.clean();
    }
}
