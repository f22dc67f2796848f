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
        return migrator
    }
}
