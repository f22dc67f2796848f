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
            CREATE TABLE engage_apps (
                engage_app_id TEXT PRIMARY KEY NOT NULL,
                api_key TEXT NOT NULL UNIQUE,
                providers TEXT NOT NULL,
                sharing_providers TEXT NOT NULL,
                custom_provider_info TEXT NOT NULL,
                whitelisted_domains TEXT NOT NULL,
                updated REAL NOT NULL
            );
            CREATE TABLE engage_identities (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                engage_app_id TEXT,
                provider TEXT NOT NULL,
                identifier TEXT NOT NULL,
                profile_json TEXT NOT NULL,
                created REAL NOT NULL
            );
            CREATE UNIQUE INDEX engage_identities_identifier ON engage_identities(provider, identifier);
            CREATE TABLE engage_activities (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                engage_app_id TEXT,
                provider TEXT,
                identifier TEXT,
                kind TEXT NOT NULL,
                activity_json TEXT,
                status TEXT,
                device TEXT,
                app_name TEXT,
                created REAL NOT NULL
            );
            CREATE TABLE short_urls (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                long_url TEXT NOT NULL UNIQUE,
                created REAL NOT NULL
            );
            CREATE TABLE share_errors (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                provider TEXT NOT NULL,
                code INTEGER NOT NULL,
                msg TEXT NOT NULL,
                remaining INTEGER NOT NULL
            );
            """)
    }

    /// Everything Engage goes; the default Engage app needs no row (see `EngageApp.builtInDefault`).
    static func reset(in db: Database) throws {
        try db.execute(sql: """
            DELETE FROM engage_tokens;
            DELETE FROM engage_apps;
            DELETE FROM engage_identities;
            DELETE FROM engage_activities;
            DELETE FROM short_urls;
            DELETE FROM share_errors;
            DELETE FROM sqlite_sequence WHERE name IN ('engage_identities', 'engage_activities', 'short_urls', 'share_errors');
            """)
    }
}
