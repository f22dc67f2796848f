package io.libjump;

/** The credential requests carry (jump_client_credentials). accessToken is a secret: toString leaves it out. */
public record Credentials(String kind, String accessToken, Long expiresAt, Long expiresIn, boolean refreshed) {
    static Credentials of(Object o) {
        return new Credentials(Json.string(o, "kind"), Json.string(o, "access_token"), Json.number(o, "expires_at"),
                Json.number(o, "expires_in"), Json.bool(o, "refreshed"));
    }

    @Override
    public String toString() {
        return "Credentials[kind=" + kind + ", expiresAt=" + expiresAt + ", refreshed=" + refreshed + "]";
    }
}
