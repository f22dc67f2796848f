package io.libjump;

import java.time.Duration;
import java.time.Instant;

/**
 * The credential requests carry ({@code jump_client_credentials}). {@code accessToken} is a secret:
 * {@link #toString()} leaves it out.
 *
 * @param kind "capture", "sign_in_token" or "api_key"
 * @param accessToken the token (a secret; for "api_key" the API key)
 * @param expiresAt when it expires (by the local clock), or null when the server gave no lifetime
 * @param expiresIn how long it lasts from now, or null when the server gave no lifetime
 * @param refreshed whether this call refreshed it
 */
public record Credentials(String kind, String accessToken, Instant expiresAt, Duration expiresIn, boolean refreshed) {
    static Credentials of(Object o) {
        Long at = Json.number(o, "expires_at");
        Long in = Json.number(o, "expires_in");
        return new Credentials(Json.string(o, "kind"), Json.string(o, "access_token"),
                at == null ? null : Instant.ofEpochSecond(at), in == null ? null : Duration.ofSeconds(in),
                Json.bool(o, "refreshed"));
    }

    /** The record without the access token. */
    @Override
    public String toString() {
        return "Credentials[kind=" + kind + ", expiresAt=" + expiresAt + ", expiresIn=" + expiresIn + ", refreshed="
                + refreshed + "]";
    }
}
