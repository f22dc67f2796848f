/// The sign-in-token side of the credentials call (issue 13): the session's access token with its expiry,
/// refreshed first through the session's single flight only when it would not last minTTL seconds, or
/// when forced. A session pending re-authentication keeps its token while it lasts long enough; past that
/// the refresh is refused (JUMP_E_EXPIRED), as jump_client_refresh_access_token is.
extension TokenSession {
    func credentials(minTTL: Int64, force: Bool) throws(JumpError) -> HeldToken {
        let (grant, generation) = try state.withLock { s throws(JumpError) -> (TokenGrant, UInt64) in
            guard case .token(let t)? = try requireTokens(s).credential else {
                throw JumpError(.notSignedIn, "no sign-in-token session (sign in with a sign-in token first)")
            }
            return (t, s.tokenGeneration)
        }
        if !force && TokenLifetime.isFresh(grant.expiresAt, minTTL: minTTL) {
            return HeldToken(token: grant.accessToken, expiresAt: grant.expiresAt, refreshed: false)
        }
        _ = try refreshTokenSession(replacing: grant.refreshToken)
        // The token and its expiry read together: a refresh finishing meanwhile cannot pair one with the other's.
        return try state.withLock { s throws(JumpError) -> HeldToken in
            guard s.tokenGeneration == generation, case .token(let now)? = s.tokens.credential else {
                throw JumpError(.notSignedIn, "the session ended while its access token was being refreshed")
            }
            return HeldToken(token: now.accessToken, expiresAt: now.expiresAt, refreshed: now.accessToken != grant.accessToken)
        }
    }

    /// Whether the credential held lasts more than minTTL seconds (memory only; never waits for a refresh in
    /// flight, which runs outside the state lock). An API key never expires.
    func hasFreshCredential(minTTL: Int64) -> Bool {
        state.withLock { s -> Bool in
            guard s.credentialRestoreError == nil else { return false }
            switch s.tokens.credential {
            case .token(let t)?: return TokenLifetime.isFresh(t.expiresAt, minTTL: minTTL)
            case .apiKey?: return true
            case nil: return false
            }
        }
    }
}
