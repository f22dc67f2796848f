import JumpRuntime

/// The credentials call (issue 13; Auth0's credentials(minTTL:), Keycloak's updateToken(minValidity)): the
/// credential of the kind jump_client_request would send, valid for at least minTTL seconds when the server
/// allows it. A token is refreshed only when it would not last that long (or when forced), through its
/// session's single flight, so many callers at once cause one refresh.
extension JumpClient {
    public func credentials(minTTL: Int64, forceRefresh: Bool = false,
                            cancellation: Cancellation? = nil) throws(JumpError) -> Credentials {
        guard minTTL >= 0 else {
            throw .invalidArgument("min_ttl_seconds is negative (\(minTTL))", argument: "min_ttl_seconds")
        }
        try cancellation?.check()
        let session = capture  // read once: the credential chosen is the one returned, whatever a switch does
        switch try CredentialChoice.choose(tokens: tokens, capture: session) {
        case .signInToken:
            return Credentials(kind: .signInToken, try tokens.credentials(minTTL: minTTL, force: forceRefresh))
        case .apiKey(let key):
            guard !forceRefresh else {
                throw JumpError(.unsupported, "an API key cannot be refreshed (the client is in API-key mode)")
            }
            return Credentials(kind: .apiKey, HeldToken(token: key.apiKey, expiresAt: nil, refreshed: false))
        case .capture:
            return Credentials(kind: .capture, try session.credentials(minTTL: minTTL, force: forceRefresh))
        }
    }

    /// Whether the credential held now lasts more than minTTL seconds. No network, and never waits for a
    /// refresh in flight. false for a negative minTTL, and when no credential is held or readable.
    public func hasValidCredentials(minTTL: Int64) -> Bool {
        let session = capture
        guard minTTL >= 0, let choice = try? CredentialChoice.choose(tokens: tokens, capture: session) else { return false }
        switch choice {
        case .signInToken, .apiKey: return tokens.hasFreshCredential(minTTL: minTTL)
        case .capture: return session.hasFreshToken(minTTL: minTTL)
        }
    }
}
