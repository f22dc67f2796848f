import Foundation
import GRDB

/// `POST /entity.update` (protocol.md §3.3.10): merges `attributes` (or the older name `value`)
/// into the record at `attribute_name`, enforcing the schema. All or nothing: the record is only
/// stored when every check passed, in one transaction with the uniqueness check.
struct EntityUpdateEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let signedIn = try await emulator.authenticate(call)
        let path = try AttributePath.parse(call.params["attribute_name"])
        let value = try Self.readValue(call.params)
        let includeRecord = ["true", "1", "yes"].contains((call.params["include_record"] ?? "").lowercased())

        // Hash a new password before the transaction: bcrypt is slow on purpose.
        var passwordHash: String?
        if let password = RecordUpdater.passwordText(in: value, at: path) {
            passwordHash = await emulator.passwords.hash(password)
        }
        let preparedHash = passwordHash
        let schema = signedIn.app.schema
        let userId = signedIn.user.id ?? 0
        let now = emulator.clock.now().timeIntervalSince1970

        let updated = try await emulator.store.write { db -> UserRow in
            // Read again inside the transaction so concurrent updates of one user do not lose writes.
            guard var user = try UserRow.fetchOne(db, key: userId) else {
                throw CaptureError.invalidArgument("access_token", "the user no longer exists")
            }
            var updater = RecordUpdater(schema: schema, nextElementId: user.nextElementId, preparedPasswordHash: preparedHash)
            let attributes = try updater.update(user.attributes, at: path, with: value)
            try RecordConstraints.checkRequired(attributes, schema: schema)
            let uniqueValues = RecordConstraints.uniqueValues(attributes, schema: schema)
            try RecordConstraints.checkNoDuplicates(uniqueValues)
            let conflicts = try UniquenessCheck.conflicts(
                uniqueValues, clientId: user.clientId, excludingUserId: userId, schema: schema, in: db)
            if let first = conflicts.first { throw CaptureError.uniqueViolation(first) }

            user.setAttributes(attributes)
            user.nextElementId = updater.nextElementId
            switch updater.passwordChange {
            case .set(let hash)?: user.passwordHash = hash
            case .cleared?: user.passwordHash = nil
            case nil: break
            }
            user.lastUpdated = max(now, user.lastUpdated)
            try user.update(db)
            return user
        }

        guard includeRecord else { return ["stat": "ok"] }
        let record = RecordShaper(schema: schema).shape(updated.attributes, reserved: updated.reserved)
        let result = try RecordReader(schema: schema).value(at: path, in: record)
        return .object(["stat": "ok", "result": result])
    }

    /// The JSON to merge: `attributes` (documented name) or `value` (Android's older name).
    static func readValue(_ params: FormParams) throws(CaptureError) -> JSONValue {
        let name = params.nonEmpty("attributes") != nil ? "attributes" : "value"
        guard let text = params.nonEmpty(name) else { throw CaptureError.missingArgument("attributes") }
        guard let value = JSONValue.parse(text) else {
            throw CaptureError.invalidArgument(name, "\(name) is not valid JSON")
        }
        return value
    }
}
