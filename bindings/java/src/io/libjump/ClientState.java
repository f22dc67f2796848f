package io.libjump;

import java.time.Instant;

/**
 * {@code jump_client_state}: who is signed in and what the session holds (the full document is {@code json}:
 * restore_error, storage_error, quarantine, ...).
 *
 * @param signedIn whether a user is signed in
 * @param uuid the signed-in user's uuid, or null
 * @param email the signed-in user's email, or null
 * @param reauthenticationRequired whether the session needs a new sign-in
 * @param accessTokenExpiresAt when the access token expires (by the local clock), or null when the server gave
 *     no lifetime
 * @param unsyncedChanges whether the record has edits not synced yet
 * @param json the whole state document (JSON text)
 */
public record ClientState(boolean signedIn, String uuid, String email, boolean reauthenticationRequired,
                          Instant accessTokenExpiresAt, boolean unsyncedChanges, String json) {
    static ClientState of(Object o) {
        Long at = Json.number(o, "access_token_expires_at");
        return new ClientState(Json.bool(o, "signed_in"), Json.string(o, "uuid"), Json.string(o, "email"),
                Json.bool(o, "reauthentication_required"), at == null ? null : Instant.ofEpochSecond(at),
                Json.bool(o, "unsynced_changes"), Json.write(o));
    }

    /**
     * A member of the state document.
     *
     * @param key the member's name
     * @return its JSON value as {@link Json#parse} reads it, or null
     */
    public Object get(String key) {
        return Json.get(Json.parse(json), key);
    }
}
