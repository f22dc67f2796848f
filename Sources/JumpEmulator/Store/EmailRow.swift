import GRDB

/// An email the emulator would have sent (password reset, verification), kept so tests can read
/// the code and the link instead of a real mailbox.
struct EmailRow: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, SnakeCaseRecord {
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

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
