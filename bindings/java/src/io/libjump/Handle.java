package io.libjump;

import java.lang.ref.Cleaner;
import java.util.function.LongConsumer;

/**
 * A native handle (jump_config, jump_client, jump_record) as its owner keeps it: freed once, by close() or by
 * the Cleaner when the owner becomes unreachable, whichever comes first (Cleanable.clean runs the action at
 * most once, from any thread); after that, get() throws IllegalStateException("the Client is closed").
 */
final class Handle {
    private static final Cleaner CLEANER = Cleaner.create();

    private final Value value;
    private final Cleaner.Cleanable cleanable;
    private final String closed;

    /** The freeing action, apart from the owner: the Cleaner must not reach the object it cleans. */
    private static final class Value implements Runnable {
        volatile long value;
        private final LongConsumer free;

        Value(long value, LongConsumer free) {
            this.value = value;
            this.free = free;
        }

        @Override
        public void run() {
            long h = value;
            value = 0;
            free.accept(h);
        }
    }

    /**
     * @param owner the Config, Client or Record that holds this handle
     * @param value the native handle
     * @param free the jump_*_free function (a lambda that captures nothing: it must not hold the owner)
     * @param kind the owner's class name, for the message of use after close
     */
    Handle(Object owner, long value, LongConsumer free, String kind) {
        this.value = new Value(value, free);
        this.closed = "the " + kind + " is closed";
        this.cleanable = CLEANER.register(owner, this.value);
    }

    /** The native handle; IllegalStateException once closed. */
    long get() {
        long h = value.value;
        if (h == 0) throw new IllegalStateException(closed);
        return h;
    }

    /** Frees the handle; closing again does nothing. */
    void close() {
        cleanable.clean();
    }
}
