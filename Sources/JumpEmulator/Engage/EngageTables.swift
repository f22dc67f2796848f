import GRDB

/// The Engage tables (migration `v4`): issued tokens, plus what the Engage endpoints keep.
enum EngageTables {
    static func create(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE engage_tokens (
                token TEXT PRIMARY KEY NOT NULL,
                engage_app_id TEXT NOT NULL,
                provider TEXT NOT NULL,
                identifier TEXT NOT NULL,
                profile_json TEXT NOT NULL,
                device_token TEXT UNIQUE,
                created REAL NOT NULL,
                expires_at REAL NOT NULL,
                capture_state TEXT,
                capture_client_id TEXT
            );
            """)
    }
}
