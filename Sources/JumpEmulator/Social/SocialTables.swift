import GRDB

/// The tables of Capture's social sign-in (migration `v5`).
enum SocialTables {
    static func create(in db: Database) throws {
        // An index of the records' `profiles` identifiers, so auth_native finds a user by identity
        // without reading every record. The record stays the truth; see `UserIdentityRow.sync`.
        // Rows go with their user (admin deletes, app resets, `/emulator/reset`) by the cascade.
        try db.execute(sql: """
            CREATE TABLE user_identities (
                client_id TEXT NOT NULL,
                identifier TEXT NOT NULL,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                provider TEXT NOT NULL,
                PRIMARY KEY (client_id, identifier)
            );
            CREATE INDEX user_identities_user ON user_identities(user_id);
            """)
        try backfill(in: db)
    }

    /// A database made by an older emulator may already hold records with profiles.
    private static func backfill(in db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, client_id, record FROM users")
        for row in rows {
            let userId: Int64 = row["id"]
            let clientId: String = row["client_id"]
            let record: String = row["record"]
            let attributes = JSONValue.parse(record)?.objectValue ?? [:]
            for identity in UserIdentityRow.identities(in: attributes) {
                try UserIdentityRow(clientId: clientId, identifier: identity.identifier, userId: userId,
                                    provider: identity.provider).save(db)
            }
        }
    }
}
