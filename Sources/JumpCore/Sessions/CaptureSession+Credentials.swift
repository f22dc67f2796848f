/// The Capture side of the credentials call (issue 13): the access token with its expiry, refreshed first
/// through the session's single flight only when it would not last minTTL seconds, or when forced.
extension CaptureSession {
    func credentials(minTTL: Int64, force: Bool) throws(JumpError) -> HeldToken {
        let (session, generation) = try state.withLock { s throws(JumpError) -> (Session, UInt64) in
            retryFailedSave(&s)
            return (try requireSession(s), s.generation)
        }
        if session.reauthenticationRequired {
            throw JumpError(.expired, "the session can no longer be refreshed: sign in again")
        }
        let held = session.accessToken  // remembered as a secret where it arrived (sign-in, refresh, restore)
        let fresh = TokenLifetime.isFresh(session.accessTokenExpiresAt, minTTL: minTTL)
        // A refresh that was sent and whose answer was never saved is replayed, as accessToken does: the
        // server may already have replaced the token.
        let replay = session.pendingRefresh?.accessToken == held
        guard force || replay || !fresh else {
            return HeldToken(token: held, expiresAt: session.accessTokenExpiresAt, refreshed: false)
        }
        do {
            _ = try refresh(replacing: held)
        } catch where replay && !force && fresh && error.status != .expired && error.status != .notSignedIn {
            // Only the replay failed, for a passing reason, and the token held lasts long enough anyway.
            return HeldToken(token: held, expiresAt: session.accessTokenExpiresAt, refreshed: false)
        }
        // The token and its expiry read together: a refresh finishing meanwhile cannot pair one with the other's.
        return try state.withLock { s throws(JumpError) -> HeldToken in
            guard s.generation == generation, let now = s.session else {
                throw JumpError(.notSignedIn, "the session ended while its access token was being refreshed")
            }
            return HeldToken(token: now.accessToken, expiresAt: now.accessTokenExpiresAt, refreshed: now.accessToken != held)
        }
    }

    /// Whether the token held lasts more than minTTL seconds. Reads memory only, and a refresh in flight runs
    /// outside the state lock, so this never waits for one: it answers for the token held now. A refresh
    /// recorded but not in flight (sent by an earlier process, answer never saved) needs a replay: false.
    func hasFreshToken(minTTL: Int64) -> Bool {
        state.withLock { s -> Bool in
            guard let session = s.session, !session.reauthenticationRequired,
                  s.refresh != nil || session.pendingRefresh?.accessToken != session.accessToken else { return false }
            return TokenLifetime.isFresh(session.accessTokenExpiresAt, minTTL: minTTL)
        }
    }
}
