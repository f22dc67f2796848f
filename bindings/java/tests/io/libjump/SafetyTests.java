package io.libjump;

import static io.libjump.Support.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/** Host safety: many threads calling at once while the garbage collector runs beside them. */
final class SafetyTests {
    private SafetyTests() {}

    static final int THREADS = 64;

    private static List<String> jvmThreads(String prefix) {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().startsWith(prefix)) names.add(t.getName());
        return names;
    }

    @TestRunner.Test(seconds = 60)
    public static void libjump_threads_are_attached_as_daemons_and_detached_when_they_exit() throws Exception {
        String[] account = newAccount();
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Client c = client(null)) {
            // a direct executor: the handler runs on libjump's own callback thread, attached to the VM
            try (Config config = Config.of(settings(null)); Client direct = new Client(config, Runnable::run)) {
                direct.onEvent(e -> {
                    Thread t = Thread.currentThread();
                    seen.add(t.getName() + (t.isDaemon() ? " daemon" : " user"));
                });
                direct.signIn(account[0], PASSWORD);
                eventually(() -> !seen.isEmpty(), "an event");
            }
            equal("jump-events daemon", seen.get(0), "the event ran on libjump's callback thread, a daemon");
            check(!jvmThreads("jump-events").isEmpty(), "the VM knows the attached thread");
            c.isSignedIn();
        }
        // libjump's callback thread exits after three idle seconds: its pthread key detaches it from the VM
        long end = System.nanoTime() + 30_000_000_000L;
        while (!jvmThreads("jump-events").isEmpty() && System.nanoTime() < end) Thread.sleep(100);
        equal(List.of(), jvmThreads("jump-events"), "detached when it exited");
    }
    static final int CALLS = 16;

    @TestRunner.Test(seconds = 180)
    public static void async_calls_from_64_threads_with_gc_beside_them() throws Exception {
        String[] account = newAccount();
        long live = NativeCallback.LIVE.get();
        AtomicBoolean stop = new AtomicBoolean();
        Thread gc = new Thread(() -> {
            while (!stop.get()) {
                System.gc();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "gc-loop");
        gc.start();
        int total = THREADS * CALLS;
        AtomicIntegerArray completions = new AtomicIntegerArray(total); // how often each future completed
        AtomicInteger failures = new AtomicInteger();
        List<JumpFuture<?>> all = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        try (Client shared = client()) {
            shared.signIn(account[0], PASSWORD);
            for (int t = 0; t < THREADS; t++) {
                int base = t * CALLS;
                Thread th = new Thread(() -> {
                    try {
                        go.await();
                        // a client of its own, never closed: the Cleaner frees it (the GC loop finds it)
                        Client own = client();
                        for (int i = 0; i < CALLS; i++) {
                            int slot = base + i;
                            JumpFuture<?> f;
                            switch (i % 4) {
                                case 0: f = shared.tokens().credentialsAsync(java.time.Duration.ZERO); break;
                                case 1: f = own.signInAsync(account[0], i == 1 ? "wrong password" : PASSWORD); break;
                                case 2: f = shared.fetchRecordAsync(); break;
                                default:
                                    f = own.signInAsync(account[0], PASSWORD);
                                    f.cancel(true);
                            }
                            f.whenComplete((v, e) -> completions.incrementAndGet(slot));
                            all.add(f);
                            check(shared.isSignedIn(), "still signed in");
                        }
                        own = null;
                    } catch (Throwable e) {
                        failures.incrementAndGet();
                        e.printStackTrace(System.out);
                    }
                }, "caller-" + t);
                threads.add(th);
                th.start();
            }
            go.countDown();
            for (Thread th : threads) th.join(120_000);
            equal(0, failures.get(), "caller threads that threw");
            equal(total, all.size(), "futures started");
            for (JumpFuture<?> f : all) {
                try {
                    f.get(60, TimeUnit.SECONDS);
                } catch (Exception expected) {
                    // bad password, cancelled: completed all the same
                }
            }
            Thread.sleep(300); // whenComplete of a late duplicate would show up here
            for (int i = 0; i < total; i++) equal(1, completions.get(i), "completions of future " + i);
        } finally {
            stop.set(true);
            gc.join();
        }
        for (int i = 0; i < 5; i++) System.gc();
        eventually(() -> NativeCallback.LIVE.get() <= live, "every callback released: " + NativeCallback.LIVE.get() + " > " + live);
        // libjump's side: every request's callback ran exactly once (also for the futures cancelled at once)
        for (int i = 0; i < all.size(); i++) equal(1, all.get(i).arrivals(), "completion documents of request " + i);
    }
}
