import Foundation
import GRDB

/// `/emulator/users`: test fixtures made directly, without going through registration, and
/// inspection of what the endpoints stored.
struct AdminUsers: Sendable {
    let emulator: Emulator

    /// `{"client_id"?, "email", "password"?, "record"?}`: the record goes through the same schema
    /// checks as `entity.update`, so a fixture cannot hold what a real server would refuse.
    func create(_ request: AdminRequest) async throws -> JSONValue {
        let app = try await requireApp(try request.string("client_id") ?? DefaultApp.clientId)
        let email = try request.requiredString("email")
        var record = JSONValue.object([:])
        if let given = request.body["record"], !given.isNull {
            guard given.objectValue != nil else { throw AdminError.badRequest("record must be a JSON object") }
            record = given
        }
        var attributes = record.objectValue ?? [:]
        attributes["email"] = .string(email)
        let password = try request.string("password") ?? attributes["password"]?.stringValue
        attributes.removeValue(forKey: "password")
        let passwordHash: String? = if let password { await emulator.passwords.hash(password) } else { nil }

        let schema = app.schema
        let clientId = app.clientId
        let user: UserRow
        let stored: [String: JSONValue]
        do {
            (user, stored) = try await emulator.createRecord(.object(attributes), app: app, passwordHash: passwordHash)
        } catch let error as CaptureError {
            throw Self.refusal(error, clientId: clientId, email: email)
        }
        return ["user": RecordShaper(schema: schema).shape(stored, reserved: user.reserved)]
    }

    /// `{"record", "replace"?: false}`: `record` is written as `entity.update` merges attributes into the
    /// whole record (with `replace`, as `entity.replace` overwrites it), by the same transaction and
    /// checks, so an edited fixture cannot hold what a real server would refuse. A string `password` in
    /// the record sets the password; the marker records show for it leaves the password as it is.
    func update(uuid: String, _ request: AdminRequest) async throws -> JSONValue {
        guard let record = request.body["record"], !record.isNull else { throw AdminError.badRequest("record is required") }
        guard record.objectValue != nil else { throw AdminError.badRequest("record must be a JSON object") }
        let replace = try request.bool("replace") ?? false
        let found = try await emulator.store.read { db in try UserRow.find(uuid: uuid, in: db) }
        guard let found, let userId = found.id else { throw AdminError.notFound("no user with uuid \(uuid)") }
        let app = try await requireApp(found.clientId)
        // Hashed before the transaction: bcrypt is slow on purpose.
        let passwordHash: String? =
            if let password = RecordUpdater.passwordText(in: record, at: .root) { await emulator.passwords.hash(password) } else { nil }
        let written: (user: UserRow, attributes: [String: JSONValue])
        do {
            written = try await emulator.writeRecord(userId: userId, schema: app.schema, preparedPasswordHash: passwordHash) {
                updater, stored in
                replace
                    ? try updater.replace(stored, at: .root, with: record) : try updater.update(stored, at: .root, with: record)
            }
        } catch let error as CaptureError {
            throw Self.refusal(error, clientId: app.clientId, email: record["email"]?.stringValue ?? "")
        }
        return ["user": RecordShaper(schema: app.schema).shape(written.attributes, reserved: written.user.reserved)]
    }

    /// A record the schema refuses: a taken email is named as such (tests set up "that email is taken"
    /// cases and look for it), the rest carry the Capture error.
    private static func refusal(_ error: CaptureError, clientId: String, email: String) -> AdminError {
        if error.code == 361, error.extras["attribute_name"] == "/email" {
            return AdminError.conflict("email_taken", "a user of \(clientId) already has the email \(email)")
        }
        return AdminError.invalidRecord(error)
    }

    /// All users, or those of `client_id`.
    func list(_ request: AdminRequest) async throws -> JSONValue {
        let clientId = request.query.nonEmpty("client_id")
        if let clientId { _ = try await requireApp(clientId) }
        let rows = try await emulator.store.read { db in try UserRow.all(clientId: clientId, in: db) }
        var records: [JSONValue] = []
        for row in rows {
            records.append(try await shaped(row))
        }
        return ["users": .array(records)]
    }

    /// The most sessions a user's document lists (the newest).
    static let heldSessionsShown = 50

    func get(uuid: String) async throws -> JSONValue {
        let now = emulator.clock.now().timeIntervalSince1970
        let found = try await emulator.store.read { db -> (UserRow, Int, [SessionRow])? in
            guard let user = try UserRow.find(uuid: uuid, in: db), let id = user.id else { return nil }
            return (user, try SessionRow.activeCount(userId: id, now: now, in: db),
                    try SessionRow.held(userId: id, limit: Self.heldSessionsShown, in: db))
        }
        guard let (user, active, held) = found else { throw AdminError.notFound("no user with uuid \(uuid)") }
        // No token: the admin API's user document is shown on the dashboard.
        let sessions = held.map { session -> JSONValue in
            .object(["client_id": .string(session.clientId), "issued_at": .double(session.issuedAt),
                     "expires_at": .double(session.expiresAt), "live": .bool(session.expiresAt > now),
                     "refresh": .string(session.refreshKind)])
        }
        return [
            "user": try await shaped(user), "client_id": .string(user.clientId),
            "active_sessions": .int(Int64(active)), "sessions": .array(sessions),
        ]
    }

    func delete(uuid: String) async throws -> JSONValue {
        let deleted = try await emulator.store.write { db in
            try UserRow.filter(Column("uuid") == uuid).deleteAll(db)
        }
        guard deleted > 0 else { throw AdminError.notFound("no user with uuid \(uuid)") }
        return ["deleted": .int(Int64(deleted))]
    }

    /// Every user, or those of `client_id`; sessions and codes go with them (foreign keys cascade).
    func deleteAll(_ request: AdminRequest) async throws -> JSONValue {
        let clientId = request.query.nonEmpty("client_id")
        if let clientId { _ = try await requireApp(clientId) }
        let deleted = try await emulator.store.write { db in
            var users = UserRow.all()
            if let clientId { users = users.filter(Column("client_id") == clientId) }
            return try users.deleteAll(db)
        }
        return ["deleted": .int(Int64(deleted))]
    }

    private func requireApp(_ clientId: String) async throws -> AppConfig {
        guard let app = try await emulator.apps.app(clientId: clientId) else {
            throw AdminError.notFound("no app with client_id \(clientId)")
        }
        return app
    }

    private func shaped(_ user: UserRow) async throws -> JSONValue {
        let schema = try await emulator.apps.app(clientId: user.clientId)?.schema ?? DefaultSchema.user
        return RecordShaper(schema: schema).shape(emulator.records.attributes(of: user), reserved: user.reserved)
    }
}
