package io.libjump;

import java.lang.ref.Cleaner;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/** One app installation's session (jump_client). Thread-safe. Blocking calls return results or throw the
 * JumpException of their status; the *Async calls return a CompletableFuture completed on the client's
 * Executor (cancel(true) cancels the request). Events are delivered on the same Executor. Social sign-in is in
 * social(), sign-in tokens, API keys and authorized requests in tokens(). */
public final class Client implements AutoCloseable {
    private final Handle handle;
    private final Cleaner.Cleanable cleanable;
    private final Executor executor;
    private final Executor events; // in order, on executor
    private final Social social = new Social(this);
    private final Tokens tokens = new Tokens(this);

    private static final class Handle implements Runnable {
        volatile long value;

        Handle(long value) {
            this.value = value;
        }

        @Override
        public void run() {
            long h = value;
            value = 0;
            Native.jump_client_free(h); // in-flight operations complete with JUMP_E_CANCELLED
        }
    }

    static {
        Loader.ensure();
    }

    /** A client of config (copied: close it whenever), delivering on the common ForkJoinPool. */
    public Client(Config config) {
        this(config, null);
    }

    /** A client of config delivering completions and events on executor (null: the common ForkJoinPool).
     * Events arrive one at a time, in order, whatever the executor's threads. */
    public Client(Config config, Executor executor) {
        this.executor = executor != null ? executor : Delivery.defaultExecutor();
        this.events = new Delivery.Serial(this.executor);
        handle = new Handle(Native.jump_client_new(config.handle()));
        cleanable = Config.CLEANER.register(this, handle);
    }

    /** A client of a JSON config. */
    public static Client fromJson(String configJson, Executor executor) {
        try (Config config = Config.fromJson(configJson)) {
            return new Client(config, executor);
        }
    }

    long handle() {
        long h = handle.value;
        if (h == 0) throw new IllegalStateException("the Client is closed");
        return h;
    }

    Executor executor() {
        return executor;
    }

    /** Starts an _async call: call gets the NativeCallback and returns the jump_request handle. */
    <T> JumpFuture<T> start(Function<Object, T> convert, ToLongFunction<NativeCallback> call) {
        JumpFuture<T> future = new JumpFuture<>(executor, convert);
        NativeCallback callback = future.callback();
        long request;
        try {
            request = call.applyAsLong(callback);
        } catch (RuntimeException e) {
            callback.released(); // refused before libjump took it (a closed client, a NUL in a string)
            throw e;
        }
        return future.started(request);
    }

    static byte[] u(String s) {
        return Utf8.encode(s);
    }

    static String json(Map<String, ?> value) {
        return value == null ? null : Json.write(value);
    }

    static Object parse(byte[] json) {
        return json == null ? null : Json.parse(Utf8.decode(json));
    }

    /** Social sign-in, registration, merge, linking and sharing. */
    public Social social() {
        return social;
    }

    /** Sign-in tokens, API keys, external users, credentials and authorized requests. */
    public Tokens tokens() {
        return tokens;
    }

    // ---- state ----

    public ClientState state() {
        return ClientState.of(parse(Native.jump_client_state(handle())));
    }

    /** Memory only: no network, no storage (cheap enough for every frame). */
    public boolean isSignedIn() {
        return Native.jump_client_is_signed_in(handle()) != 0;
    }

    /** Retries reading the saved session (after a restore_error). */
    public void restore() {
        Native.jump_client_restore(handle());
    }

    /** Deletes the quarantined sessions (state's "quarantine"). */
    public void eraseQuarantine() {
        Native.jump_client_erase_quarantine(handle());
    }

    public void loadFlow() {
        Native.jump_client_load_flow(handle());
    }

    public void loadSchema() {
        Native.jump_client_load_schema(handle());
    }

    // ---- traditional sign-in and registration ----

    public SignInResult signIn(String user, String password) {
        return SignInResult.of(parse(Native.jump_client_sign_in(handle(), u(user), u(password))));
    }

