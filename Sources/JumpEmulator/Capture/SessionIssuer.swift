import Foundation
import GRDB

/// Issues access tokens (and authorization codes) after a sign-in or registration, and builds the
/// common sign-in response of docs/protocol.md §5.2.
enum SessionIssuer {
    /// Authorization codes are short-lived, as OAuth codes are.
    static let codeLifetime: Double = 300

    struct Issued: Sendable {
        var accessToken: String
        var expiresIn: Int
        var authorizationCode: String?
    }

    static func issue(
        userId: Int64, clientId: String, refreshSecret: String?, responseType: ResponseType, redirectUri: String?,
        now: Date, lifetime: Int, in db: Database
    ) throws -> Issued {
        let token = try newSession(
            userId: userId, clientId: clientId, refreshSecret: refreshSecret, now: now, lifetime: lifetime, in: db)
        var code: String?
        if responseType == .codeAndToken {
            let row = AuthorizationCodeRow(
                code: Tokens.authorizationCode(), userId: userId, clientId: clientId, redirectUri: redirectUri,
                issuedAt: now.timeIntervalSince1970, expiresAt: now.timeIntervalSince1970 + codeLifetime, used: false)
            try row.insert(db)
            code = row.code
        }
        return Issued(accessToken: token, expiresIn: lifetime, authorizationCode: code)
    }

    /// Stores a new session and returns its access token. A blank refresh secret is stored as none:
    /// such a session can never be refreshed.
    static func newSession(
        userId: Int64, clientId: String, refreshSecret: String?, now: Date, lifetime: Int, in db: Database
    ) throws -> String {
        let secret = refreshSecret.flatMap { $0.isEmpty ? nil : $0 }
        let row = SessionRow(
            accessToken: Tokens.accessToken(), userId: userId, clientId: clientId, refreshSecret: secret,
            issuedAt: now.timeIntervalSince1970, expiresAt: now.timeIntervalSince1970 + Double(lifetime),
            retired: false)
        try row.insert(db)
        return row.accessToken
    }

    static func response(_ issued: Issued, isNew: Bool, record: JSONValue) -> JSONValue {
        var body: [String: JSONValue] = [
            "stat": "ok",
            "access_token": .string(issued.accessToken),
            "expires_in": .int(Int64(issued.expiresIn)),
            "is_new": .bool(isNew),
            "capture_user": record,
        ]
        if let code = issued.authorizationCode { body["authorization_code"] = .string(code) }
        return .object(body)
    }
}
