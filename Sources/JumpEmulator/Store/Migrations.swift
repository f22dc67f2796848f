import GRDB

/// The database schema, as GRDB migrations so a file database made by an older emulator is upgraded
/// in place instead of being thrown away.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE apps (
                    client_id TEXT PRIMARY KEY NOT NULL,
                    capture_app_id TEXT NOT NULL,
                    flow_name TEXT NOT NULL,
                    flow_version TEXT NOT NULL,
                    locales TEXT NOT NULL,
                    thin_registration INTEGER NOT NULL DEFAULT 0,
                    engage_app_id TEXT,
                    flow_json TEXT,
                    schema_json TEXT,
                    is_default INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE users (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    uuid TEXT NOT NULL UNIQUE,
                    client_id TEXT NOT NULL REFERENCES apps(client_id) ON DELETE CASCADE,
                    email_lower TEXT,
                    username_lower TEXT,
                    password_hash TEXT,
                    record TEXT NOT NULL,
                    created REAL NOT NULL,
                    last_updated REAL NOT NULL,
                    next_element_id INTEGER NOT NULL DEFAULT 1
                );
                CREATE UNIQUE INDEX users_email ON users(client_id, email_lower);
                CREATE UNIQUE INDEX users_username ON users(client_id, username_lower);
                CREATE TABLE sessions (
                    access_token TEXT PRIMARY KEY NOT NULL,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    client_id TEXT NOT NULL,
                    refresh_secret TEXT,
                    issued_at REAL NOT NULL,
                    expires_at REAL NOT NULL,
                    retired INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX sessions_user ON sessions(user_id);
                CREATE TABLE authorization_codes (
                    code TEXT PRIMARY KEY NOT NULL,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    client_id TEXT NOT NULL,
                    redirect_uri TEXT,
                    issued_at REAL NOT NULL,
                    expires_at REAL NOT NULL,
                    used INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE settings (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2") { db in
            // Client secrets (for /oauth/token and the access-schema calls), the reset link's base,
            // the purpose of a code (sign-in authorization, password reset, email verification),
            // OAuth refresh tokens, access schemas and the captured outgoing emails.
            try db.execute(sql: """
                ALTER TABLE apps ADD COLUMN client_secret TEXT;
                ALTER TABLE apps ADD COLUMN password_recover_url TEXT;
                UPDATE apps SET client_secret = 'jump-default-secret' WHERE is_default = 1;
                UPDATE apps SET client_secret = lower(hex(randomblob(16))) WHERE client_secret IS NULL;
                ALTER TABLE authorization_codes ADD COLUMN kind TEXT NOT NULL DEFAULT 'authorization';
                ALTER TABLE sessions ADD COLUMN refresh_token TEXT;
                CREATE UNIQUE INDEX sessions_refresh_token ON sessions(refresh_token);
                CREATE TABLE access_schemas (
                    client_id TEXT NOT NULL REFERENCES apps(client_id) ON DELETE CASCADE,
                    access_type TEXT NOT NULL,
                    attributes TEXT NOT NULL,
                    PRIMARY KEY (client_id, access_type)
                );
                CREATE TABLE emails (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    client_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    to_address TEXT NOT NULL,
                    code TEXT NOT NULL,
                    link TEXT NOT NULL,
                    locale TEXT NOT NULL,
                    created REAL NOT NULL
                );
                """)
        }
        migrator.registerMigration("v3") { db in
            // Teams, users, tokens and used sign-in tokens of the sign-in-token API.
            try TokenTables.create(in: db)
        }
        migrator.registerMigration("v4") { db in
            // Engage: tokens, test identities, shared activities, short URLs.
            try EngageTables.create(in: db)
        }
        migrator.registerMigration("v5") { db in
            // Capture social sign-in: the identity index.
            try SocialTables.create(in: db)
        }
        migrator.registerMigration("v6") { db in
            // The refresh_access_token grace window: a retired session remembers the request that
            // retired it (its date and signature, when, by the emulator clock) and the token it gave.
            try db.execute(sql: """
                ALTER TABLE sessions ADD COLUMN successor TEXT;
                ALTER TABLE sessions ADD COLUMN retired_at REAL;
                ALTER TABLE sessions ADD COLUMN retired_date TEXT;
                ALTER TABLE sessions ADD COLUMN retired_signature TEXT;
                """)
        }
        return migrator
    }
}
