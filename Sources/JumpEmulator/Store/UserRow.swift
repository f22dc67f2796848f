import Foundation
import GRDB

/// One user record as stored: the reserved attributes and look-up keys as columns, the rest of the
/// record as JSON text holding only the values that were set.
struct UserRow: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "users"

    var id: Int64?
    var uuid, clientId: String
    /// Lowercased copies of email and username: both are unique per app and case-insensitive.
    var emailLower, usernameLower: String?
    var passwordHash: String?
    var record: String
    var created, lastUpdated: Double
    var nextElementId: Int64

    enum CodingKeys: String, CodingKey {
        case id, uuid
        case clientId = "client_id"
        case emailLower = "email_lower"
        case usernameLower = "username_lower"
        case passwordHash = "password_hash"
        case record, created
        case lastUpdated = "last_updated"
        case nextElementId = "next_element_id"
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var attributes: [String: JSONValue] {
        JSONValue.parse(record)?.objectValue ?? [:]
    }

    /// Stores new attributes and refreshes the look-up columns derived from them.
    mutating func setAttributes(_ attributes: [String: JSONValue]) {
        record = JSONValue.object(attributes).serialized()
        emailLower = attributes["email"]?.stringValue?.lowercased()
        usernameLower = attributes["username"]?.stringValue?.lowercased()
    }

    var reserved: RecordShaper.Reserved {
        RecordShaper.Reserved(
            id: id ?? 0, uuid: uuid, created: Date(timeIntervalSince1970: created),
            lastUpdated: Date(timeIntervalSince1970: lastUpdated), hasPassword: passwordHash != nil)
    }
}

extension UserRow {
    static func find(uuid: String, in db: Database) throws -> UserRow? {
        try UserRow.filter(Column("uuid") == uuid).fetchOne(db)
    }

    static func find(email: String, clientId: String, in db: Database) throws -> UserRow? {
        try UserRow.filter(Column("client_id") == clientId && Column("email_lower") == email.lowercased()).fetchOne(db)
    }

    static func find(username: String, clientId: String, in db: Database) throws -> UserRow? {
        try UserRow.filter(Column("client_id") == clientId && Column("username_lower") == username.lowercased())
            .fetchOne(db)
    }

    static func all(clientId: String?, in db: Database) throws -> [UserRow] {
        var request = UserRow.order(Column("id"))
        if let clientId { request = request.filter(Column("client_id") == clientId) }
        return try request.fetchAll(db)
    }
}
