import GRDB

/// Issues Engage tokens (40 characters, [a-zA-Z0-9], as real ones) and finds the usable ones.
enum EngageTokens {
    /// A token for a completed sign-in. `withDeviceToken`: browser sign-ins get one (for sharing); native
    /// provider tokens do not (docs/protocol.md §4.6).
    static func issue(
        app: EngageApp, provider: String, identifier: String, profile: [String: JSONValue], withDeviceToken: Bool,
        now: Double, in db: Database
    ) throws -> EngageTokenRow {
        let lifetime = try EngageSettings.tokenLifetime(in: db)
        let row = EngageTokenRow(
            token: randomAlphanumeric(count: 40), engageAppId: app.id, provider: provider, identifier: identifier,
            profileJSON: JSONValue.object(profile).serialized(),
            deviceToken: withDeviceToken ? randomAlphanumeric(count: 32) : nil,
            created: now, expiresAt: now + Double(lifetime), captureState: nil, captureClientId: nil)
        try row.insert(db)
        return row
    }

    /// The token when it exists and has not expired (emulator clock).
    static func valid(_ token: String, now: Double, in db: Database) throws -> EngageTokenRow? {
        guard !token.isEmpty, let row = try EngageTokenRow.find(token, in: db), now < row.expiresAt else { return nil }
        return row
    }

    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    static func randomAlphanumeric(count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
