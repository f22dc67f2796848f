import Foundation

/// Makes sign-in tokens in the shape the Junction SDKs read (docs/protocol.md §12.1): standard padded
/// base64 of `{"public_key","user_token"}`, where `user_token` is a Firebase-custom-token-shaped JWT
/// signed RS256 with the emulator's key.
enum SignInTokenMinter {
    static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// Stands in for the Google API key the old flow sent; the SDKs only store it.
    static let publicKey = "jump-emulator-public-key"

    struct Minted: Sendable {
        var envelope: String
        var userToken: String
        var jti: String
        var expiresAt: Int
    }

    static func mint(user: TokenUserRow, team: TeamRow, now: Date, lifetime: Int, key: SigningKey) throws -> Minted {
        let issuedAt = Int(now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt + lifetime
        let jti = UUID().uuidString.lowercased()
        let header: JSONValue = ["alg": "RS256", "typ": "JWT", "kid": .string(try key.keyId)]
        let payload: JSONValue = [
            "iss": .string(team.signerAddress), "sub": .string(team.signerAddress), "aud": .string(audience),
            "uid": .string(user.userId), "tenant_id": .string(team.tenantId),
            "claims": ["vital_team_id": .string(team.teamId)],
            "iat": .int(Int64(issuedAt)), "exp": .int(Int64(expiresAt)), "jti": .string(jti),
        ]
        let userToken = try CompactJWT.sign(header: header, payload: payload, with: key)
        let envelope: JSONValue = ["public_key": .string(publicKey), "user_token": .string(userToken)]
        return Minted(envelope: Data(envelope.serializedBytes()).base64EncodedString(), userToken: userToken, jti: jti,
                      expiresAt: expiresAt)
    }
}
