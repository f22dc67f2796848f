import GRDB

/// An access token and what it grants. A refresh retires the old row and adds a new one with the
/// same refresh secret.
struct SessionRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sessions"

    var accessToken: String
    var userId: Int64
    var clientId: String
    /// The client's secret for signing refreshes; nil when the sign-in sent none (never refreshable).
    var refreshSecret: String?
    var issuedAt: Double
    var expiresAt: Double
    var retired: Bool
    /// The OAuth refresh token of a session made by `/oauth/token` (single use); nil otherwise.
    var refreshToken: String? = nil

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case userId = "user_id"
        case clientId = "client_id"
        case refreshSecret = "refresh_secret"
        case issuedAt = "issued_at"
        case expiresAt = "expires_at"
        case retired
        case refreshToken = "refresh_token"
    }

    static func find(token: String, in db: Database) throws -> SessionRow? {
        try SessionRow.fetchOne(db, key: token)
    }

    static func activeCount(userId: Int64, now: Double, in db: Database) throws -> Int {
        try SessionRow.filter(Column("user_id") == userId && Column("retired") == false && Column("expires_at") > now)
            .fetchCount(db)
    }
}
