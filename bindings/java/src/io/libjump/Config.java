package io.libjump;

import java.lang.ref.Cleaner;
import java.util.Map;

/** Settings for a Client (jump_config): the keys of jump.h ("captureDomain", "storageDirectory", ...).
 * A Client copies them when it is made, so a Config may be closed right after. */
public final class Config implements AutoCloseable {
    static final Cleaner CLEANER = Cleaner.create();

    private final Handle handle;
    private final Cleaner.Cleanable cleanable;

    /** The freeing action, apart from the Config: the Cleaner must not reach the object it cleans. */
    private static final class Handle implements Runnable {
        volatile long value;

        Handle(long value) {
            this.value = value;
        }

        @Override
        public void run() {
            long h = value;
            value = 0;
            Native.jump_config_free(h);
        }
    }

    static {
        Loader.ensure();
    }

    /** The defaults. */
    public Config() {
        this(Native.jump_config_new());
    }

    private Config(long h) {
        handle = new Handle(h);
        cleanable = CLEANER.register(this, handle);
    }

    /** From a JSON object of keys; JumpInvalidArgumentException for an unknown key or a wrong type. */
    public static Config fromJson(String json) {
        return new Config(Native.jump_config_from_json(Utf8.encode(json)));
    }

    /** From a map of keys to String, Boolean, Integer/Long or nested JSON values. */
    public static Config of(Map<String, ?> settings) {
        return fromJson(Json.write(settings));
    }

    long handle() {
        long h = handle.value;
        if (h == 0) throw new IllegalStateException("the Config is closed");
        return h;
    }

    /** Sets a string key (null restores its default). */
    public Config set(String key, String value) {
        Native.jump_config_set_string(handle(), Utf8.encode(key), Utf8.encode(value));
        return this;
    }

    /** Sets a boolean key. */
    public Config set(String key, boolean value) {
        Native.jump_config_set_bool(handle(), Utf8.encode(key), value ? 1 : 0);
        return this;
    }

    /** Sets an integer key. */
    public Config set(String key, long value) {
        Native.jump_config_set_int(handle(), Utf8.encode(key), value);
        return this;
    }

    /** Host storage (a keystore, encrypted preferences) in place of storageDirectory's files; null goes back
     * to files. Its methods run on libjump's threads, under the client's lock: they must not call the client. */
    public Config storage(Storage storage) {
        Native.jump_config_set_storage(handle(), storage == null ? null : new HostStorage(storage));
        return this;
    }

    /** The effective settings, defaults included, as JSON text. */
    public String toJson() {
        return Utf8.decode(Native.jump_config_to_json(handle()));
    }

    @Override
    public void close() {
        cleanable.clean();
    }
}
