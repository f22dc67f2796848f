/// The credentials call (issue 13; Auth0's credentials(minTTL:), Keycloak's updateToken(minValidity)): the
/// credential of the kind jump_client_request would send, valid for at least minTTL seconds when the server
/// allows it. A token is refreshed only when it would not last that long (or when forced), through its
/// session's single flight, so many callers at once cause one refresh.
extension JumpClient {
    private enum Holder {
        case token
        case apiKey(String)
        case capture
    }

    public func credentials(minTTL: Int64, forceRefresh: Bool = false,
                            cancellation: Cancellation? = nil) throws(JumpError) -> Credentials {
        guard minTTL >= 0 else {
            throw .invalidArgument("min_ttl_seconds is negative (\(minTTL))", argument: "min_ttl_seconds")
        }
        try cancellation?.check()
        switch try holder() {
        case .token:
            return Credentials(kind: .signInToken, try tokens.credentials(minTTL: minTTL, force: forceRefresh))
        case .apiKey(let key):
            guard !forceRefresh else {
                throw JumpError(.unsupported, "an API key cannot be refreshed (the client is in API-key mode)")
            }
            return Credentials(kind: .apiKey, HeldToken(token: key, expiresAt: nil, refreshed: false))
        case .capture:
            return Credentials(kind: .capture, try capture.credentials(minTTL: minTTL, force: forceRefresh))
        }
    }

    /// Whether the credential held now lasts more than minTTL seconds. No network, and never waits for a
    /// refresh in flight. false for a negative minTTL, and when no credential is held or readable.
    public func hasValidCredentials(minTTL: Int64) -> Bool {
        guard minTTL >= 0, let held = try? holder() else { return false }
        switch held {
        case .token, .apiKey: return tokens.hasFreshCredential(minTTL: minTTL)
        case .capture: return capture.hasFreshToken(minTTL: minTTL)
        }
    }

    /// The precedence of jump_client_request: the sign-in-token session, else the API key, else the Capture
    /// session. A credential store that could not be read speaks for itself (JUMP_E_STORAGE, never "signed
    /// out") unless a Capture session is there to use. Each session's lock is taken on its own, never nested.
    private func holder() throws(JumpError) -> Holder {
        enum Held { case token, apiKey(String), unreadable, none }
        let held = tokens.state.withLock { s -> Held in
            if s.credentialRestoreError != nil { return .unreadable }
            switch s.tokens.credential {
            case .token?: return .token
            case .apiKey(let k)?: return .apiKey(k.apiKey)
            case nil: return .none
            }
        }
        switch held {
        case .token: return .token
        case .apiKey(let key): return .apiKey(key)
        case .unreadable: return capture.isSignedIn ? .capture : .token
        case .none:
            guard capture.isSignedIn else {
                throw JumpError(.notSignedIn, "the client holds no credential (sign in, or use an API key)")
            }
            return .capture
        }
    }
}
