import GRDB

/// An OAuth authorization code issued with `response_type=code_and_token`, for a server to exchange.
struct AuthorizationCodeRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "authorization_codes"

    var code: String
    var userId: Int64
    var clientId: String
    var redirectUri: String?
    var issuedAt: Double
    var expiresAt: Double
    var used: Bool

    enum CodingKeys: String, CodingKey {
        case code
        case userId = "user_id"
        case clientId = "client_id"
        case redirectUri = "redirect_uri"
        case issuedAt = "issued_at"
        case expiresAt = "expires_at"
        case used
    }
}
