/// How a social sign-in ended (jump_client_social_complete and the other social sign-ins): with Capture,
/// signed in, registered (thin registration) or linked; for Engage-only apps, authenticated, with what
/// Engage told and the app's token URL answer.
public struct SocialOutcome: Sendable {
    public enum Kind: String, Sendable { case signedIn = "signed_in", registered, linked, authenticated }

    public let kind: Kind
    public let provider: String
    public var isNew = false
    public var uuid: String?
    public var authorizationCode: String?
    /// A merge_token was given and the identity was merged into the account.
    public var merged = false
    /// The Engage identifier of the identity.
    public var identifier: String?
    /// Engage-only: the Engage token, the device token (for sharing), the provider's profile as Engage
    /// gives it, and the token URL's answer when there is a token URL.
    public var engageToken: String?
    public var deviceToken: String?
    public var profile: JSON?
    public var tokenURLResponse: TokenURLResponse?

    init(kind: Kind, provider: String) {
        self.kind = kind
        self.provider = provider
    }
}

/// The app backend's answer to the Engage token POSTed to its token URL, with its Set-Cookie cookies.
public struct TokenURLResponse: Sendable {
    public let response: JumpClient.AuthorizedResponse
    /// {"name","value", attributes...} per Set-Cookie header.
    public let cookies: [JSON]
}
