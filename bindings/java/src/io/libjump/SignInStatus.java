package io.libjump;

/** jump_client_status: the sign-in-token / API-key session (and whether anything is signed in). */
public record SignInStatus(boolean configured, boolean signedIn, boolean useApiKey, boolean useSignInToken,
                           boolean pendingReauthentication, String userId, String teamId, String environment,
                           String region, String externalUserId, String json) {
    static SignInStatus of(Object o) {
        return new SignInStatus(Json.bool(o, "configured"), Json.bool(o, "signed_in"), Json.bool(o, "use_api_key"),
                Json.bool(o, "use_sign_in_token"), Json.bool(o, "pending_reauthentication"), Json.string(o, "user_id"),
                Json.string(o, "team_id"), Json.string(o, "environment"), Json.string(o, "region"),
                Json.string(o, "external_user_id"), Json.write(o));
    }
}
