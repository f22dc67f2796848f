import GRDB

/// An access token and what it grants. A refresh retires the old row and adds a new one with the
/// same refresh secret; the old row then names its successor.
struct SessionRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord, SnakeCaseRecord {
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
    /// Set when `refresh_access_token` retired this row: the access token it issued instead, and the
    /// `date` and `signature` of that request and when (emulator clock) it came, so that an exact
    /// replay inside the grace window gets the same successor (see `RefreshReplay`).
    var successor: String? = nil
    var retiredAt: Double? = nil
    var retiredDate: String? = nil
    var retiredSignature: String? = nil

    static func find(token: String, in db: Database) throws -> SessionRow? {
        try SessionRow.fetchOne(db, key: token)
    }

    /// The sessions whose access token still works at `now` (not retired, not expired).
    static func active(now: Double) -> QueryInterfaceRequest<SessionRow> {
        SessionRow.filter(Column("retired") == false && Column("expires_at") > now)
    }

    /// The sessions clients of a user hold: each sign-in's newest access token (a refresh retires the one it
    /// replaces), live or expired, newest first.
    static func held(userId: Int64, limit: Int, in db: Database) throws -> [SessionRow] {
        try SessionRow.filter(Column("user_id") == userId && Column("retired") == false)
            .order(Column("issued_at").desc, Column("access_token")).limit(limit).fetchAll(db)
    }

    /// How a client renews it: "signed" (refresh_access_token), "oauth" (a refresh token) or "none".
    var refreshKind: String { refreshToken != nil ? "oauth" : refreshSecret != nil ? "signed" : "none" }

    static func activeCount(userId: Int64, now: Double, in db: Database) throws -> Int {
        try active(now: now).filter(Column("user_id") == userId).fetchCount(db)
    }
}
