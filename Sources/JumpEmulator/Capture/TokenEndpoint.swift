import Foundation
import GRDB

/// `POST /oauth/token` (docs/protocol.md §6.8), the server-side OAuth token endpoint:
///
/// - `grant_type=authorization_code`, `code`, `redirect_uri`?: exchanges a sign-in authorization
///   code (`response_type=code_and_token`) or a password-reset code from a reset email for an access
///   token of that user, once;
/// - `grant_type=refresh_token`, `refresh_token`: a new access token and refresh token (refresh
///   tokens are single use).
///
/// The client authenticates with `client_id` + `client_secret`, HTTP Basic or a janrain signature
/// (parameters from the POST body only), and must be the one the code was issued to. Answer: `{"stat":"ok","access_token","expires_in","refresh_token"}`.
/// Every error is HTTP 400 in Capture's shape; argument errors also carry
/// `"error":"invalid_request"` and a `sub_error`.
struct TokenEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        do {
            return try await exchange(call)
        } catch var error as CaptureError {
            if error.code == 100 || error.code == 200 {
                error.extras["sub_error"] = .string(error.error)
                error.error = "invalid_request"
            }
            error.httpStatus = 400
            throw error
        }
    }

    private func exchange(_ call: CaptureCall) async throws -> JSONValue {
        let grantType = try call.required("grant_type")
        let app = try await emulator.requireClientCredentials(call)
        switch grantType {
        case "authorization_code":
            return try await exchangeCode(call, app: app)
        case "refresh_token":
            return try await refresh(call, app: app)
        default:
            throw CaptureError.invalidArgument("grant_type", "grant_type must be authorization_code or refresh_token")
        }
    }

    private func exchangeCode(_ call: CaptureCall, app: AppConfig) async throws -> JSONValue {
        let code = try call.required("code")
        let redirectUri = call.params.nonEmpty("redirect_uri")
        let now = emulator.clock.now()
        let lifetime = emulator.tokenLifetime
        let exchangeable = [AuthorizationCodeRow.Kind.authorization.rawValue, AuthorizationCodeRow.Kind.passwordReset.rawValue]
        let (token, refreshToken) = try await emulator.store.write { db -> (String, String) in
            guard let row = try AuthorizationCodeRow.fetchOne(db, key: code), exchangeable.contains(row.kind),
                row.clientId == app.clientId
            else {
                throw CaptureError.invalidArgument("code", "the code is not a code issued to this client")
            }
            guard !row.used, now.timeIntervalSince1970 < row.expiresAt else {
                throw CaptureError(code: 415, error: "authorization_code_expired",
                                   description: "the authorization code has expired or was already used")
            }
            if let expected = row.redirectUri, let redirectUri, expected != redirectUri {
                throw CaptureError(code: 420, error: "redirect_uri_mismatch",
                                   description: "redirect_uri is not the one the code was issued with",
                                   extras: ["expected_value": .string(expected), "supplied_value": .string(redirectUri)])
            }
            try db.execute(sql: "UPDATE authorization_codes SET used = 1 WHERE code = ? AND used = 0", arguments: [code])
            guard db.changesCount == 1 else {
                throw CaptureError(code: 415, error: "authorization_code_expired",
                                   description: "the authorization code has expired or was already used")
            }
            return try Self.issue(userId: row.userId, clientId: app.clientId, now: now, lifetime: lifetime, in: db)
        }
        return Self.answer(token: token, refreshToken: refreshToken, lifetime: lifetime)
    }

    private func refresh(_ call: CaptureCall, app: AppConfig) async throws -> JSONValue {
        let refreshToken = try call.required("refresh_token")
        let now = emulator.clock.now()
        let lifetime = emulator.tokenLifetime
        let (token, newRefreshToken) = try await emulator.store.write { db -> (String, String) in
            guard let session = try SessionRow.filter(Column("refresh_token") == refreshToken).fetchOne(db),
                session.clientId == app.clientId
            else {
                throw CaptureError.invalidArgument("refresh_token", "the refresh token is not valid")
            }
            // Single use: the token is taken off its session before the new one is issued.
            try db.execute(
                sql: "UPDATE sessions SET refresh_token = NULL WHERE access_token = ? AND refresh_token = ?",
                arguments: [session.accessToken, refreshToken])
            guard db.changesCount == 1 else {
                throw CaptureError.invalidArgument("refresh_token", "the refresh token is not valid")
            }
            return try Self.issue(userId: session.userId, clientId: app.clientId, now: now, lifetime: lifetime, in: db)
        }
        return Self.answer(token: token, refreshToken: newRefreshToken, lifetime: lifetime)
    }

    /// A new session with an OAuth refresh token (and no refresh secret: `refresh_access_token`
    /// is the mobile SDKs' way, this is the server's).
    private static func issue(userId: Int64, clientId: String, now: Date, lifetime: Int, in db: Database) throws -> (String, String) {
        let row = SessionRow(
            accessToken: Tokens.accessToken(), userId: userId, clientId: clientId, refreshSecret: nil,
            issuedAt: now.timeIntervalSince1970, expiresAt: now.timeIntervalSince1970 + Double(lifetime), retired: false,
            refreshToken: Tokens.accessToken())
        try row.insert(db)
        return (row.accessToken, row.refreshToken ?? "")
    }

    private static func answer(token: String, refreshToken: String, lifetime: Int) -> JSONValue {
        [
            "stat": "ok", "access_token": .string(token), "expires_in": .int(Int64(lifetime)),
            "refresh_token": .string(refreshToken),
        ]
    }
}
