package io.libjump;

/** The object jump_jni_host.c calls for jump_config_set_storage: turns Storage's answers and exceptions into
 * statuses (nothing may be thrown back into libjump). */
final class HostStorage extends NativeCallback {
    private final Storage storage;

    HostStorage(Storage storage) {
        this.storage = storage;
    }

    static int statusOf(Throwable e) {
        return e instanceof JumpException ? ((JumpException) e).code() : JumpStatus.E_STORAGE.code();
    }

    Object load(byte[] key) {
        try {
            byte[] data = storage.load(Utf8.decode(key));
            return data != null ? data : Integer.valueOf(JumpStatus.E_NOT_FOUND.code());
        } catch (Throwable e) {
            return statusOf(e);
        }
    }

    int save(byte[] key, byte[] data) {
        try {
            storage.save(Utf8.decode(key), data);
            return 0;
        } catch (Throwable e) {
            return statusOf(e);
        }
    }

    int erase(byte[] key) {
        try {
            storage.erase(Utf8.decode(key));
            return 0;
        } catch (Throwable e) {
            return statusOf(e);
        }
    }

    @Override
    void onDocument(byte[] json) {}
}
