/// What a client tells the app as it happens (delivered through the event callback).
public enum ClientEvent: Sendable, Equatable {
    case signedIn(uuid: String?, isNew: Bool)
    case signedOut(uuid: String?)
    case tokenRefreshed(uuid: String?)
    case recordSynced(uuid: String?, changed: [String])
    case recordFetched(uuid: String?)
    case sessionExpired(uuid: String?, reason: String)
    /// The sign-in-token or API-key status flags changed (docs/protocol.md §12.8).
    case statusChanged(TokenStatus)
    /// The server no longer knows the token user (deleted or disabled): the client signed out as
    /// jump_client_sign_out does (with several accounts, the active Capture account only: the others are other
    /// people's).
    case userInvalidated(userID: String?)
    /// Another saved account became the active one (`accounts` "multiple"): a switch, or another user's sign-in.
    case accountSwitched(uuid: String?)

    public var json: JSON {
        var o: [String: JSON] = ["version": 1, "kind": "event"]
        switch self {
        case .signedIn(let uuid, let isNew):
            o["event"] = "signed_in"; o["uuid"] = .optional(uuid); o["is_new"] = .bool(isNew)
        case .signedOut(let uuid):
            o["event"] = "signed_out"; o["uuid"] = .optional(uuid)
        case .tokenRefreshed(let uuid):
            o["event"] = "token_refreshed"; o["uuid"] = .optional(uuid)
        case .recordSynced(let uuid, let changed):
            o["event"] = "record_synced"; o["uuid"] = .optional(uuid); o["changed"] = .array(changed.map(JSON.string))
        case .recordFetched(let uuid):
            o["event"] = "record_fetched"; o["uuid"] = .optional(uuid)
        case .sessionExpired(let uuid, let reason):
            o["event"] = "session_expired"; o["uuid"] = .optional(uuid); o["reason"] = .string(SecretScrubber.scrub(reason))
        case .statusChanged(let status):
            o["event"] = "status_changed"; o["status"] = status.json
        case .userInvalidated(let userID):
            o["event"] = "user_invalidated"; o["user_id"] = .optional(userID)
        case .accountSwitched(let uuid):
            o["event"] = "account_switched"; o["uuid"] = .optional(uuid)
        }
        return .object(o)
    }
}
