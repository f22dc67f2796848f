package io.libjump;

import java.util.concurrent.atomic.AtomicLong;

/** What the glue's jump_callback calls: onDocument on a libjump thread (attached to the VM), released from
 * userdata_free, once, after which the glue deletes its global reference. */
abstract class NativeCallback {
    /** Callbacks libjump holds now (made and not yet released): the tests' check that none leaks. */
    static final AtomicLong LIVE = new AtomicLong();

    NativeCallback() {
        LIVE.incrementAndGet();
    }

    /** A JSON document (UTF-8); must not throw (the glue would drop the exception). */
    abstract void onDocument(byte[] json);

    /** userdata_free: libjump dropped this callback. */
    void released() {
        LIVE.decrementAndGet();
    }
}
