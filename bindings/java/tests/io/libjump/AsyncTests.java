package io.libjump;

import static io.libjump.Support.*;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** JumpFuture results, failures and cancellation (jump_request_cancel). */
final class AsyncTests {
    private AsyncTests() {}

    private static void delay(String path, int ms) throws Exception {
        emu().admin("POST", "/emulator/faults",
                "{\"kind\":\"delay\",\"count\":1,\"path\":\"" + path + "\",\"delay_ms\":" + ms + "}");
    }

    @TestRunner.Test
    public static void async_results_and_failures_complete_on_the_executor() throws Exception {
        ExecutorService host = Executors.newSingleThreadExecutor(r -> new Thread(r, "async-host"));
        String[] account = newAccount();
        try (Config config = Config.of(settings(null)); Client c = new Client(config, host)) {
            AtomicReference<String> thread = new AtomicReference<>();
            JumpFuture<SignInResult> f = c.signInAsync(account[0], PASSWORD);
            SignInResult r = f.whenComplete((v, e) -> thread.set(Thread.currentThread().getName())).toCompletableFuture()
                    .get(20, TimeUnit.SECONDS);
            equal(account[1], r.uuid(), "uuid");
            equal("async-host", thread.get(), "completed on the host's executor");
            equal(-1L, f.requestId(), "the request handle is freed once completed");
            JumpBadCredentialsException e = expect(JumpBadCredentialsException.class,
                    () -> await(c.signInAsync(account[0], "nope nope")), "bad password, async");
            equal("JUMP_E_BAD_CREDENTIALS", e.detail("status_name"), "the completion's error detail");
            check(c.tokens().credentialsAsync(Duration.ZERO).get(20, TimeUnit.SECONDS).kind() == Credentials.Kind.CAPTURE, "credentials");
        } finally {
            host.shutdown();
        }
    }

    @TestRunner.Test
    public static void cancel_true_cancels_the_request() throws Exception {
        String[] account = newAccount();
        long live = NativeCallback.LIVE.get();
        try (Client c = client()) {
            delay("/oauth/auth_native_traditional", 4000);
            JumpFuture<SignInResult> f = c.signInAsync(account[0], PASSWORD);
            Thread.sleep(200);
            check(!f.isDone(), "still in flight after 200 ms: " + (f.isDone() ? f.handle((v, e) -> v + " " + e).toCompletableFuture().join() : ""));
            check(f.requestId() > 0, "a request id while in flight");
            long t0 = System.nanoTime();
            boolean cancelled = f.cancel(true);
            check(cancelled, "cancel(true) succeeds: " + (cancelled ? "" : f.handle((v, e) -> v + " " + e).toCompletableFuture().join())
                    + " after " + (System.nanoTime() - t0) / 1000 + " us");
            check(f.isCancelled(), "isCancelled");
            expect(CancellationException.class, () -> f.get(1, TimeUnit.SECONDS), "get after cancel");
            // libjump's side: the request stops (its callback runs with JUMP_E_CANCELLED) well before the delay
            check(f.awaitNative(Duration.ofSeconds(3)), "the native request finished");
            check((System.nanoTime() - t0) / 1_000_000 < 3000, "stopped before the server's 4 s delay");
            check(!c.isSignedIn(), "the cancelled sign-in did not sign in");
        } finally {
            emu().admin("DELETE", "/emulator/faults", null);
        }
        eventually(() -> NativeCallback.LIVE.get() <= live, "every callback released (userdata_free)");
    }

    @TestRunner.Test
    public static void closing_the_client_cancels_in_flight_futures() throws Exception {
        String[] account = newAccount();
        JumpFuture<SignInResult> f;
        try (Client c = client()) {
            delay("/oauth/auth_native_traditional", 3000);
            f = c.signInAsync(account[0], PASSWORD);
            Thread.sleep(100);
        } finally {
            // the close above runs first; the fault is consumed or cleared
        }
        expect(JumpCancelledException.class, () -> f.get(10, TimeUnit.SECONDS), "completed as cancelled");
        emu().admin("DELETE", "/emulator/faults", null);
    }

    @TestRunner.Test
    public static void a_continuation_may_block_on_another_future() throws Exception {
        String[] account = newAccount();
        try (Client c = client()) { // the default Executor
            // each step waits for a later completion from inside a completion: nested joins, no deadlock
            CompletableFuture<String> chain = c.signInAsync(account[0], PASSWORD)
                    .thenApply(r -> c.fetchRecordAsync().thenApply(v -> c.tokens().credentialsAsync(Duration.ZERO).join().kind().json())
                            .toCompletableFuture().join())
                    .toCompletableFuture();
            equal("capture", chain.get(20, TimeUnit.SECONDS), "the nested futures completed");
        }
    }

    @TestRunner.Test
    public static void event_queue_mode_hands_documents_to_the_host() throws Exception {
        String[] account = newAccount();
        try (Client c = client()) {
            c.useEventQueue(true);
            check(c.eventFd() >= 0, "an event fd");
            c.signIn(account[0], PASSWORD);
            String doc = null;
            long end = System.nanoTime() + 5_000_000_000L;
            while (doc == null && System.nanoTime() < end) {
                doc = c.nextEvent();
                if (doc == null) Thread.sleep(10);
            }
            check(doc != null && doc.contains("\"signed_in\""), "the queued event: " + doc);
            c.useEventQueue(false);
            expect(JumpUnsupportedException.class, c::eventFd, "no fd outside queue mode");
        }
    }
}
