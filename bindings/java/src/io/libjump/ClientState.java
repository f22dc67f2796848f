package io.libjump;

/** jump_client_state: who is signed in and what the session holds (the full document is json: restore_error,
 * storage_error, quarantine, ...). */
public record ClientState(boolean signedIn, String uuid, String email, boolean reauthenticationRequired,
                          Long accessTokenExpiresAt, boolean unsyncedChanges, String json) {
    static ClientState of(Object o) {
        return new ClientState(Json.bool(o, "signed_in"), Json.string(o, "uuid"), Json.string(o, "email"),
                Json.bool(o, "reauthentication_required"), Json.number(o, "access_token_expires_at"),
                Json.bool(o, "unsynced_changes"), Json.write(o));
    }

    /** A member of the state document, or null. */
    public Object get(String key) {
        return Json.get(Json.parse(json), key);
    }
}
