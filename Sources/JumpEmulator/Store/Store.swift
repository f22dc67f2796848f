import Foundation
import GRDB

/// The emulator's SQLite database: one `DatabaseQueue` (a file, or in memory), migrated on open.
///
/// A queue serialises every access, so a check followed by a write inside one `write` block
/// (unique email, then insert) cannot interleave with another request.
final class Store: Sendable {
    let queue: DatabaseQueue

    private init(queue: DatabaseQueue) {
        self.queue = queue
    }

    /// `upTo` stops after the named migration (tests build an older database with it).
    static func open(path: String, upTo lastMigration: String? = nil) throws -> Store {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.label = "jump-emulator"
        let queue: DatabaseQueue
        if path == ":memory:" || path.isEmpty {
            queue = try DatabaseQueue(configuration: configuration)
        } else {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        }
        if let lastMigration {
            try Migrations.migrator.migrate(queue, upTo: lastMigration)
        } else {
            try Migrations.migrator.migrate(queue)
        }
        return Store(queue: queue)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await queue.read(body)
    }

    /// Runs `body` in one transaction: a thrown error (a `CaptureError` too) rolls everything back.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await queue.write(body)
    }

    /// Puts the default app back when the database has no app at all (first start, or after a reset),
    /// and the default team when it is missing.
    func ensureDefaults(now: Double) async throws {
        try await write { db in
            if try AppRow.fetchCount(db) == 0 {
                try DefaultApp.row.insert(db)
            }
            try TeamRow.ensureDefault(now: now, in: db)
        }
    }

    /// Wipes users, sessions, codes, extra apps, access schemas, emails, settings, everything of the
    /// sign-in-token API and of Engage; restores the default app and the default team.
    func reset(now: Double) async throws {
        try await write { db in
            try TokenTables.reset(now: now, in: db)
            try EngageTables.reset(in: db)
            try db.execute(sql: """
                DELETE FROM authorization_codes;
                DELETE FROM sessions;
                DELETE FROM users;
                DELETE FROM access_schemas;
                DELETE FROM apps;
                DELETE FROM settings;
                DELETE FROM emails;
                DELETE FROM sqlite_sequence WHERE name IN ('users', 'emails');
                """)
            try DefaultApp.row.insert(db)
        }
    }
}
