package io.libjump;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/** The future of an _async call. Its completion document arrives on a libjump thread and the future is
 * completed on the client's Executor; cancel(true) asks libjump to stop (jump_request_cancel) and cancels the
 * future at once (the later JUMP_E_CANCELLED completion then finds it done). The jump_request handle is freed
 * when the completion arrives, under the same lock as cancel, so cancel never sees a freed handle. */
public final class JumpFuture<T> extends CompletableFuture<T> {
    private final Executor executor;
    private final Function<Object, T> convert;
    private long request; // guarded by this; 0 once the completion arrived
    private boolean finished; // guarded by this
    private final java.util.concurrent.atomic.AtomicInteger arrivals = new java.util.concurrent.atomic.AtomicInteger();

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
                    completeExceptionally(Errors.create(status == null ? JumpStatus.E_INTERNAL.code() : status.intValue(),
                            error == null ? null : Json.write(error)));
                } else {
                    complete(convert.apply(Json.get(doc, "result")));
                }
            } catch (Throwable e) {
                completeExceptionally(e);
            }
        };
        Delivery.run(executor, complete); // a shut-down executor must not lose the outcome
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        // the future first: libjump's JUMP_E_CANCELLED completion, which may arrive at once, then finds it done
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            synchronized (this) {
                if (request != 0) Native.jump_request_cancel(request);
            }
        }
        return cancelled;
    }

    /** The request id (jump_request_id), or -1 once the request is done. */
    public long requestId() {
        synchronized (this) {
            return request != 0 ? Native.jump_request_id(request) : -1;
        }
    }

    /** Waits for libjump's side (jump_request_wait; the future may still be completing on its Executor).
     * Returns false on timeout. */
    public boolean awaitNative(int timeoutMs) {
        long handle;
        synchronized (this) {
            handle = request;
        }
        if (handle == 0) return true;
        try {
            Native.jump_request_wait(handle, timeoutMs);
            return true;
        } catch (JumpTimeoutException e) {
            return false;
        } catch (JumpInvalidHandleException e) {
            return true; // freed by the completion meanwhile
        }
    }
}
