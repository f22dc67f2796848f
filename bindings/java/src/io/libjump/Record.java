package io.libjump;

import java.util.List;
import java.util.Map;

/** A live view of the signed-in user's record (jump_record). Paths: "/", "/aboutMe", "/primaryAddress/city",
 * "/photos#12/value". Edits are local (and saved with the session) until Client.sync(). Values are JSON
 * values as Json reads them: Map, List, String, Long, Double, Boolean or null. */
public final class Record implements AutoCloseable {
    private final Handle handle;

    Record(long h) {
        handle = new Handle(this, h, v -> Native.jump_record_free(v), "Record");
    }

    private long h() {
        return handle.get();
    }

    private static byte[] u(String s) {
        return Utf8.encode(s);
    }

    /**
     * The value at a path.
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     * @return its JSON value as {@link Json#parse} reads it
     * @throws JumpNotFoundException when there is none
     */
    public Object get(String path) {
        return Json.parse(getJson(path));
    }

    /**
     * The value at a path as JSON text.
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     * @return its JSON text
     * @throws JumpNotFoundException when there is none
     */
    public String getJson(String path) {
        return Utf8.decode(Native.jump_record_get(h(), u(path)));
    }

    /**
     * The string at a path.
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     * @return the string (null for JSON null)
     */
    public String getString(String path) {
        return Utf8.decode(Native.jump_record_get_string(h(), u(path)));
    }

    /**
     * The integer at a path.
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     * @return the integer
     */
    public long getLong(String path) {
        return Native.jump_record_get_int64(h(), u(path));
    }

    /**
     * The number at a path.
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     * @return the number
     */
    public double getDouble(String path) {
        return Native.jump_record_get_double(h(), u(path));
    }

    /**
     * The boolean at a path.
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     * @return the boolean
     */
    public boolean getBoolean(String path) {
        return Native.jump_record_get_bool(h(), u(path)) != 0;
    }

    /**
     * Sets the attribute at a path to a JSON value (a Map sets the members it names).
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     * @param value Map, List, String, a Number, Boolean or null
     */
    public void set(String path, Object value) {
        Native.jump_record_set(h(), u(path), u(Json.write(value)));
    }

    /**
     * Sets the attribute at a path to a string.
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     * @param value the string (null: JSON null)
     */
    public void setString(String path, String value) {
        Native.jump_record_set_string(h(), u(path), u(value));
    }

    /**
     * Sets the attribute at a path to null (a plural: no elements).
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     */
    public void clear(String path) {
        Native.jump_record_clear(h(), u(path));
    }

    /**
     * Appends an element to a plural.
     *
     * @param pluralPath the plural's path ("/photos")
     * @param element the element's attributes
     * @return its path ("/photos#-1" until a sync)
     */
    public String append(String pluralPath, Map<String, ?> element) {
        return Utf8.decode(Native.jump_record_append(h(), u(pluralPath), u(Json.write(element))));
    }

    /**
     * Removes an element of a plural.
     *
     * @param elementPath the element's path ("/photos#12")
     */
    public void remove(String elementPath) {
        Native.jump_record_remove(h(), u(elementPath));
    }

    /**
     * Replaces every element of a plural.
     *
     * @param pluralPath the plural's path
     * @param elements the new elements' attributes
     */
    public void replacePlural(String pluralPath, List<? extends Map<String, ?>> elements) {
        Native.jump_record_replace_plural(h(), u(pluralPath), u(Json.write(elements)));
    }

    /**
     * How many elements a plural has.
     *
     * @param pluralPath the plural's path
     * @return the count
     */
    public long elementCount(String pluralPath) {
        return Native.jump_record_element_count(h(), u(pluralPath));
    }

    /**
     * The paths of a plural's elements.
     *
     * @param pluralPath the plural's path
     * @return their paths, in order
     */
    @SuppressWarnings("unchecked")
    public List<String> elementPaths(String pluralPath) {
        return Results.recordElementPaths(Json.parse(Utf8.decode(Native.jump_record_element_paths(h(), u(pluralPath)))));
    }

    /**
     * The unsynced changes.
     *
     * @return the changed paths, the root entity.update's attributes and the requests a sync would send
     */
    public RecordChanges changes() {
        return Results.recordChanges(Json.parse(Utf8.decode(Native.jump_record_changes(h()))));
    }

    /**
     * Drops the unsynced edits at a path and below.
     *
     * @param path the attribute's path ("/aboutMe", "/photos#12/value")
     */
    public void revert(String path) {
        Native.jump_record_revert(h(), u(path));
    }

    /**
     * Drops every unsynced edit.
     */
    public void discardChanges() {
        Native.jump_record_discard_changes(h());
    }

    /**
     * Frees the view (the record itself stays with the session); closing again does nothing.
     */
    @Override
    public void close() {
        handle.close();
    }
}
