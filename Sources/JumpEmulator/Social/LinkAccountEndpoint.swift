import GRDB

/// `POST /oauth/link_account_native` (docs/protocol.md §6.7): adds the identity of an Engage token to
/// the signed-in user's `profiles`. Linking an identity the user has already is a no-op; one of
/// another user is 361. Answers `{"stat":"ok"}`.
struct LinkAccountEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let signedIn = try await emulator.authenticate(call)
        let app = signedIn.app
        try emulator.checkFlowParameters(call, app: app)
        let tokenText = try call.required("token")
        let userId = signedIn.user.id ?? 0
        let now = emulator.clock.now().timeIntervalSince1970
        let records = emulator.records
        let written = try await emulator.store.write { db in
            let token = try SocialTokens.valid(tokenText, argument: "token", app: app, now: now, in: db)
            let written = try SocialAccounts.attach(
                SocialProfile(token: token), toUserId: userId, app: app, now: now, records: records, in: db)
            try SocialTokens.mark(token, .used, clientId: app.clientId, in: db)
            return written
        }
        records.remember(written.user, attributes: written.attributes)
        return ["stat": "ok"]
    }
}
