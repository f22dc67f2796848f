import Foundation
import GRDB

/// `POST /oauth/refresh_access_token` (docs/protocol.md §10): trades an access token (expired or not)
/// for a new one, proven by an HMAC-SHA1 signature made with the session's refresh secret.
///
/// The old token is retired. For `capture_refresh_grace_seconds` after that, the very same request
/// (same token, `date` and `signature`) is answered again with the same new token, unless that one has
/// been refreshed meanwhile: a client killed after the server answered but before it saved the answer
/// can retry instead of losing its session (see `RefreshReplay`).
struct RefreshEndpoint: Sendable {
    let emulator: Emulator

    /// How far the client's `date` may be from real time: as strict as the signed server API (RequestSignature),
    /// so a client that signs with its own wrong clock is refused here as it would be by a strict server.
    static let allowedSkew: TimeInterval = 300

    private struct Answer: Sendable {
        var accessToken: String
        var expiresIn: Int
    }

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let token = try call.required("access_token")
        let dateText = try call.required("date")
        let signature = try call.required("signature")
        let app = try await emulator.requireApp(call)

        guard let session = try await emulator.store.read({ db in try SessionRow.find(token: token, in: db) }),
            session.clientId == app.clientId, let secret = session.refreshSecret
        else {
            throw Self.cannotRefresh
        }
        // Real time, not the emulator clock: the client signs with its own clock, and tests move ours.
        let dateIsCurrent = CaptureTime.parseSignatureDate(dateText).map {
            abs($0.timeIntervalSinceNow) <= Self.allowedSkew
        } ?? false
        let expected = Tokens.refreshSignature(secret: secret, date: dateText, accessToken: token)
        let signatureMatches = Tokens.constantTimeEquals(expected, signature)
        if session.retired {
            // A retired token is refused as a whole, as before the grace existed; only an exact and
            // still valid replay goes on (to be checked against the stored request below).
            guard dateIsCurrent, signatureMatches else { throw Self.cannotRefresh }
        } else {
            guard dateIsCurrent else {
                throw CaptureError.invalidArgument("date", "date must be the current UTC time as yyyy-MM-dd HH:mm:ss")
            }
            guard signatureMatches else {
                throw CaptureError.invalidArgument("signature", "the signature does not match")
            }
        }

        let now = emulator.clock.now()
        let lifetime = emulator.tokenLifetime
        let answer = try await emulator.store.write { db -> Answer in
            // Retire inside the transaction, and only if still active: two concurrent refreshes of one
            // token cannot both rotate it. The one that finds it retired (before, or just now) is
            // answered only as a replay of the request that retired it.
            if try RefreshReplay.retire(token, date: dateText, signature: signature, now: now, in: db) {
                let newToken = try SessionIssuer.newSession(
                    userId: session.userId, clientId: session.clientId, refreshSecret: secret, now: now,
                    lifetime: lifetime, in: db)
                try RefreshReplay.recordSuccessor(newToken, of: token, in: db)
                return Answer(accessToken: newToken, expiresIn: lifetime)
            }
            guard
                let successor = try RefreshReplay.successor(
                    of: token, date: dateText, signature: signature, now: now, in: db)
            else {
                throw Self.cannotRefresh
            }
            // What the successor really has left (the first answer counted from then). `exactly` keeps
            // an admin-set lifetime near Int.max from trapping.
            let left = (successor.expiresAt - now.timeIntervalSince1970).rounded(.up)
            return Answer(accessToken: successor.accessToken, expiresIn: max(0, Int(exactly: left) ?? Int.max))
        }
        return ["stat": "ok", "access_token": .string(answer.accessToken), "expires_in": .int(Int64(answer.expiresIn))]
    }

    static var cannotRefresh: CaptureError {
        CaptureError.invalidArgument("access_token", "the access token cannot be refreshed")
    }
}
