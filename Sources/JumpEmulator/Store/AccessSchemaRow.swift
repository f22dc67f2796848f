import GRDB

/// The attribute paths one client may use for one kind of access (`entityType.setAccessSchema`).
struct AccessSchemaRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "access_schemas"

    var clientId: String
    /// `read`, `write`, `read_with_token` or `write_with_token`.
    var accessType: String
    /// JSON array of canonical paths (`/primaryAddress/city`), sorted.
    var attributes: String

    enum CodingKeys: String, CodingKey {
        case clientId = "client_id"
        case accessType = "access_type"
        case attributes
    }

    var paths: [String] {
        (JSONValue.parse(attributes)?.arrayValue ?? []).compactMap(\.stringValue)
    }

    static func find(clientId: String, accessType: String, in db: Database) throws -> AccessSchemaRow? {
        try AccessSchemaRow.filter(Column("client_id") == clientId && Column("access_type") == accessType).fetchOne(db)
    }
}
