package io.libjump;

import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * The backend-issued sessions (sign-in tokens, API keys, external users), credentials and authorized
 * requests: {@link Client#tokens()}. Access tokens are secrets: do not log them.
 */
public final class Tokens {
    private final Client client;

    Tokens(Client client) {
        this.client = client;
    }

    private long h() {
        return client.handle();
    }

    private static byte[] u(String s) {
        return Utf8.encode(s);
    }

    /**
     * Exchanges a sign-in token (from the app's backend) for a session.
     *
     * @param signInToken the token
     * @return the signed-in user, and whether a sign-in happened
     */
    public SignInWithTokenResult signInWithToken(String signInToken) {
        return Results.clientSignInWithToken(Client.parse(Native.jump_client_sign_in_with_token(h(), u(signInToken))));
    }

    /**
     * {@link #signInWithToken} without blocking.
     *
     * @param signInToken the token
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<SignInWithTokenResult> signInWithTokenAsync(String signInToken) {
        return client.start(Results::clientSignInWithTokenAsync,
                cb -> Native.jump_client_sign_in_with_token_async(h(), u(signInToken), cb));
    }

    /**
     * Uses an API key session (a server-side user, no sign-in).
     *
     * @param apiKey the API key (a secret)
     * @param userId the user it acts as
     * @param environment the environment (null: the key's)
     * @param region the region (null: the key's)
     */
    public void useApiKey(String apiKey, String userId, String environment, String region) {
        Native.jump_client_use_api_key(h(), u(apiKey), u(userId), u(environment), u(region));
    }

    /**
     * The sign-in-token / API-key session.
     *
     * @return its status
     */
    public SignInStatus status() {
        return Results.clientStatus(Client.parse(Native.jump_client_status(h())));
    }

    /**
     * Makes the signed-in user the app's externalUserId.
     *
     * @param externalUserId the app's id of the user
     * @param authenticate called on this thread, only when needed: returns
     *     {@code {"type":"sign_in_token","sign_in_token":..}} or {@code {"type":"api_key",..}}, or throws to refuse
     * @return what the call did, and the signed-in user
     */
    public IdentifyResult identifyExternalUser(String externalUserId, Function<String, ? extends Map<String, ?>> authenticate) {
        return Results.clientIdentifyExternalUser(Client.parse(
                Native.jump_client_identify_external_user(h(), u(externalUserId),
                authenticate == null ? null : new HostCalls.Authenticate(authenticate))));
    }

    /**
     * An authorized request. An HTTP error status is an answer, not a failure.
     *
     * @param method "GET", "PUT", ...
     * @param url relative to the credential's server, or absolute on it
     * @param headers extra headers, or null
     * @param body the body, or null
     * @return the answer
     */
    public HttpResponse request(String method, String url, Map<String, String> headers, byte[] body) {
        return Results.clientRequest(Client.parse(Native.jump_client_request(h(), u(method), u(url),
                headers == null ? null : u(Json.write(headers)), body)));
    }

    /**
     * {@link #request} without blocking.
     *
     * @param method "GET", "PUT", ...
     * @param url relative to the credential's server, or absolute on it
     * @param headers extra headers, or null
     * @param body the body, or null
     * @return a {@link JumpFuture}, completed on the client's Executor with the result or the JumpException of the failure
     */
    public JumpFuture<HttpResponse> requestAsync(String method, String url, Map<String, String> headers,
                                                        byte[] body) {
        return client.start(Results::clientRequestAsync, cb -> Native.jump_client_request_async(h(), u(method), u(url),
                headers == null ? null : u(Json.write(headers)), body, cb));
    }

    /**
     * Takes a web login page's token from its cookies or title.
     *
     * @param pageUrl the page's URL
     * @param cookies its cookies (a Cookie header's text), or null
     * @param title its title, or null
     * @return the token (a secret)
     * @throws JumpNotFoundException when neither holds one
     */
    public String useWebLogin(String pageUrl, String cookies, String title) {
        return Utf8.decode(Native.jump_client_use_web_login(h(), u(pageUrl), u(cookies), u(title)));
    }

    /**
     * A valid access token (refreshed first when needed).
     *
     * @return the token (a secret)
     */
    public String accessToken() {
        return Utf8.decode(Native.jump_client_access_token(h()));
    }

    /**
     * Refreshes the access token now.
     */
    public void refreshAccessToken() {
        Native.jump_client_refresh_access_token(h());
    }

    /**
     * The credential {@link #request} would send, refreshed first (single flight) only when it has
     * {@code minTtl} or less left, or with {@link CredentialsFlag#FORCE_REFRESH}.
     *
     * @param minTtl the lifetime it must still have (whole seconds; null: zero)
     * @param flags what else to do (none: refresh only when needed)
     * @return the credential
     */
    public Credentials credentials(Duration minTtl, CredentialsFlag... flags) {
        return Results.clientCredentials(Client.parse(
                Native.jump_client_credentials(h(), seconds(minTtl), CredentialsFlag.bits(flags))));
    }

    /**
     * {@link #credentials} without blocking.
     *
     * @param minTtl the lifetime it must still have (whole seconds; null: zero)
     * @param flags what else to do (none: refresh only when needed)
     * @return the future credential
     */
    public JumpFuture<Credentials> credentialsAsync(Duration minTtl, CredentialsFlag... flags) {
        long ttl = seconds(minTtl);
        int bits = CredentialsFlag.bits(flags);
        return client.start(Results::clientCredentialsAsync,
                cb -> Native.jump_client_credentials_async(h(), ttl, bits, cb));
    }

    /**
     * Memory only: whether the credential held now lasts more than {@code minTtl}.
     *
     * @param minTtl the lifetime it must still have (whole seconds; null: zero)
     * @return whether it does
     */
    public boolean hasValidCredentials(Duration minTtl) {
        return Native.jump_client_has_valid_credentials(h(), seconds(minTtl)) != 0;
    }

    private static long seconds(Duration d) {
        if (d == null) return 0;
        if (d.isNegative()) throw new IllegalArgumentException("a negative minimum lifetime: " + d);
        return d.getSeconds();
    }
}
