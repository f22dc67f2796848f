package io.libjump;

import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * One app installation's session ({@code jump_client}). Thread-safe. Blocking calls return results or throw
 * the {@link JumpException} of their status; the {@code ...Async} calls return a {@link JumpFuture} (read-only:
 * a caller cannot complete it) completed on the client's Executor ({@code cancel(true)} cancels the request).
 * Events are delivered on the same Executor. Social sign-in is in {@link #social()}, sign-in tokens, API keys and
 * authorized requests in {@link #tokens()}.
 */
public final class Client implements AutoCloseable {
    private final Handle handle;
    private final Executor executor;
    private final Executor events; // in order, on executor
    private final Social social = new Social(this);
    private final Tokens tokens = new Tokens(this);

    static {
        Loader.ensure();
    }

    /**
     * A client of a config (copied: close it whenever), delivering on the common ForkJoinPool.
     *
     * @param config the settings
     */
    public Client(Config config) {
        this(config, null);
    }

    /**
     * A client of a config delivering completions and events on an Executor. Events arrive one at a time, in
     * order, whatever the executor's threads.
     *
     * @param config the settings (copied: close it whenever)
     * @param executor where futures complete and events are delivered (null: the common ForkJoinPool)
     */
    public Client(Config config, Executor executor) {
        this.executor = executor != null ? executor : Delivery.defaultExecutor();
        this.events = new Delivery.Serial(this.executor);
        // freeing completes the in-flight operations with JUMP_E_CANCELLED
        handle = new Handle(this, Native.jump_client_new(config.handle()), v -> Native.jump_client_free(v), "Client");
    }

    /**
     * A client of a JSON config.
     *
     * @param configJson a JSON object of config keys ({@link ConfigKey})
     * @param executor where futures complete and events are delivered (null: the common ForkJoinPool)
     * @return the client
     */
    public static Client fromJson(String configJson, Executor executor) {
        try (Config config = Config.fromJson(configJson)) {
            return new Client(config, executor);
        }
    }

    long handle() {
        return handle.get();
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

    /**
     * Social sign-in, registration, merge, linking and sharing.
     *
     * @return this client's social calls
     */
    public Social social() {
        return social;
    }

    /**
     * Sign-in tokens, API keys, external users, credentials and authorized requests.
     *
     * @return this client's token calls
     */
    public Tokens tokens() {
        return tokens;
    }

    // ---- state ----

    /**
     * Who is signed in and what the session holds ({@code jump_client_state}).
     *
     * @return the state
     */
    public ClientState state() {
        return Results.clientState(parse(Native.jump_client_state(handle())));
    }

    /**
     * Whether a user is signed in. Memory only: no network, no storage (cheap enough for every frame).
     *
     * @return whether one is
     */
    public boolean isSignedIn() {
        return Native.jump_client_is_signed_in(handle()) != 0;
    }

    /**
     * Retries reading the saved session (after a restore_error).
     */
    public void restore() {
        Native.jump_client_restore(handle());
    }

    /**
     * Deletes the quarantined sessions (the state's "quarantine").
     */
    public void eraseQuarantine() {
        Native.jump_client_erase_quarantine(handle());
    }

    /**
     * Downloads the Capture flow (forms and their fields) now instead of at first use.
     */
    public void loadFlow() {
        Native.jump_client_load_flow(handle());
    }

    /**
     * Loads the Capture schema now instead of at first use.
     */
    public void loadSchema() {
        Native.jump_client_load_schema(handle());
    }

    // ---- several accounts (config key "accounts" = "multiple") ----

    /**
     * The saved accounts ({@code jump_client_accounts}): the active one first, then the most recently used; with
     * {@code accounts} "single" (the default) the signed-in user, if any. Reads the saved index again, so that
     * accounts another process sharing the storage directory added are listed too.
     *
     * @return the accounts and the active one's uuid (null when no user is active)
     */
    public SavedAccounts accounts() {
        return Results.clientAccounts(parse(Native.jump_client_accounts(handle())));
    }

    /**
     * Makes the saved account of a uuid the active one, without a password; event
     * {@link Event.Name#ACCOUNT_SWITCHED} tells the app. Its token is refreshed first when stale. Unsynced edits
     * stay with the account that made them: a {@link Record} taken before the switch still edits its own account.
     *
     * @param uuid the saved account's uuid
     * @throws JumpNotFoundException when no saved account has that uuid
     */
    public void switchAccount(String uuid) {
        Native.jump_client_switch_account(handle(), u(uuid));
    }

    /**
     * {@link #switchAccount} without blocking.
     *
     * @param uuid the saved account's uuid
     * @return a {@link JumpFuture}, completed on the client's Executor with null or the JumpException of the failure
     *     ({@link JumpNotFoundException} for an unknown uuid)
     */
    public JumpFuture<Void> switchAccountAsync(String uuid) {
        return start(r -> null, cb -> Native.jump_client_switch_account_async(handle(), u(uuid), cb));
    }

    /**
     * Signs the saved account of a uuid out and erases everything of it on storage (session, unsynced edits,
     * quarantine, secrets); the other accounts stay signed in. A removed active account leaves no user active
     * ({@link #isSignedIn()} false until a sign-in or a switch).
     *
     * @param uuid the saved account's uuid
     * @throws JumpNotFoundException when no saved account has that uuid
     * @throws JumpStorageException when an erase failed (call again)
     */
    public void removeAccount(String uuid) {
        Native.jump_client_remove_account(handle(), u(uuid));
    }

    // ---- traditional sign-in and registration ----

    /**
     * Signs in with a user name or email and a password.
     *
     * @param user the email or user name
     * @param password the password
     * @return the result
     * @throws JumpBadCredentialsException for a wrong password
     */
    public SignInResult signIn(String user, String password) {
        return Results.clientSignIn(parse(Native.jump_client_sign_in(handle(), u(user), u(password))));
    }

    /**
     * {@link #signIn} without blocking.
     *
     * @param user the email or user name
     * @param password the password
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SignInResult> signInAsync(String user, String password) {
        return start(Results::clientSignInAsync,
                cb -> Native.jump_client_sign_in_async(handle(), u(user), u(password), cb));
    }

    /**
     * Registers a new user with the traditional registration form.
     *
     * @param attributes the form's fields
     * @param password the password
     * @return the result (signed in)
     * @throws JumpValidationException when the form refuses a field (detail "invalid_fields")
     */
    public SignInResult registerTraditional(Map<String, ?> attributes, String password) {
        return Results.clientRegisterTraditional(parse(
                Native.jump_client_register_traditional(handle(), u(json(attributes)), u(password))));
    }

    /**
     * {@link #registerTraditional} without blocking.
     *
     * @param attributes the form's fields
     * @param password the password
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SignInResult> registerTraditionalAsync(Map<String, ?> attributes, String password) {
        return start(Results::clientRegisterTraditionalAsync,
                cb -> Native.jump_client_register_traditional_async(handle(), u(json(attributes)),
                u(password), cb));
    }

    /**
     * Signs out (and revokes the token on the server).
     */
    public void signOut() {
        Native.jump_client_sign_out(handle());
    }

    // ---- the record ----

    /**
     * A view of the signed-in user's record (close it; it outlives neither the session nor the client).
     *
     * @return the view
     * @throws JumpNotSignedInException when nobody is signed in
     */
    public Record record() {
        return new Record(Native.jump_client_record(handle()));
    }

    /**
     * Fetches the record from the server (unsynced edits are kept on top).
     */
    public void fetchRecord() {
        Native.jump_client_fetch_record(handle());
    }

    /**
     * {@link #fetchRecord} without blocking.
     *
     * @return a {@link JumpFuture}, completed on the client's Executor with null or the JumpException of the failure
     */
    public JumpFuture<Void> fetchRecordAsync() {
        return start(r -> null, cb -> Native.jump_client_fetch_record_async(handle(), cb));
    }

    /**
     * Sends the record's unsynced edits.
     *
     * @return what was sent
     */
    public SyncResult sync() {
        return Results.clientSync(parse(Native.jump_client_sync(handle())));
    }

    /**
     * {@link #sync} without blocking.
     *
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SyncResult> syncAsync() {
        return start(Results::clientSyncAsync, cb -> Native.jump_client_sync_async(handle(), cb));
    }

    // ---- forms ----

    /**
     * Sends the edit-profile form.
     *
     * @param attributes the form's fields
     */
    public void updateProfile(Map<String, ?> attributes) {
        Native.jump_client_update_profile(handle(), u(json(attributes)));
    }

    /**
     * {@link #updateProfile} without blocking.
     *
     * @param attributes the form's fields
     * @return a {@link JumpFuture}, completed on the client's Executor with null or the JumpException of the failure
     */
    public JumpFuture<Void> updateProfileAsync(Map<String, ?> attributes) {
        return start(r -> null, cb -> Native.jump_client_update_profile_async(handle(), u(json(attributes)), cb));
    }

    /**
     * Changes the signed-in user's password.
     *
     * @param currentPassword the password now
     * @param newPassword the new one
     */
    public void changePassword(String currentPassword, String newPassword) {
        Native.jump_client_change_password(handle(), u(currentPassword), u(newPassword));
    }

    /**
     * {@link #changePassword} without blocking.
     *
     * @param currentPassword the password now
     * @param newPassword the new one
     * @return a {@link JumpFuture}, completed on the client's Executor with null or the JumpException of the failure
     */
    public JumpFuture<Void> changePasswordAsync(String currentPassword, String newPassword) {
        return start(r -> null, cb -> Native.jump_client_change_password_async(handle(), u(currentPassword),
                u(newPassword), cb));
    }

    /**
     * Sends the forgot-password form (the server emails a reset link).
     *
     * @param email the user's email
     */
    public void forgotPassword(String email) {
        Native.jump_client_forgot_password(handle(), u(email));
    }

    /**
     * {@link #forgotPassword} without blocking.
     *
     * @param email the user's email
     * @return a {@link JumpFuture}, completed on the client's Executor with null or the JumpException of the failure
     */
    public JumpFuture<Void> forgotPasswordAsync(String email) {
        return start(r -> null, cb -> Native.jump_client_forgot_password_async(handle(), u(email), cb));
    }

    /**
     * Sends the email verification again.
     *
     * @param email the user's email
     */
    public void resendVerificationEmail(String email) {
        Native.jump_client_resend_verification_email(handle(), u(email));
    }

    /**
     * {@link #resendVerificationEmail} without blocking.
     *
     * @param email the user's email
     * @return a {@link JumpFuture}, completed on the client's Executor with null or the JumpException of the failure
     */
    public JumpFuture<Void> resendVerificationEmailAsync(String email) {
        return start(r -> null, cb -> Native.jump_client_resend_verification_email_async(handle(), u(email), cb));
    }

    // ---- events ----

    /**
     * Delivers this client's events to a handler on the client's Executor, one at a time and in order.
     *
     * @param handler the handler; null removes it
     */
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

    /**
     * Queue mode (for a host that pumps on its own thread): completions and events wait for
     * {@link #nextEvent()} instead of reaching their callbacks.
     *
     * @param enabled on or off
     */
    public void useEventQueue(boolean enabled) {
        Native.jump_client_use_event_queue(handle(), enabled ? 1 : 0);
    }

    /**
     * A descriptor readable while the queue holds a document (queue mode only).
     *
     * @return the file descriptor
     * @throws JumpUnsupportedException outside queue mode
     */
    public int eventFd() {
        return Native.jump_client_event_fd(handle());
    }

    /**
     * The oldest queued document. Never blocks.
     *
     * @return its JSON text, or null when none waits
     */
    public String nextEvent() {
        try {
            return Utf8.decode(Native.jump_client_next_event(handle()));
        } catch (JumpNotFoundException e) {
            return null;
        }
    }

    /**
     * Frees the client: its in-flight futures complete with JumpCancelledException (unless done). Closing
     * again does nothing.
     */
    @Override
    public void close() {
        handle.close();
    }
}
