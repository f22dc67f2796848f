package io.libjump;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The result of an {@code ...Async} call: a {@link CompletionStage} and a {@link Future} that only the binding
 * completes. Its completion document arrives on a libjump thread and the future is completed on the client's
 * {@link Executor}. A caller reads, waits and chains; it cannot complete or obtrude a result: the
 * {@link CompletableFuture} behind it is private, the stages the chaining methods return are the caller's own,
 * and {@link #toCompletableFuture()} returns a copy each time.
 *
 * <p>{@link #cancel(boolean)} cancels this future at once and asks libjump to stop the request
 * ({@code jump_request_cancel}); the later {@code JUMP_E_CANCELLED} completion then finds it done. The
 * {@code jump_request} handle is freed when the completion arrives, under the same lock as cancel, so cancel
 * never sees a freed handle. A failure completes the future with the {@link JumpException} of its status
 * ({@link #get()} throws it wrapped in an {@link ExecutionException}, {@link #join()} in a
 * {@link java.util.concurrent.CompletionException}).
 *
 * @param <T> the result's type
 */
public final class JumpFuture<T> implements CompletionStage<T>, Future<T> {
    private final CompletableFuture<T> result = new CompletableFuture<>(); // completed here only
    private final Executor executor;
    private final Function<Object, T> convert;
    private long request; // guarded by this; 0 once the completion arrived
    private boolean finished; // guarded by this
    private final AtomicInteger arrivals = new AtomicInteger();

    JumpFuture(Executor executor, Function<Object, T> convert) {
        this.executor = executor;
        this.convert = convert;
    }

    /** The NativeCallback to hand to the _async call. */
    NativeCallback callback() {
        return new NativeCallback() {
            @Override
            void onDocument(byte[] json) {
                arrived(Utf8.decode(json));
            }
        };
    }

    /** The request handle the _async call returned (0: it failed to start; its completion still comes). */
    JumpFuture<T> started(long handle) {
        synchronized (this) {
            if (!finished) {
                request = handle;
                return this;
            }
        }
        Native.jump_request_free(handle); // the completion came first
        return this;
    }

    /** How many completion documents libjump delivered (exactly one, once it is done: the tests check it). */
    int arrivals() {
        return arrivals.get();
    }

    private void arrived(String text) {
        arrivals.incrementAndGet();
        long handle;
        synchronized (this) {
            finished = true;
            handle = request;
            request = 0;
        }
        if (handle != 0) Native.jump_request_free(handle);
        Runnable complete = () -> {
            try {
                Object doc = Json.parse(text);
                Long status = Json.number(doc, "status");
                if (status == null || status != 0) {
                    Object error = Json.get(doc, "error");
                    result.completeExceptionally(Errors.create(status == null ? JumpStatus.E_INTERNAL.code()
                            : status.intValue(), error == null ? null : Json.write(error)));
                } else {
                    result.complete(convert.apply(Json.get(doc, "result")));
                }
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        };
        Delivery.run(executor, complete); // a shut-down executor must not lose the outcome
    }

    // ---- Future ----

    /**
     * Cancels this future and the request in libjump ({@code jump_request_cancel}).
     *
     * @param mayInterruptIfRunning ignored: no thread of the caller's runs the request
     * @return whether this call cancelled the future (false once it is done)
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        // the future first: libjump's JUMP_E_CANCELLED completion, which may arrive at once, then finds it done
        boolean cancelled = result.cancel(mayInterruptIfRunning);
        if (cancelled) {
            synchronized (this) {
                if (request != 0) Native.jump_request_cancel(request);
            }
        }
        return cancelled;
    }

    @Override
    public boolean isCancelled() {
        return result.isCancelled();
    }

    @Override
    public boolean isDone() {
        return result.isDone();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        return result.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        return result.get(timeout, unit);
    }

    /**
     * Waits at most {@code timeout} for the result.
     *
     * @param timeout how long to wait
     * @return the result
     * @throws InterruptedException if the waiting thread was interrupted
     * @throws ExecutionException with the request's {@link JumpException} as its cause
     * @throws TimeoutException if the result did not come in time
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     */
    public T get(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Waits for the result without a checked exception, as {@link CompletableFuture#join()}.
     *
     * @return the result
     * @throws java.util.concurrent.CompletionException with the request's {@link JumpException} as its cause
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     */
    public T join() {
        return result.join();
    }

    /**
     * The result if the future is done, else {@code valueIfAbsent}, as {@link CompletableFuture#getNow}.
     *
     * @param valueIfAbsent what to return while the future is not done
     * @return the result or {@code valueIfAbsent}
     * @throws java.util.concurrent.CompletionException with the request's {@link JumpException} as its cause
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     */
    public T getNow(T valueIfAbsent) {
        return result.getNow(valueIfAbsent);
    }

    /**
     * Whether the future completed with a failure (cancellation included).
     *
     * @return true once it failed or was cancelled
     */
    public boolean isCompletedExceptionally() {
        return result.isCompletedExceptionally();
    }

    // ---- libjump's side ----

    /**
     * The request id ({@code jump_request_id}), or -1 once the request is done.
     *
     * @return the id, or -1
     */
    public long requestId() {
        synchronized (this) {
            return request != 0 ? Native.jump_request_id(request) : -1;
        }
    }

    /**
     * Waits for libjump's side to finish ({@code jump_request_wait}; the future may still be completing on its
     * Executor).
     *
     * @param timeout how long to wait at most (whole milliseconds, at most {@code Integer.MAX_VALUE}); a
     *     negative one waits without a limit
     * @return false on timeout
     */
    public boolean awaitNative(Duration timeout) {
        int ms = timeout.isNegative() ? -1 : (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        long handle;
        synchronized (this) {
            handle = request;
        }
        if (handle == 0) return true;
        try {
            Native.jump_request_wait(handle, ms);
            return true;
        } catch (JumpTimeoutException e) {
            return false;
        } catch (JumpInvalidHandleException e) {
            return true; // freed by the completion meanwhile
        }
    }

    // ---- CompletionStage ----

    /**
     * A new {@link CompletableFuture} completed as this future is (with the same result, failure or
     * cancellation): completing or cancelling the copy changes neither this future nor the request.
     *
     * @return a new copy at each call
     */
    @Override
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> copy = new CompletableFuture<>();
        result.whenComplete((v, e) -> {
            if (e != null) copy.completeExceptionally(e);
            else copy.complete(v);
        });
        return copy;
    }

    @Override
    public <U> CompletionStage<U> thenApply(Function<? super T, ? extends U> fn) {
        return result.thenApply(fn);
    }

    @Override
    public <U> CompletionStage<U> thenApplyAsync(Function<? super T, ? extends U> fn) {
        return result.thenApplyAsync(fn);
    }

    @Override
    public <U> CompletionStage<U> thenApplyAsync(Function<? super T, ? extends U> fn, Executor executor) {
        return result.thenApplyAsync(fn, executor);
    }

    @Override
    public CompletionStage<Void> thenAccept(Consumer<? super T> action) {
        return result.thenAccept(action);
    }

    @Override
    public CompletionStage<Void> thenAcceptAsync(Consumer<? super T> action) {
        return result.thenAcceptAsync(action);
    }

    @Override
    public CompletionStage<Void> thenAcceptAsync(Consumer<? super T> action, Executor executor) {
        return result.thenAcceptAsync(action, executor);
    }

    @Override
    public CompletionStage<Void> thenRun(Runnable action) {
        return result.thenRun(action);
    }

    @Override
    public CompletionStage<Void> thenRunAsync(Runnable action) {
        return result.thenRunAsync(action);
    }

    @Override
    public CompletionStage<Void> thenRunAsync(Runnable action, Executor executor) {
        return result.thenRunAsync(action, executor);
    }

    @Override
    public <U, V> CompletionStage<V> thenCombine(CompletionStage<? extends U> other, BiFunction<? super T, ? super U, ? extends V> fn) {
        return result.thenCombine(other, fn);
    }

    @Override
    public <U, V> CompletionStage<V> thenCombineAsync(CompletionStage<? extends U> other, BiFunction<? super T, ? super U, ? extends V> fn) {
        return result.thenCombineAsync(other, fn);
    }

    @Override
    public <U, V> CompletionStage<V> thenCombineAsync(CompletionStage<? extends U> other, BiFunction<? super T, ? super U, ? extends V> fn, Executor executor) {
        return result.thenCombineAsync(other, fn, executor);
    }

    @Override
    public <U> CompletionStage<Void> thenAcceptBoth(CompletionStage<? extends U> other, BiConsumer<? super T, ? super U> action) {
        return result.thenAcceptBoth(other, action);
    }

    @Override
    public <U> CompletionStage<Void> thenAcceptBothAsync(CompletionStage<? extends U> other, BiConsumer<? super T, ? super U> action) {
        return result.thenAcceptBothAsync(other, action);
    }

    @Override
    public <U> CompletionStage<Void> thenAcceptBothAsync(CompletionStage<? extends U> other, BiConsumer<? super T, ? super U> action, Executor executor) {
        return result.thenAcceptBothAsync(other, action, executor);
    }

    @Override
    public CompletionStage<Void> runAfterBoth(CompletionStage<?> other, Runnable action) {
        return result.runAfterBoth(other, action);
    }

    @Override
    public CompletionStage<Void> runAfterBothAsync(CompletionStage<?> other, Runnable action) {
        return result.runAfterBothAsync(other, action);
    }

    @Override
    public CompletionStage<Void> runAfterBothAsync(CompletionStage<?> other, Runnable action, Executor executor) {
        return result.runAfterBothAsync(other, action, executor);
    }

    @Override
    public <U> CompletionStage<U> applyToEither(CompletionStage<? extends T> other, Function<? super T, U> fn) {
        return result.applyToEither(other, fn);
    }

    @Override
    public <U> CompletionStage<U> applyToEitherAsync(CompletionStage<? extends T> other, Function<? super T, U> fn) {
        return result.applyToEitherAsync(other, fn);
    }

    @Override
    public <U> CompletionStage<U> applyToEitherAsync(CompletionStage<? extends T> other, Function<? super T, U> fn, Executor executor) {
        return result.applyToEitherAsync(other, fn, executor);
    }

    @Override
    public CompletionStage<Void> acceptEither(CompletionStage<? extends T> other, Consumer<? super T> action) {
        return result.acceptEither(other, action);
    }

    @Override
    public CompletionStage<Void> acceptEitherAsync(CompletionStage<? extends T> other, Consumer<? super T> action) {
        return result.acceptEitherAsync(other, action);
    }

    @Override
    public CompletionStage<Void> acceptEitherAsync(CompletionStage<? extends T> other, Consumer<? super T> action, Executor executor) {
        return result.acceptEitherAsync(other, action, executor);
    }

    @Override
    public CompletionStage<Void> runAfterEither(CompletionStage<?> other, Runnable action) {
        return result.runAfterEither(other, action);
    }

    @Override
    public CompletionStage<Void> runAfterEitherAsync(CompletionStage<?> other, Runnable action) {
        return result.runAfterEitherAsync(other, action);
    }

    @Override
    public CompletionStage<Void> runAfterEitherAsync(CompletionStage<?> other, Runnable action, Executor executor) {
        return result.runAfterEitherAsync(other, action, executor);
    }

    @Override
    public <U> CompletionStage<U> thenCompose(Function<? super T, ? extends CompletionStage<U>> fn) {
        return result.thenCompose(fn);
    }

    @Override
    public <U> CompletionStage<U> thenComposeAsync(Function<? super T, ? extends CompletionStage<U>> fn) {
        return result.thenComposeAsync(fn);
    }

    @Override
    public <U> CompletionStage<U> thenComposeAsync(Function<? super T, ? extends CompletionStage<U>> fn, Executor executor) {
        return result.thenComposeAsync(fn, executor);
    }

    @Override
    public <U> CompletionStage<U> handle(BiFunction<? super T, Throwable, ? extends U> fn) {
        return result.handle(fn);
    }

    @Override
    public <U> CompletionStage<U> handleAsync(BiFunction<? super T, Throwable, ? extends U> fn) {
        return result.handleAsync(fn);
    }

    @Override
    public <U> CompletionStage<U> handleAsync(BiFunction<? super T, Throwable, ? extends U> fn, Executor executor) {
        return result.handleAsync(fn, executor);
    }

    @Override
    public CompletionStage<T> whenComplete(BiConsumer<? super T, ? super Throwable> action) {
        return result.whenComplete(action);
    }

    @Override
    public CompletionStage<T> whenCompleteAsync(BiConsumer<? super T, ? super Throwable> action) {
        return result.whenCompleteAsync(action);
    }

    @Override
    public CompletionStage<T> whenCompleteAsync(BiConsumer<? super T, ? super Throwable> action, Executor executor) {
        return result.whenCompleteAsync(action, executor);
    }

    @Override
    public CompletionStage<T> exceptionally(Function<Throwable, ? extends T> fn) {
        return result.exceptionally(fn);
    }

    @Override
    public String toString() {
        return "JumpFuture[" + (result.isDone() ? result.isCancelled() ? "cancelled" : result.isCompletedExceptionally()
                ? "failed" : "done" : "running, request " + requestId()) + "]";
    }
}
