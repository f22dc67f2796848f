import GRDB

/// An Engage auth_info token (40 characters) and the identity it proves. Made by a completed provider
/// sign-in (fake IdP page or /signin/oauth_token). Capture's auth_native keeps it usable after a 310 or
/// 380 as the social registration token or the merge token (and only for that), see `captureState`.
struct EngageTokenRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "engage_tokens"

    var token, engageAppId: String
    /// Provider name as in the Engage config ("facebook", "google", a custom provider id, ...).
    var provider: String
    /// profile.identifier: the identity's stable id.
    var identifier: String
    /// The Engage profile object, JSON text (identifier, providerName, displayName, email, verifiedEmail, ...).
    var profileJSON: String
    /// For sharing (/api/v2/activity); nil for native-token sign-ins.
    var deviceToken: String?
    var created, expiresAt: Double
    /// nil: fresh; "registration": auth_native answered 310 (register_native may use it);
    /// "merge": auth_native answered 380 (usable as merge_token); "used": spent by a Capture call.
    var captureState: String?
    /// The Capture client whose auth_native set captureState.
    var captureClientId: String?

    enum CodingKeys: String, CodingKey {
        case token
        case engageAppId = "engage_app_id"
        case provider, identifier
        case profileJSON = "profile_json"
        case deviceToken = "device_token"
        case created
        case expiresAt = "expires_at"
        case captureState = "capture_state"
        case captureClientId = "capture_client_id"
    }

    static func find(_ token: String, in db: Database) throws -> EngageTokenRow? {
        try EngageTokenRow.fetchOne(db, key: token)
    }

    static func find(deviceToken: String, in db: Database) throws -> EngageTokenRow? {
        try EngageTokenRow.filter(Column("device_token") == deviceToken).fetchOne(db)
    }

    /// The profile as a JSON object (empty when the stored text is somehow not one).
    var profile: [String: JSONValue] {
        JSONParser.parse(profileJSON)?.objectValue ?? [:]
    }
}
