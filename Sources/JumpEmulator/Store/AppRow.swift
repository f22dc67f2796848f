import GRDB

/// One Capture API client (an "app" of the emulator) as stored.
struct AppRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "apps"

    var clientId, captureAppId, flowName, flowVersion: String
    /// JSON array of locale names, e.g. `["en-US","fr-FR"]`.
    var locales: String
    var thinRegistration: Bool
    var engageAppId: String?
    /// A custom flow given to the admin API; nil serves the default flow.
    var flowJSON: String?
    /// A custom schema given to the admin API; nil uses the default schema.
    var schemaJSON: String?
    var isDefault: Bool
    /// The secret that authenticates the client to `/oauth/token` and `entityType.*AccessSchema`.
    var clientSecret: String?
    /// Where a password-reset email links to (`?code=` is added); nil means the emulator's own
    /// `/password_recover` page.
    var passwordRecoverURL: String?

    enum CodingKeys: String, CodingKey {
        case clientId = "client_id"
        case captureAppId = "capture_app_id"
        case flowName = "flow_name"
        case flowVersion = "flow_version"
        case locales
        case thinRegistration = "thin_registration"
        case engageAppId = "engage_app_id"
        case flowJSON = "flow_json"
        case schemaJSON = "schema_json"
        case isDefault = "is_default"
        case clientSecret = "client_secret"
        case passwordRecoverURL = "password_recover_url"
    }

    var localeList: [String] {
        (JSONValue.parse(locales)?.arrayValue ?? []).compactMap(\.stringValue)
    }
}
