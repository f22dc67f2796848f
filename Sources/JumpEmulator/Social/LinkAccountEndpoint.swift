import GRDB

/// `POST /oauth/link_account_native` (docs/protocol.md §6.7): adds the identity of an Engage token to
/// the signed-in user's `profiles`. Linking an identity the user has already is a no-op; one of
/// another user is 361. Answers `{"stat":"ok"}`.
struct LinkAccountEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        try await emulator.changeLinkedAccounts(call, argument: "token") { tokenText, linking, db in
            let app = linking.app
            let token = try SocialTokens.valid(tokenText, argument: "token", app: app, now: linking.now, in: db)
            let written = try SocialAccounts.attach(
                SocialProfile(token: token), toUserId: linking.userId, app: app, now: linking.now,
                records: linking.records, in: db)
            try SocialTokens.mark(token, .used, clientId: app.clientId, in: db)
            return written
        }
    }
}
