import GRDB

/// The admin-settable numbers of the sign-in-token API, kept in the `settings` table so a file
/// database keeps them across restarts (see `/emulator/settings`).
struct SignInTokenSettings: Sendable, Equatable {
    /// `exp - iat` of a minted sign-in token. Firebase custom tokens live at most an hour.
    var signInTokenLifetime = 300
    /// `expires_in` of the access tokens `/v1/token` issues.
    var accessTokenLifetime = 3600
    /// How long after a rotation the rotated refresh token still answers its successor pair (a client
    /// killed between sending a refresh and saving the answer must not be locked out).
    var refreshReuseGraceSeconds = 30

    static let maximumSignInTokenLifetime = 3600

    static let signInTokenLifetimeKey = "sign_in_token_lifetime"
    static let accessTokenLifetimeKey = "sign_in_access_token_lifetime"
    static let refreshReuseGraceKey = "refresh_reuse_grace_seconds"

    /// The stored values over the defaults; anything unusable in the table is ignored.
    static func load(from db: Database) throws -> SignInTokenSettings {
        var settings = SignInTokenSettings()
        func stored(_ key: String) throws -> Int? {
            try SettingsTable.double(key, in: db).flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil }
        }
        if let value = try stored(signInTokenLifetimeKey), (1...maximumSignInTokenLifetime).contains(value) {
            settings.signInTokenLifetime = value
        }
        if let value = try stored(accessTokenLifetimeKey), value >= 1 { settings.accessTokenLifetime = value }
        if let value = try stored(refreshReuseGraceKey), value >= 0 { settings.refreshReuseGraceSeconds = value }
        return settings
    }

    func save(in db: Database) throws {
        try SettingsTable.set(Self.signInTokenLifetimeKey, Double(signInTokenLifetime), in: db)
        try SettingsTable.set(Self.accessTokenLifetimeKey, Double(accessTokenLifetime), in: db)
        try SettingsTable.set(Self.refreshReuseGraceKey, Double(refreshReuseGraceSeconds), in: db)
    }
}