    public JumpFuture<SignInResult> signInAsync(String user, String password) {
        return start(SignInResult::of, cb -> Native.jump_client_sign_in_async(handle(), u(user), u(password), cb));
    }

    public SignInResult registerTraditional(Map<String, ?> attributes, String password) {
        return SignInResult.of(parse(Native.jump_client_register_traditional(handle(), u(json(attributes)), u(password))));
    }

    public JumpFuture<SignInResult> registerTraditionalAsync(Map<String, ?> attributes, String password) {
        return start(SignInResult::of, cb -> Native.jump_client_register_traditional_async(handle(), u(json(attributes)),
                u(password), cb));
    }

    public void signOut() {
        Native.jump_client_sign_out(handle());
    }

    // ---- the record ----

    /** A view of the signed-in user's record (close it; it outlives neither the session nor the client). */
    public Record record() {
        return new Record(Native.jump_client_record(handle()));
    }

    public void fetchRecord() {
        Native.jump_client_fetch_record(handle());
    }

    public JumpFuture<Void> fetchRecordAsync() {
        return start(r -> null, cb -> Native.jump_client_fetch_record_async(handle(), cb));
    }

    /** Sends the record's unsynced edits. */
    public SyncResult sync() {
        return SyncResult.of(parse(Native.jump_client_sync(handle())));
    }

    public JumpFuture<SyncResult> syncAsync() {
        return start(SyncResult::of, cb -> Native.jump_client_sync_async(handle(), cb));
    }

    // ---- forms ----

    public void updateProfile(Map<String, ?> attributes) {
        Native.jump_client_update_profile(handle(), u(json(attributes)));
    }

    public JumpFuture<Void> updateProfileAsync(Map<String, ?> attributes) {
        return start(r -> null, cb -> Native.jump_client_update_profile_async(handle(), u(json(attributes)), cb));
    }

    public void changePassword(String currentPassword, String newPassword) {
        Native.jump_client_change_password(handle(), u(currentPassword), u(newPassword));
    }

    public JumpFuture<Void> changePasswordAsync(String currentPassword, String newPassword) {
        return start(r -> null, cb -> Native.jump_client_change_password_async(handle(), u(currentPassword),
                u(newPassword), cb));
    }

    public void forgotPassword(String email) {
        Native.jump_client_forgot_password(handle(), u(email));
    }

    public JumpFuture<Void> forgotPasswordAsync(String email) {
        return start(r -> null, cb -> Native.jump_client_forgot_password_async(handle(), u(email), cb));
    }

    public void resendVerificationEmail(String email) {
        Native.jump_client_resend_verification_email(handle(), u(email));
    }

    public JumpFuture<Void> resendVerificationEmailAsync(String email) {
        return start(r -> null, cb -> Native.jump_client_resend_verification_email_async(handle(), u(email), cb));
    }

    // ---- events ----

    /** Delivers this client's events to handler on the client's Executor; null removes it. */
    public void onEvent(Consumer<Event> handler) {
        if (handler == null) {
            Native.jump_client_set_event_callback(handle(), null);
            return;
        }
        Native.jump_client_set_event_callback(handle(), new NativeCallback() {
            @Override
            void onDocument(byte[] json) {
                String text = Utf8.decode(json);
                events.execute(() -> handler.accept(Event.of(Json.parse(text))));
            }
        });
    }

    /** Queue mode (for a host that pumps on its own thread): completions and events wait for nextEvent()
     * instead of reaching their callbacks. */
    public void useEventQueue(boolean enabled) {
        Native.jump_client_use_event_queue(handle(), enabled ? 1 : 0);
    }

    /** A descriptor readable while the queue holds a document (queue mode only). */
    public int eventFd() {
        return Native.jump_client_event_fd(handle());
    }

    /** The oldest queued document (JSON text), or null when none waits. Never blocks. */
    public String nextEvent() {
        try {
            return Utf8.decode(Native.jump_client_next_event(handle()));
        } catch (JumpNotFoundException e) {
            return null;
        }
    }

    /** Frees the client: its in-flight futures complete with JumpCancelledException (unless done). */
    @Override
    public void close() {
        cleanable.clean();
    }
}
