import Foundation
import GRDB

/// The transaction that creates a record from attributes (`entity.create`, the admin API's user
/// fixtures): the schema checks of `entity.update` applied to an empty record, then `required` (362)
/// and `unique` (361) on the result, in one transaction with the insert, so two creations cannot
/// both take one unique value.
extension Emulator {
    /// Creates a record of `app` holding `value` (a JSON object). A `password` in `value` is set
    /// from `preparedPasswordHash` (hash it before: bcrypt is slow on purpose); `passwordHash` is a
    /// hash given outside the record (the admin API's `password`), used when the record sets none.
    func createRecord(
        _ value: JSONValue, app: AppConfig, preparedPasswordHash: String? = nil, passwordHash: String? = nil
    ) async throws -> (user: UserRow, attributes: [String: JSONValue]) {
        guard value.objectValue != nil else { throw CaptureError.invalidJSONType("/", expected: "object", got: value) }
        let schema = app.schema
        let clientId = app.clientId
        let now = clock.now().timeIntervalSince1970
        let created = try await store.write { db -> (UserRow, [String: JSONValue]) in
            var updater = RecordUpdater(schema: schema, nextElementId: 1, preparedPasswordHash: preparedPasswordHash)
            let stored = try updater.update([:], at: .root, with: value)
            try RecordConstraints.checkRequired(stored, schema: schema)
            let unique = RecordConstraints.uniqueValues(stored, schema: schema)
            try RecordConstraints.checkNoDuplicates(unique)
            let conflicts = try UniquenessCheck.conflicts(
                unique, clientId: clientId, excludingUserId: nil, schema: schema, in: db)
            if let first = conflicts.first { throw CaptureError.uniqueViolation(first) }
            var hash = passwordHash
            if case .set(let set)? = updater.passwordChange { hash = set }
            var user = UserRow(
                id: nil, uuid: UUID().uuidString.lowercased(), clientId: clientId, emailLower: nil,
                usernameLower: nil, passwordHash: hash, record: "{}", created: now, lastUpdated: now,
                nextElementId: updater.nextElementId)
            user.setAttributes(stored)
            try user.insert(db)
            // Profiles in a new record are identities auth_native finds, as if they had been linked.
            try UserIdentityRow.sync(userId: user.id ?? 0, clientId: clientId, before: [:], after: stored, in: db)
            return (user, stored)
        }
        records.remember(created.0, attributes: created.1)
        return created
    }
}
