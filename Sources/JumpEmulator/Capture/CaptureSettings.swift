import GRDB

/// The Capture refresh setting of `/emulator/settings`, kept in the `settings` table (so a reset, which
/// empties that table, brings the default back).
enum CaptureSettings {
    static let refreshGraceKey = "capture_refresh_grace_seconds"
    static let defaultRefreshGraceSeconds = 30

    /// How long after a `refresh_access_token` an exact replay of it still gets the same new token (a
    /// client killed between sending the refresh and saving the answer must not lose its session);
    /// 0 disables the grace.
    static func refreshGraceSeconds(in db: Database) throws -> Int {
        guard let stored = try SettingsTable.double(refreshGraceKey, in: db), stored.isFinite,
            let seconds = Int(exactly: stored.rounded()), seconds >= 0
        else { return defaultRefreshGraceSeconds }
        return seconds
    }

    static func setRefreshGraceSeconds(_ seconds: Int, in db: Database) throws {
        try SettingsTable.set(refreshGraceKey, Double(seconds), in: db)
    }
}
