package io.libjump;

import java.time.Duration;
import java.util.Map;

/**
 * Settings for a Client ({@code jump_config}): the keys of jump.h, as the constants of {@link ConfigKey}.
 * A Client copies them when it is made, so a Config may be closed right after.
 */
public final class Config implements AutoCloseable {
    private final Handle handle;

    static {
        Loader.ensure();
    }

    /**
     * The defaults.
     */
    public Config() {
        this(Native.jump_config_new());
    }

    private Config(long h) {
        handle = new Handle(this, h, v -> Native.jump_config_free(v), "Config");
    }

    /**
     * A config from a JSON object of keys.
     *
     * @param json the JSON text
     * @return the config
     * @throws JumpInvalidArgumentException for an unknown key or a wrong type
     */
    public static Config fromJson(String json) {
        return new Config(Native.jump_config_from_json(Utf8.encode(json)));
    }

    /**
     * A config from a map of keys.
     *
     * @param settings keys ({@link ConfigKey}) to String, Boolean, Integer/Long or nested JSON values
     * @return the config
     * @throws JumpInvalidArgumentException for an unknown key or a wrong type
     */
    public static Config of(Map<String, ?> settings) {
        return fromJson(Json.write(settings));
    }

    long handle() {
        return handle.get();
    }

    /**
     * Sets a string key.
     *
     * @param key a {@link ConfigKey}
     * @param value the value (null restores its default)
     * @return this config
     */
    public Config set(String key, String value) {
        Native.jump_config_set_string(handle(), Utf8.encode(key), Utf8.encode(value));
        return this;
    }

    /**
     * Sets a boolean key.
     *
     * @param key a {@link ConfigKey}
     * @param value the value
     * @return this config
     */
    public Config set(String key, boolean value) {
        Native.jump_config_set_bool(handle(), Utf8.encode(key), value ? 1 : 0);
        return this;
    }

    /**
     * Sets an integer key.
     *
     * @param key a {@link ConfigKey}
     * @param value the value
     * @return this config
     */
    public Config set(String key, long value) {
        Native.jump_config_set_int(handle(), Utf8.encode(key), value);
        return this;
    }

    /**
     * Sets a duration key: one whose name ends in "Ms" (milliseconds, e.g.
     * {@link ConfigKey#REQUEST_TIMEOUT_MS}) or "Seconds" (e.g. {@link ConfigKey#TOKEN_REFRESH_MARGIN_SECONDS}).
     *
     * @param key the key
     * @param value the duration, in whole units of that key (rounded down)
     * @return this config
     * @throws IllegalArgumentException for a key that is no duration
     */
    public Config set(String key, Duration value) {
        if (key == null || value == null) throw new IllegalArgumentException("a null key or duration");
        long n;
        if (key.endsWith("Ms")) n = value.toMillis();
        else if (key.endsWith("Seconds")) n = value.getSeconds();
        else throw new IllegalArgumentException("not a duration key (its name ends in neither Ms nor Seconds): " + key);
        return set(key, n);
    }

    /**
     * Host storage (a keystore, encrypted preferences) in place of storageDirectory's files. Its methods run
     * on libjump's threads, under the client's lock: they must not call the client.
     *
     * @param storage the storage; null goes back to files
     * @return this config
     */
    public Config storage(Storage storage) {
        Native.jump_config_set_storage(handle(), storage == null ? null : new HostStorage(storage));
        return this;
    }

    /**
     * The effective settings, defaults included.
     *
     * @return them as JSON text
     */
    public String toJson() {
        return Utf8.decode(Native.jump_config_to_json(handle()));
    }

    /**
     * Frees the config (clients made from it keep their copy); closing again does nothing.
     */
    @Override
    public void close() {
        handle.close();
    }
}
