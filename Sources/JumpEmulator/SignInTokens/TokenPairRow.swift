import GRDB

/// One answer of `/v1/token`: an access token and the refresh token issued with it. A rotation marks
/// the row `rotated_at` and names its `successor` (the refresh token of the next row), which is what
/// lets a retry inside the grace window get the very same successor pair back.
struct TokenPairRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord, SnakeCaseRecord {
    static let databaseTableName = "token_pairs"

    var refreshToken, accessToken, familyId: String
    var issuedAt, accessExpiresAt: Double
    var rotatedAt: Double?
    var successor: String?

    static func find(accessToken: String, in db: Database) throws -> TokenPairRow? {
        try TokenPairRow.filter(Column("access_token") == accessToken).fetchOne(db)
    }
}
