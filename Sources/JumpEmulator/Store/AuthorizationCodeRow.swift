import GRDB

/// A single-use code: an OAuth authorization code issued with `response_type=code_and_token`, or the
/// code of a password-reset or verification email. `/oauth/token` exchanges the first two kinds.
struct AuthorizationCodeRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord, SnakeCaseRecord {
    static let databaseTableName = "authorization_codes"

    enum Kind: String, Sendable {
        case authorization
        case passwordReset = "password_reset"
        case verification
    }

    var code: String
    var userId: Int64
    var clientId: String
    var redirectUri: String?
    var issuedAt: Double
    var expiresAt: Double
    var used: Bool
    var kind: String = Kind.authorization.rawValue
}
