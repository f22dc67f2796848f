package io.libjump;

/** A client event ("signed_in", "signed_out", "token_refreshed", "record_synced", "record_fetched",
 * "session_expired", "status_changed", "user_invalidated"); json is the whole document. */
public record Event(String name, String uuid, String json) {
    static Event of(Object o) {
        return new Event(Json.string(o, "event"), Json.string(o, "uuid"), Json.write(o));
    }
}
