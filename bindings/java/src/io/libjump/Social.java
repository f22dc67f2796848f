package io.libjump;

import java.util.Map;
import java.util.function.Consumer;

/** Social sign-in (Engage providers), two-step social registration, merge, linking and sharing: Client.social().
 * A new identity without an account is JumpRegistrationRequiredException (detail "social_registration_token",
 * "prereg_record": give them to register()); an email owned by another account is JumpMergeRequiredException
 * (detail "merge_token"). options: {"input","force_reauth","link","merge_token"} or null. */
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

    /** Fetches the Engage configuration: {"changed","from_cache"}. */
    public Object loadEngageConfig() {
        return Client.parse(Native.jump_client_load_engage_config(h()));
    }

    /** {"sign_in":[{"name","friendly_name",..}],"sharing":[..],"hide_tagline"}. */
    public Object providers() {
        return Client.parse(Native.jump_client_providers(h()));
    }

    /** Begins a browser sign-in: {"url","state","completion","completion_prefix"}. */
    public Object begin(String provider, Map<String, ?> options) {
        return Client.parse(Native.jump_client_social_begin(h(), u(provider), u(Client.json(options))));
    }

    /** Completes a begun sign-in with the URL the browser ended on. */
    public SignInResult complete(String url) {
        return SignInResult.of(Client.parse(Native.jump_client_social_complete(h(), u(url))));
    }

    public JumpFuture<SignInResult> completeAsync(String url) {
        return client.start(SignInResult::of, cb -> Native.jump_client_social_complete_async(h(), u(url), cb));
    }

    /** Browser sign-in through a loopback receiver on 127.0.0.1: openUrl is called once, on this thread, with
     * the URL to open in the system browser (an exception from it cancels). timeoutMs <= 0: 5 minutes. */
    public SignInResult signInLoopback(String provider, Map<String, ?> options, Consumer<String> openUrl, int timeoutMs) {
        return SignInResult.of(Client.parse(Native.jump_client_social_sign_in_loopback(h(), u(provider),
                u(Client.json(options)), new HostCalls.OpenUrl(openUrl), timeoutMs)));
    }

    /** signInLoopback without blocking: openUrl runs on a libjump thread; cancel(true) stops the wait. */
    public JumpFuture<SignInResult> signInLoopbackAsync(String provider, Map<String, ?> options,
                                                               Consumer<String> openUrl, int timeoutMs) {
        HostCalls.OpenUrl host = new HostCalls.OpenUrl(openUrl);
        return client.start(SignInResult::of, cb -> Native.jump_client_social_sign_in_loopback_async(h(), u(provider),
                u(Client.json(options)), host, timeoutMs, cb));
    }

    /** Sign-in with a provider SDK's own token (tokenSecret: OAuth1's, or null). */
    public SignInResult signInNative(String provider, String token, String tokenSecret, Map<String, ?> options) {
        return SignInResult.of(Client.parse(Native.jump_client_social_sign_in_native(h(), u(provider), u(token),
                u(tokenSecret), u(Client.json(options)))));
    }

    public JumpFuture<SignInResult> signInNativeAsync(String provider, String token, String tokenSecret,
                                                             Map<String, ?> options) {
        return client.start(SignInResult::of, cb -> Native.jump_client_social_sign_in_native_async(h(), u(provider),
                u(token), u(tokenSecret), u(Client.json(options)), cb));
    }

    /** Engage-only mode: where the Engage token is POSTed after each sign-in (null removes it). */
    public void setTokenUrl(String url) {
        Native.jump_client_set_token_url(h(), u(url));
    }

    /** Two-step registration after JumpRegistrationRequiredException. */
    public SignInResult register(String socialRegistrationToken, Map<String, ?> attributes) {
        return SignInResult.of(Client.parse(Native.jump_client_register_social(h(), u(socialRegistrationToken),
                u(Client.json(attributes)))));
    }

    public JumpFuture<SignInResult> registerAsync(String socialRegistrationToken, Map<String, ?> attributes) {
        return client.start(SignInResult::of, cb -> Native.jump_client_register_social_async(h(),
                u(socialRegistrationToken), u(Client.json(attributes)), cb));
    }

    /** A password sign-in that also merges the merge token's identity. */
    public SignInResult signInMerge(String user, String password, String mergeToken) {
        return SignInResult.of(Client.parse(Native.jump_client_sign_in_merge(h(), u(user), u(password), u(mergeToken))));
    }

    public JumpFuture<SignInResult> signInMergeAsync(String user, String password, String mergeToken) {
        return client.start(SignInResult::of, cb -> Native.jump_client_sign_in_merge_async(h(), u(user), u(password),
                u(mergeToken), cb));
    }

    /** The signed-in user's linked identities. */
    public Object linkedProfiles() {
        return Client.parse(Native.jump_client_linked_profiles(h()));
    }

    public void unlinkAccount(String identifier) {
        Native.jump_client_unlink_account(h(), u(identifier));
    }

    public JumpFuture<Void> unlinkAccountAsync(String identifier) {
        return client.start(r -> null, cb -> Native.jump_client_unlink_account_async(h(), u(identifier), cb));
    }

    /** Shares an activity to providers (null: every provider that can). */
    public Object share(Map<String, ?> activity, java.util.List<String> providers) {
        return Client.parse(Native.jump_client_share(h(), u(Json.write(activity)),
                providers == null ? null : u(Json.write(providers))));
    }

    public JumpFuture<Object> shareAsync(Map<String, ?> activity, java.util.List<String> providers) {
        return client.start(r -> r, cb -> Native.jump_client_share_async(h(), u(Json.write(activity)),
                providers == null ? null : u(Json.write(providers)), cb));
    }

    /** What a share would post, without posting it. */
    public Object shareContent(Map<String, ?> activity) {
        return Client.parse(Native.jump_client_share_content(h(), u(Json.write(activity))));
    }
}
