package io.libjump;

import java.util.Map;
import java.util.function.Function;

/** The backend-issued sessions (sign-in tokens, API keys, external users), credentials and authorized requests:
 * Client.tokens(). Access tokens are secrets: do not log them. */
public final class Tokens {
    /** credentials() flag: refresh now even when the token lasts long enough. */
    public static final int FORCE_REFRESH = Native.CREDENTIALS_FORCE_REFRESH;

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

    /** Exchanges a sign-in token (from the app's backend) for a session. */
    public Object signInWithToken(String signInToken) {
        return Client.parse(Native.jump_client_sign_in_with_token(h(), u(signInToken)));
    }

    public JumpFuture<Object> signInWithTokenAsync(String signInToken) {
        return client.start(r -> r, cb -> Native.jump_client_sign_in_with_token_async(h(), u(signInToken), cb));
    }

    public void useApiKey(String apiKey, String userId, String environment, String region) {
        Native.jump_client_use_api_key(h(), u(apiKey), u(userId), u(environment), u(region));
    }

    public SignInStatus status() {
        return SignInStatus.of(Client.parse(Native.jump_client_status(h())));
    }

    /** Makes the signed-in user the app's externalUserId; authenticate (on this thread, only when needed)
     * returns {"type":"sign_in_token","sign_in_token":..} or {"type":"api_key",..}, or throws to refuse.
     * Returns {"action","user_id"}. */
    public Object identifyExternalUser(String externalUserId, Function<String, ? extends Map<String, ?>> authenticate) {
        return Client.parse(Native.jump_client_identify_external_user(h(), u(externalUserId),
                authenticate == null ? null : new HostCalls.Authenticate(authenticate)));
    }

    /** An authorized request (url relative to the credential's server, or absolute on it). */
    public HttpResponse request(String method, String url, Map<String, String> headers, byte[] body) {
        return HttpResponse.of(Client.parse(Native.jump_client_request(h(), u(method), u(url),
                headers == null ? null : u(Json.write(headers)), body)));
    }

    public JumpFuture<HttpResponse> requestAsync(String method, String url, Map<String, String> headers,
                                                        byte[] body) {
        return client.start(HttpResponse::of, cb -> Native.jump_client_request_async(h(), u(method), u(url),
                headers == null ? null : u(Json.write(headers)), body, cb));
    }

    /** Takes a web login page's token from its cookies or title; returns it (a secret). */
    public String useWebLogin(String pageUrl, String cookies, String title) {
        return Utf8.decode(Native.jump_client_use_web_login(h(), u(pageUrl), u(cookies), u(title)));
    }

    /** A valid access token (a secret). */
    public String accessToken() {
        return Utf8.decode(Native.jump_client_access_token(h()));
    }

    public void refreshAccessToken() {
        Native.jump_client_refresh_access_token(h());
    }

    public Credentials credentials(long minTtlSeconds, int flags) {
        return Credentials.of(Client.parse(Native.jump_client_credentials(h(), minTtlSeconds, flags)));
    }

    public JumpFuture<Credentials> credentialsAsync(long minTtlSeconds, int flags) {
        return client.start(Credentials::of, cb -> Native.jump_client_credentials_async(h(), minTtlSeconds, flags, cb));
    }

    /** Memory only: whether the credential held now lasts more than minTtlSeconds. */
    public boolean hasValidCredentials(long minTtlSeconds) {
        return Native.jump_client_has_valid_credentials(h(), minTtlSeconds) != 0;
    }
}
