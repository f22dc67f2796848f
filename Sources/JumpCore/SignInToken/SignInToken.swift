/// A backend-issued sign-in token (docs/protocol.md §12.1): base64 of {"public_key","user_token"}, where
/// user_token is an RS256 JWT naming the user (uid), the team (claims.vital_team_id) and, through its issuer,
/// the environment and region. The device cannot verify the signature; the server does at the exchange.
public struct SignInToken: Sendable, Equatable {
    public let userID: String
    public let teamID: String?
    public let environment: TokenEnvironment
    public let tenantID: String?
    public let publicKey: String?
    /// The inner JWT: what /v1/token exchanges (never the envelope).
    public let jwt: String
    /// Expiry from the JWT, when present (epoch seconds; informative only, the server decides).
    public let expiresAt: Int64?

    public init(_ raw: String) throws(JumpError) {
        let text = raw.trimmingSpaces()
        guard !text.isEmpty else { throw SignInToken.malformed("the sign-in token is empty") }
        guard let envelopeBytes = Base64Tolerant.decode(text) else {
            throw SignInToken.malformed("the sign-in token is not base64 (standard or URL-safe)")
        }
        let envelope: JSON
        do { envelope = try Jansson.parse(envelopeBytes, what: "the sign-in token") } catch {
            throw SignInToken.malformed("the sign-in token does not hold a JSON object")
        }
        guard let jwt = envelope["user_token"]?.stringValue, !jwt.isEmpty else {
            throw SignInToken.malformed("the sign-in token has no user_token")
        }
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, !segments[0].isEmpty, !segments[1].isEmpty else {
            throw SignInToken.malformed("the sign-in token's user_token is not a JWT (three dot-separated segments)")
        }
        guard let headerBytes = Base64Tolerant.decode(String(segments[0])),
              let payloadBytes = Base64Tolerant.decode(String(segments[1])),
              let header = try? Jansson.parse(headerBytes, what: "JWT header"),
              let claims = try? Jansson.parse(payloadBytes, what: "JWT claims") else {
            throw SignInToken.malformed("the sign-in token's JWT segments are not base64url JSON")
        }
        guard header["alg"]?.stringValue == "RS256" else {
            throw SignInToken.malformed("the sign-in token's JWT is not RS256 (alg \(header["alg"].map(Jansson.serialize) ?? "missing"))")
        }
        if let type = header["typ"]?.stringValue, type.uppercased() != "JWT" {
            throw SignInToken.malformed("the sign-in token's JWT has typ '\(type)', not JWT")
        }
        guard let uid = claims["uid"]?.stringValue, !uid.isEmpty else {
            throw SignInToken.malformed("the sign-in token names no user (uid)")
        }
        guard let issuer = claims["iss"]?.stringValue else {
            throw SignInToken.malformed("the sign-in token has no issuer (iss)")
        }
        environment = try TokenEnvironment(issuer: issuer)
        userID = uid
        teamID = claims["claims"]?["vital_team_id"]?.stringValue ?? claims["claims"]?["team_id"]?.stringValue
        tenantID = claims["tenant_id"]?.stringValue
        publicKey = envelope["public_key"]?.stringValue
        expiresAt = claims["exp"]?.intValue
        self.jwt = jwt
    }


    static func malformed(_ message: String) -> JumpError {
        JumpError(.invalidArgument, message, detail: ["argument": "sign_in_token", "error_type": "malformed_token"])
    }
}

/// Base64 in either alphabet, with or without padding (docs/protocol.md §12.10 item 8: never reject base64url).
enum Base64Tolerant {
    static func decode(_ text: String) -> [UInt8]? {
        var normalized = String(text.map { $0 == "-" ? "+" : ($0 == "_" ? "/" : $0) })
        while normalized.hasSuffix("=") { normalized.removeLast() }
        guard !normalized.isEmpty, normalized.count % 4 != 1 else { return nil }
        normalized += String(repeating: "=", count: (4 - normalized.count % 4) % 4)
        return Base64.decode(normalized)
    }
}
