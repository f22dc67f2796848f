import GRDB

/// An email the emulator would have sent (password reset, verification), kept so tests can read
/// the code and the link instead of a real mailbox.
struct EmailRow: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "emails"

    enum Kind: String, Sendable {
        case passwordReset = "password_reset"
        case verification
    }

    var id: Int64?
    var clientId: String
    var kind: String
    var toAddress: String
    var code: String
    var link: String
    var locale: String
    var created: Double

    enum CodingKeys: String, CodingKey {
        case id
        case clientId = "client_id"
        case kind
        case toAddress = "to_address"
        case code, link, locale, created
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
