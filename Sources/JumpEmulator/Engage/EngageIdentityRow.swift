import GRDB

/// A test identity of the fake identity provider: who a "Continue as ..." button signs in as, and the
/// profile the resulting Engage token carries.
struct EngageIdentityRow: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "engage_identities"

    var id: Int64?
    /// nil: offered by every Engage app.
    var engageAppId: String?
    var provider, identifier: String
    /// The Engage profile object, JSON text (see `EngageProfile`).
    var profileJSON: String
    var created: Double

    enum CodingKeys: String, CodingKey {
        case id
        case engageAppId = "engage_app_id"
        case provider, identifier
        case profileJSON = "profile_json"
        case created
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var profile: [String: JSONValue] {
        JSONParser.parse(profileJSON)?.objectValue ?? [:]
    }

    var json: JSONValue {
        [
            "id": .int(id ?? 0),
            "provider": .string(provider),
            "identifier": .string(identifier),
            "engage_app_id": engageAppId.map(JSONValue.string) ?? .null,
            "profile": .object(profile),
        ]
    }
}
