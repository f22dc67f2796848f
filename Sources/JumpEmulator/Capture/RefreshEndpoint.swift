import Foundation
import GRDB

/// `POST /oauth/refresh_access_token` (protocol.md §8): trades an access token (expired or not)
/// for a new one, proven by an HMAC-SHA1 signature made with the session's refresh secret.
struct RefreshEndpoint: Sendable {
    let emulator: Emulator

    /// How far the client's `date` may be from real time.
    static let allowedSkew: TimeInterval = 900

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let token = try call.required("access_token")
        let dateText = try call.required("date")
        let signature = try call.required("signature")
        let app = try await emulator.requireApp(call)

        guard let session = try await emulator.store.read({ db in try SessionRow.find(token: token, in: db) }),
            !session.retired, session.clientId == app.clientId, let secret = session.refreshSecret
        else {
            throw CaptureError.invalidArgument("access_token", "the access token cannot be refreshed")
        }
        // Real time, not the emulator clock: the client signs with its own clock, and tests move ours.
        guard let date = CaptureTime.parseSignatureDate(dateText),
            abs(date.timeIntervalSinceNow) <= Self.allowedSkew
        else {
            throw CaptureError.invalidArgument("date", "date must be the current UTC time as yyyy-MM-dd HH:mm:ss")
        }
        let expected = Tokens.refreshSignature(secret: secret, date: dateText, accessToken: token)
        guard Tokens.constantTimeEquals(expected, signature) else {
            throw CaptureError.invalidArgument("signature", "the signature does not match")
        }

        let now = emulator.clock.now()
        let lifetime = emulator.tokenLifetime
        let newToken = try await emulator.store.write { db -> String in
            // Retire inside the transaction, and only if still active: two concurrent refreshes of
            // one token cannot both succeed.
            try db.execute(
                sql: "UPDATE sessions SET retired = 1 WHERE access_token = ? AND retired = 0", arguments: [token])
            guard db.changesCount == 1 else {
                throw CaptureError.invalidArgument("access_token", "the access token cannot be refreshed")
            }
            return try SessionIssuer.newSession(
                userId: session.userId, clientId: session.clientId, refreshSecret: secret, now: now,
                lifetime: lifetime, in: db)
        }
        return ["stat": "ok", "access_token": .string(newToken), "expires_in": .int(Int64(lifetime))]
    }
}
