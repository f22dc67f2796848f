import GRDB

/// A user of the sign-in-token API (`/v2/user`), apart from Capture's users: a team's user known by
/// the team's own `client_user_id`, with a small JSON profile for the user-scoped resource calls.
///
/// Deleting keeps the row with `deleted_at` set, so the token endpoint can tell "this user was
/// deleted" (`invalid_token`, the SDKs sign out) from "this refresh token is unknown".
struct TokenUserRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord, SnakeCaseRecord {
    static let databaseTableName = "token_users"

    var userId, teamId, clientUserId: String
    /// JSON object text.
    var profile: String
    var created: Double
    var deletedAt: Double?

    var isDeleted: Bool { deletedAt != nil }

    var profileData: [String: JSONValue] {
        JSONValue.parse(profile)?.objectValue ?? [:]
    }

    /// The user as `GET /v2/user/{user_id}` shows it.
    var json: JSONValue {
        ["user_id": .string(userId), "client_user_id": .string(clientUserId), "team_id": .string(teamId)]
    }

    /// Ids are lower-case UUIDs; clients may send them upper-case (iOS formats UUIDs so).
    static func find(id: String, in db: Database) throws -> TokenUserRow? {
        try TokenUserRow.fetchOne(db, key: id.lowercased())
    }

    static func findLive(clientUserId: String, teamId: String, in db: Database) throws -> TokenUserRow? {
        try TokenUserRow.filter(
            Column("team_id") == teamId && Column("client_user_id") == clientUserId && Column("deleted_at") == nil
        ).fetchOne(db)
    }
}
