import GRDB

/// The tables of the sign-in-token API (migration `v3`) and how a reset empties them.
enum TokenTables {
    static func create(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE teams (
                team_id TEXT PRIMARY KEY NOT NULL,
                api_key TEXT NOT NULL UNIQUE,
                environment TEXT NOT NULL,
                region TEXT NOT NULL,
                is_default INTEGER NOT NULL DEFAULT 0,
                created REAL NOT NULL
            );
            CREATE TABLE token_users (
                user_id TEXT PRIMARY KEY NOT NULL,
                team_id TEXT NOT NULL REFERENCES teams(team_id) ON DELETE CASCADE,
                client_user_id TEXT NOT NULL,
                profile TEXT NOT NULL DEFAULT '{}',
                created REAL NOT NULL,
                deleted_at REAL
            );
            CREATE UNIQUE INDEX token_users_client ON token_users(team_id, client_user_id) WHERE deleted_at IS NULL;
            CREATE TABLE token_families (
                family_id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES token_users(user_id) ON DELETE CASCADE,
                created REAL NOT NULL,
                revoked_at REAL,
                revoked_reason TEXT
            );
            CREATE INDEX token_families_user ON token_families(user_id);
            CREATE TABLE token_pairs (
                refresh_token TEXT PRIMARY KEY NOT NULL,
                access_token TEXT NOT NULL UNIQUE,
                family_id TEXT NOT NULL REFERENCES token_families(family_id) ON DELETE CASCADE,
                issued_at REAL NOT NULL,
                access_expires_at REAL NOT NULL,
                rotated_at REAL,
                successor TEXT
            );
            CREATE INDEX token_pairs_family ON token_pairs(family_id);
            CREATE TABLE used_sign_in_tokens (
                jti TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                used_at REAL NOT NULL,
                expires_at REAL NOT NULL
            );
            """)
    }

    /// Token users, their tokens, used sign-in tokens and extra teams go; the default team comes back.
    static func reset(now: Double, in db: Database) throws {
        try db.execute(sql: """
            DELETE FROM used_sign_in_tokens;
            DELETE FROM token_pairs;
            DELETE FROM token_families;
            DELETE FROM token_users;
            DELETE FROM teams;
            """)
        try TeamRow.ensureDefault(now: now, in: db)
    }
}
