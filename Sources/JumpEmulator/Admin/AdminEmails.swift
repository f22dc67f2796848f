import Foundation
import GRDB

/// `/emulator/emails`: the emulator's outbox (password-reset and verification emails), so tests
/// can follow a link or use a code without a mail server.
struct AdminEmails: Sendable {
    let emulator: Emulator

    /// `{"emails":[...]}`, oldest first; `?to=` keeps one recipient's (case-insensitive).
    func list(_ request: AdminRequest) async throws -> JSONValue {
        let to = request.query.nonEmpty("to")?.lowercased()
        let rows = try await emulator.store.read { db in
            try EmailRow.order(Column("id")).fetchAll(db)
        }
        let shown = rows.filter { to == nil || $0.toAddress.lowercased() == to }
        return ["emails": .array(shown.map(Self.json))]
    }

    func clear() async throws -> JSONValue {
        try await emulator.store.write { db in _ = try EmailRow.deleteAll(db) }
        return ["emails": []]
    }

    static func json(_ email: EmailRow) -> JSONValue {
        [
            "id": .int(email.id ?? 0),
            "kind": .string(email.kind),
            "to": .string(email.toAddress),
            "code": .string(email.code),
            "link": .string(email.link),
            "locale": .string(email.locale),
            "client_id": .string(email.clientId),
            "created": .string(CaptureTime.dateTime(Date(timeIntervalSince1970: email.created))),
        ]
    }
}
