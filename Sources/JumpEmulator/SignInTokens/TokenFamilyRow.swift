import GRDB

/// The chain of refresh tokens that grew out of one sign-in-token exchange. Revoking a family ends
/// every refresh and access token in it at once: on refresh-token reuse, `revoke_tokens`, `/v1/revoke`
/// and user deletion.
struct TokenFamilyRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord, SnakeCaseRecord {
    static let databaseTableName = "token_families"

    enum RevokedReason: String, Sendable {
        /// An already-rotated refresh token came back outside the grace window.
        case reuse
        /// `revoke_tokens` (API or admin).
        case revokeTokens = "revoke_tokens"
        /// `/v1/revoke`.
        case revoked
        case userDeleted = "user_deleted"
    }

    var familyId: String
    var userId: String
    var created: Double
    var revokedAt: Double?
    var revokedReason: String?

    var isRevoked: Bool { revokedAt != nil }
}
