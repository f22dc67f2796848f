import Foundation
import GRDB

/// The grace window of `refresh_access_token`. The row a refresh retires keeps the request that retired
/// it (`retired_date`, `retired_signature`, `retired_at`) and the token issued instead (`successor`);
/// an exact replay of that request shortly after gets that same successor back, while the successor is
/// still active. Everything runs inside the caller's write transaction, so of two concurrent identical
/// requests one rotates and the other sees the finished rotation.
enum RefreshReplay {
    /// Retires an active session on behalf of a request; false when it was retired already.
    static func retire(_ token: String, date: String, signature: String, now: Date, in db: Database) throws -> Bool {
        try db.execute(
            sql: """
                UPDATE sessions SET retired = 1, retired_at = ?, retired_date = ?, retired_signature = ?
                WHERE access_token = ? AND retired = 0
                """,
            arguments: [now.timeIntervalSince1970, date, signature, token])
        return db.changesCount == 1
    }

    static func recordSuccessor(_ successor: String, of token: String, in db: Database) throws {
        try db.execute(sql: "UPDATE sessions SET successor = ? WHERE access_token = ?", arguments: [successor, token])
    }

    /// The session a replay of the request that retired `token` is answered with: nil outside the
    /// grace window (emulator clock), for any other `date` or `signature`, and once the successor has
    /// been refreshed itself (its own successor is the one to replay for then).
    static func successor(
        of token: String, date: String, signature: String, now: Date, in db: Database
    ) throws -> SessionRow? {
        let grace = try CaptureSettings.refreshGraceSeconds(in: db)
        guard let retired = try SessionRow.find(token: token, in: db), retired.retired,
            let retiredAt = retired.retiredAt, now.timeIntervalSince1970 - retiredAt < Double(grace),
            retired.retiredDate == date,
            let retiredSignature = retired.retiredSignature, Tokens.constantTimeEquals(retiredSignature, signature),
            let successorToken = retired.successor,
            let successor = try SessionRow.find(token: successorToken, in: db), !successor.retired
        else { return nil }
        return successor
    }
}
