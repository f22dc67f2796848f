import GRDB

/// A queued failure for the next sharing answers of one provider (`POST /emulator/engage/share_errors`),
/// so tests can see how a client classifies Engage's sharing errors (docs/protocol.md §4.8).
struct EngageShareErrorRow: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "share_errors"

    var id: Int64?
    var provider: String
    var code: Int
    var msg: String
    var remaining: Int

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var json: JSONValue {
        ["provider": .string(provider), "code": .int(Int64(code)), "msg": .string(msg), "remaining": .int(Int64(remaining))]
    }

    /// Uses up one answer of the oldest queued error of `provider`, if any.
    static func take(provider: String, in db: Database) throws -> EngageFailure? {
        guard var row = try EngageShareErrorRow.filter(Column("provider") == provider).order(Column("id")).fetchOne(db)
        else { return nil }
        row.remaining -= 1
        if row.remaining <= 0 {
            try row.delete(db)
        } else {
            try row.update(db)
        }
        return EngageFailure(code: row.code, msg: row.msg)
    }
}
