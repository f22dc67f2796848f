package io.libjump;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Social sign-in (Engage providers), two-step social registration, merge, linking and sharing:
 * {@link Client#social()}. A new identity without an account is {@link JumpRegistrationRequiredException} (detail
 * "social_registration_token", "prereg_record": give them to {@link #register}); an email owned by another account
 * is {@link JumpMergeRequiredException} (detail "merge_token"). Results are the generated records
 * ({@link SocialOutcome}, {@link SocialProviders}, ...).
 */
public final class Social {
    private final Client client;

    Social(Client client) {
        this.client = client;
    }

    private long h() {
        return client.handle();
    }

    private static byte[] u(String s) {
        return Utf8.encode(s);
    }

    /**
     * Fetches the Engage configuration.
     *
     * @return whether it changed and whether it came from the cache
     */
    public EngageConfigResult loadEngageConfig() {
        return Results.clientLoadEngageConfig(Client.parse(Native.jump_client_load_engage_config(h())));
    }

    /**
     * The providers the Engage configuration offers.
     *
     * @return the sign-in and sharing providers
     */
    public SocialProviders providers() {
        return Results.clientProviders(Client.parse(Native.jump_client_providers(h())));
    }

    /**
     * Begins a browser sign-in.
     *
     * @param provider the provider's name ("google", ...)
     * @param options {"input","force_reauth","link","merge_token"} or null
     * @return the URL to open and the URL prefix the sign-in ends on
     */
    public SocialBegin begin(String provider, Map<String, ?> options) {
        return Results.clientSocialBegin(Client.parse(
                Native.jump_client_social_begin(h(), u(provider), u(Client.json(options)))));
    }

    /**
     * Completes a begun sign-in with the URL the browser ended on.
     *
     * @param url that URL
     * @return the result
     */
    public SocialOutcome complete(String url) {
        return Results.clientSocialComplete(Client.parse(Native.jump_client_social_complete(h(), u(url))));
    }

    /**
     * {@link #complete} without blocking.
     *
     * @param url the URL the browser ended on
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SocialOutcome> completeAsync(String url) {
        return client.start(Results::clientSocialCompleteAsync,
                cb -> Native.jump_client_social_complete_async(h(), u(url), cb));
    }

    /**
     * Browser sign-in through a loopback receiver on 127.0.0.1.
     *
     * @param provider the provider's name
     * @param options {"input","force_reauth","link","merge_token"} or null
     * @param openUrl called once, on this thread, with the URL to open in the system browser (an exception
     *     from it cancels)
     * @param timeout how long to wait for the browser (null, zero or negative: 5 minutes)
     * @return the result
     * @throws JumpTimeoutException when the browser did not come back in time
     */
    public SocialOutcome signInLoopback(String provider, Map<String, ?> options, Consumer<String> openUrl, Duration timeout) {
        return Results.clientSocialSignInLoopback(Client.parse(
                Native.jump_client_social_sign_in_loopback(h(), u(provider),
                u(Client.json(options)), new HostCalls.OpenUrl(openUrl), millis(timeout))));
    }

    /** A loopback timeout as jump.h's timeout_ms (null, zero or negative: 0, libjump's 5 minutes). */
    private static int millis(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) return 0;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    }

    /**
     * {@link #signInLoopback} without blocking: openUrl runs on a libjump thread; {@code cancel(true)} stops the
     * wait.
     *
     * @param provider the provider's name
     * @param options {"input","force_reauth","link","merge_token"} or null
     * @param openUrl called once with the URL to open in the system browser
     * @param timeout how long to wait for the browser (null, zero or negative: 5 minutes)
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SocialOutcome> signInLoopbackAsync(String provider, Map<String, ?> options,
                                                               Consumer<String> openUrl, Duration timeout) {
        HostCalls.OpenUrl host = new HostCalls.OpenUrl(openUrl);
        int ms = millis(timeout);
        return client.start(Results::clientSocialSignInLoopbackAsync,
                cb -> Native.jump_client_social_sign_in_loopback_async(h(), u(provider),
                u(Client.json(options)), host, ms, cb));
    }

    /**
     * Sign-in with a provider SDK's own token.
     *
     * @param provider the provider's name
     * @param token the provider's access token
     * @param tokenSecret OAuth1's token secret, or null
     * @param options {"input","force_reauth","link","merge_token"} or null
     * @return the result
     */
    public SocialOutcome signInNative(String provider, String token, String tokenSecret, Map<String, ?> options) {
        return Results.clientSocialSignInNative(Client.parse(
                Native.jump_client_social_sign_in_native(h(), u(provider), u(token),
                u(tokenSecret), u(Client.json(options)))));
    }

    /**
     * {@link #signInNative} without blocking.
     *
     * @param provider the provider's name
     * @param token the provider's access token
     * @param tokenSecret OAuth1's token secret, or null
     * @param options {"input","force_reauth","link","merge_token"} or null
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SocialOutcome> signInNativeAsync(String provider, String token, String tokenSecret,
                                                             Map<String, ?> options) {
        return client.start(Results::clientSocialSignInNativeAsync,
                cb -> Native.jump_client_social_sign_in_native_async(h(), u(provider),
                u(token), u(tokenSecret), u(Client.json(options)), cb));
    }

    /**
     * Engage-only mode: where the Engage token is POSTed after each sign-in.
     *
     * @param url the app backend's URL (null removes it)
     */
    public void setTokenUrl(String url) {
        Native.jump_client_set_token_url(h(), u(url));
    }

    /**
     * Two-step registration after {@link JumpRegistrationRequiredException}.
     *
     * @param socialRegistrationToken the exception's detail "social_registration_token"
     * @param attributes the social registration form's fields (null: the prefilled ones)
     * @return the result (signed in)
     */
    public SignInResult register(String socialRegistrationToken, Map<String, ?> attributes) {
        return Results.clientRegisterSocial(Client.parse(
                Native.jump_client_register_social(h(), u(socialRegistrationToken),
                u(Client.json(attributes)))));
    }

    /**
     * {@link #register} without blocking.
     *
     * @param socialRegistrationToken the exception's detail "social_registration_token"
     * @param attributes the social registration form's fields (null: the prefilled ones)
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SignInResult> registerAsync(String socialRegistrationToken, Map<String, ?> attributes) {
        return client.start(Results::clientRegisterSocialAsync, cb -> Native.jump_client_register_social_async(h(),
                u(socialRegistrationToken), u(Client.json(attributes)), cb));
    }

    /**
     * A password sign-in that also merges the merge token's identity.
     *
     * @param user the email or user name
     * @param password the password
     * @param mergeToken the {@link JumpMergeRequiredException}'s detail "merge_token"
     * @return the result
     */
    public SignInResult signInMerge(String user, String password, String mergeToken) {
        return Results.clientSignInMerge(Client.parse(
                Native.jump_client_sign_in_merge(h(), u(user), u(password), u(mergeToken))));
    }

    /**
     * {@link #signInMerge} without blocking.
     *
     * @param user the email or user name
     * @param password the password
     * @param mergeToken the {@link JumpMergeRequiredException}'s detail "merge_token"
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SignInResult> signInMergeAsync(String user, String password, String mergeToken) {
        return client.start(Results::clientSignInMergeAsync,
                cb -> Native.jump_client_sign_in_merge_async(h(), u(user), u(password),
                u(mergeToken), cb));
    }

    /**
     * The signed-in user's linked identities.
     *
     * @return the list of identities
     */
    public java.util.List<LinkedProfile> linkedProfiles() {
        return Results.clientLinkedProfiles(Client.parse(Native.jump_client_linked_profiles(h())));
    }

    /**
     * Unlinks an identity from the signed-in user.
     *
     * @param identifier the identity's identifier (from {@link #linkedProfiles()})
     */
    public void unlinkAccount(String identifier) {
        Native.jump_client_unlink_account(h(), u(identifier));
    }

    /**
     * {@link #unlinkAccount} without blocking.
     *
     * @param identifier the identity's identifier
     * @return a {@link JumpFuture}, completed on the client's Executor with null or the JumpException of the failure
     */
    public JumpFuture<Void> unlinkAccountAsync(String identifier) {
        return client.start(r -> null, cb -> Native.jump_client_unlink_account_async(h(), u(identifier), cb));
    }

    /**
     * Shares an activity to providers.
     *
     * @param activity the activity ("url", "action", ...)
     * @param providers the providers' names (null: every provider that can)
     * @return what each provider answered
     */
    public ShareResult share(Map<String, ?> activity, java.util.List<String> providers) {
        return Results.clientShare(Client.parse(Native.jump_client_share(h(), u(Json.write(activity)),
                providers == null ? null : u(Json.write(providers)))));
    }

    /**
     * {@link #share} without blocking.
     *
     * @param activity the activity
     * @param providers the providers' names (null: every provider that can)
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<ShareResult> shareAsync(Map<String, ?> activity, java.util.List<String> providers) {
        return client.start(Results::clientShareAsync,
                cb -> Native.jump_client_share_async(h(), u(Json.write(activity)),
                providers == null ? null : u(Json.write(providers)), cb));
    }

    /**
     * What a share would post, without posting it.
     *
     * @param activity the activity
     * @return the content per provider
     */
    public ShareContent shareContent(Map<String, ?> activity) {
        return Results.clientShareContent(Client.parse(Native.jump_client_share_content(h(), u(Json.write(activity)))));
    }
}
