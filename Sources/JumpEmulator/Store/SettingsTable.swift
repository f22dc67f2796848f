import GRDB

/// Key/value rows of the `settings` table (clock offset, access-token lifetime), so a file database
/// keeps them across restarts.
enum SettingsTable {
    static let clockOffset = "clock_offset_seconds"
    static let tokenLifetime = "access_token_lifetime"

    static func double(_ key: String, in db: Database) throws -> Double? {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key])
        else { return nil }
        return Double(text)
    }

    static func set(_ key: String, _ value: Double, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, String(value)])
    }
}
