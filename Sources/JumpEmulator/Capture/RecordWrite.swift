import Foundation
import GRDB

/// The transaction shared by every write to a signed-in user's record (`entity.update`,
/// `entity.replace`, `entity.delete`, `update_profile_native`), and the access-schema check.
extension Emulator {
    typealias RecordChange = @Sendable (inout RecordUpdater, [String: JSONValue]) throws -> [String: JSONValue]

    /// Applies `change` to the stored record and stores the result, or nothing: the record is read
    /// again inside the transaction (concurrent writes of one user do not lose each other's
    /// changes), then `required` (362) and `unique` (361) are checked on the result.
    ///
    /// Only unique values the write adds are looked up in other users' records: values the record
    /// already held were checked when they were written, and looking them up again would read every
    /// record of the app on each write.
    func writeRecord(
        userId: Int64, schema: Schema, preparedPasswordHash: String? = nil, _ change: @escaping RecordChange
    ) async throws -> (user: UserRow, attributes: [String: JSONValue]) {
        let now = clock.now().timeIntervalSince1970
        let records = self.records
        let written = try await store.write { db in
            try Self.changeRecord(
                userId: userId, schema: schema, preparedPasswordHash: preparedPasswordHash, now: now, records: records,
                change, in: db)
        }
        records.remember(written.0, attributes: written.1)
        return written
    }

    /// The body of `writeRecord`, for callers that change a record inside a larger transaction
    /// (social sign-in attaches an identity and issues a session in one). The caller remembers the
    /// result in `records` once the transaction is committed.
    static func changeRecord(
        userId: Int64, schema: Schema, preparedPasswordHash: String? = nil, now: Double, records: RecordCache,
        _ change: RecordChange, in db: Database
    ) throws -> (user: UserRow, attributes: [String: JSONValue]) {
        guard var user = try UserRow.fetchOne(db, key: userId) else {
            throw CaptureError.invalidArgument("access_token", "the user no longer exists")
        }
        let before = records.attributes(of: user)
        var updater = RecordUpdater(schema: schema, nextElementId: user.nextElementId, preparedPasswordHash: preparedPasswordHash)
        let after = try change(&updater, before)
        try RecordConstraints.checkRequired(after, schema: schema)
        let uniqueValues = RecordConstraints.uniqueValues(after, schema: schema)
        try RecordConstraints.checkNoDuplicates(uniqueValues)
        let held = Set(RecordConstraints.uniqueValues(before, schema: schema))
        let added = uniqueValues.filter { !held.contains($0) }
        let conflicts = try UniquenessCheck.conflicts(
            added, clientId: user.clientId, excludingUserId: userId, schema: schema, in: db)
        if let first = conflicts.first { throw CaptureError.uniqueViolation(first) }

        user.setAttributes(after)
        user.nextElementId = updater.nextElementId
        switch updater.passwordChange {
        case .set(let hash)?: user.passwordHash = hash
        case .cleared?: user.passwordHash = nil
        case nil: break
        }
        user.lastUpdated = max(now, user.lastUpdated)
        try user.update(db)
        try UserIdentityRow.sync(userId: userId, clientId: user.clientId, before: before, after: after, in: db)
        return (user, after)
    }

    /// The access schema of `clientId` for one access type; nil when none is set.
    func accessSchema(clientId: String, type: AccessSchema.AccessType) async throws -> AccessSchema? {
        let row = try await store.read { db in
            try AccessSchemaRow.find(clientId: clientId, accessType: type.rawValue, in: db)
        }
        return row.map { AccessSchema(paths: $0.paths) }
    }

    /// With a `write_with_token` schema set for the token's client, a write outside it is refused
    /// as Capture does: 223 unknown_attribute naming the first such path (docs/protocol.md §7.2).
    func checkWriteAccess(_ signedIn: AuthenticatedSession, written: () -> Set<String>) async throws {
        guard let access = try await accessSchema(clientId: signedIn.session.clientId, type: .writeWithToken) else {
            return
        }
        if let path = access.firstUncovered(written()) {
            throw CaptureError.unknownAttribute(path, "attribute \(path) is not writable with this client's access token")
        }
    }

    /// The same check for an entity call: only an access token is limited by `write_with_token`;
    /// the API client's own credentials may write any attribute, as Capture's owner clients can.
    func checkWriteAccess(_ caller: EntityCaller, written: () -> Set<String>) async throws {
        guard case .accessToken(let signedIn) = caller.credential else { return }
        try await checkWriteAccess(signedIn, written: written)
    }

    /// The record a write answers with `include_record=true`: the value at `attribute_name`.
    static func includedRecord(
        _ written: (user: UserRow, attributes: [String: JSONValue]), at path: AttributePath, schema: Schema
    ) throws(CaptureError) -> JSONValue {
        let record = RecordShaper(schema: schema).shape(written.attributes, reserved: written.user.reserved)
        return try RecordReader(schema: schema).value(at: path, in: record)
    }
}
