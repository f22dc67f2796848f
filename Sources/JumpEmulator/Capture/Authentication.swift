import GRDB

/// A valid access token with its user and app.
struct AuthenticatedSession: Sendable {
    var session: SessionRow
    var user: UserRow
    var app: AppConfig
}

extension Emulator {
    /// Checks the access token of an authenticated call:
    /// missing → 100; unknown or retired → 200 invalid_argument `access_token`;
    /// expired on the emulator clock → 414 access_token_expired.
    func authenticate(_ call: CaptureCall) async throws -> AuthenticatedSession {
        guard let token = call.accessToken else { throw CaptureError.missingArgument("access_token") }
        let found = try await store.read { db -> (SessionRow, UserRow)? in
            guard let session = try SessionRow.find(token: token, in: db),
                let user = try UserRow.fetchOne(db, key: session.userId)
            else { return nil }
            return (session, user)
        }
        guard let (session, user) = found, !session.retired else {
            throw CaptureError.invalidArgument("access_token", "the access token is not valid")
        }
        if let clientId = call.params.nonEmpty("client_id"), clientId != session.clientId {
            guard try await apps.app(clientId: clientId) != nil else { throw CaptureError.invalidClient() }
            throw CaptureError.invalidArgument("access_token", "the access token was issued to another client")
        }
        guard clock.now().timeIntervalSince1970 < session.expiresAt else {
            throw CaptureError.accessTokenExpired()
        }
        guard let app = try await apps.app(clientId: session.clientId) else {
            throw CaptureError.invalidArgument("access_token", "the access token's client no longer exists")
        }
        return AuthenticatedSession(session: session, user: user, app: app)
    }
}
