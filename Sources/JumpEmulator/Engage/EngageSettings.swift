import GRDB

/// The Engage setting of `/emulator/settings`, kept in the `settings` table (so a reset, which empties
/// that table, brings the default back).
enum EngageSettings {
    static let tokenLifetimeKey = "engage_token_lifetime"
    static let defaultTokenLifetime = 600
    static let maximumTokenLifetime = 86_400

    /// Seconds an Engage token (auth_info token) is valid for.
    static func tokenLifetime(in db: Database) throws -> Int {
        guard let stored = try SettingsTable.double(tokenLifetimeKey, in: db), stored.isFinite,
            let seconds = Int(exactly: stored.rounded()), (1...maximumTokenLifetime).contains(seconds)
        else { return defaultTokenLifetime }
        return seconds
    }

    static func setTokenLifetime(_ seconds: Int, in db: Database) throws {
        try SettingsTable.set(tokenLifetimeKey, Double(seconds), in: db)
    }
}
