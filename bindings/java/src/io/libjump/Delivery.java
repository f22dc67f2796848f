package io.libjump;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;

/** Where completions, events and log lines are delivered. The default Executor is the common ForkJoinPool (as
 * for CompletableFuture's own async steps): a callback that blocks on another future there makes the pool add a
 * thread instead of deadlocking, which one delivery thread could not. Events and log lines keep their order
 * through a Serial in front of whatever Executor the host gives. */
final class Delivery {
    private Delivery() {}

    static Executor defaultExecutor() {
        return ForkJoinPool.commonPool();
    }

    /** Runs task on executor, or here when it refuses (shut down): a delivery is never lost. */
    static void run(Executor executor, Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    /** Runs its tasks one at a time, in order, on the target Executor (one task of the target at a time). */
    static final class Serial implements Executor {
        private final Executor target;
        private final ArrayDeque<Runnable> queue = new ArrayDeque<>(); // guarded by this
        private boolean draining; // guarded by this

        Serial(Executor target) {
            this.target = target;
        }

        @Override
        public void execute(Runnable task) {
            synchronized (this) {
                queue.add(task);
                if (draining) return;
                draining = true;
            }
            run(target, this::drain);
        }

        private void drain() {
            while (true) {
                Runnable task;
                synchronized (this) {
                    task = queue.poll();
                    if (task == null) {
                        draining = false;
                        return;
                    }
                }
                try {
                    task.run();
                } catch (Throwable e) {
                    // the host's handler threw: report it as an uncaught exception, and go on with the next
                    Thread t = Thread.currentThread();
                    t.getUncaughtExceptionHandler().uncaughtException(t, e);
                }
            }
        }
    }
}
