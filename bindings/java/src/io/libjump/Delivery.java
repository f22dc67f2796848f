package io.libjump;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The Executor a Client delivers on when the host names none: one daemon thread for the process, so that
 * completions and events keep their order and host code never runs on (nor delays) libjump's own thread. */
final class Delivery {
    private Delivery() {}

    private static final class Holder {
        static final ExecutorService DEFAULT = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jump-delivery");
            t.setDaemon(true);
            return t;
        });
    }

    static Executor defaultExecutor() {
        return Holder.DEFAULT;
    }

    /** Runs task on executor, or here when it refuses (shut down): a delivery is never lost. */
    static void run(Executor executor, Runnable task) {
        try {
            executor.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            task.run();
        }
    }
}
