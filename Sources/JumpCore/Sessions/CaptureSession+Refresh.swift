import JumpRuntime

extension CaptureSession {
    /// A usable access token: refreshed first when it is known to expire within the margin.
    /// A token well within its lifetime is answered from memory, never behind a save (`answer`).
    public func accessToken(cancellation: Cancellation? = nil) throws(JumpError) -> String {
        if let token = answer({ s in tokenWithinItsLifetime(s) }) { return token }
        return try currentToken(cancellation: cancellation).token
    }

    /// The session's token when nothing is to be done first: no refresh due or pending, no failed save to
    /// try again (`currentToken` does those).
    private func tokenWithinItsLifetime(_ s: CaptureState) -> String? {
        guard s.stored.storageError == nil, let session = s.session, !session.reauthenticationRequired,
              session.pendingRefresh?.accessToken != session.accessToken,
              session.accessTokenExpiresAt.map({ Clock.now() < $0 - settings.refreshMarginSeconds }) ?? true else { return nil }
        return session.accessToken
    }

    /// Refreshes now, whatever the token's age.
    public func refreshAccessToken(cancellation: Cancellation? = nil) throws(JumpError) {
        let token = try state.withLock { s throws(JumpError) in try requireSession(s).accessToken }
        _ = try refresh(replacing: token)
    }

    /// Runs `call` with a valid token; when the server says the token expired, refreshes once and retries.
    func authorized<T>(cancellation: Cancellation?, _ call: (String) throws(JumpError) -> T) throws(JumpError) -> (T, UInt64) {
        let (token, generation) = try currentToken(cancellation: cancellation)
        do {
            return (try call(token), generation)
        } catch where CaptureErrors.isExpiredToken(error) {
            let fresh = try refresh(replacing: token)
            try cancellation?.check()
            do throws(JumpError) {
                return (try call(fresh), generation)
            } catch where CaptureErrors.isExpiredToken(error) {
                // The refresh took the credential another process sharing the storage directory saved, and it
                // has expired since (this process slept through expiries): that one is refreshed in turn.
                let newer = try refresh(replacing: fresh)
                try cancellation?.check()
                return (try call(newer), generation)
            }
        }
    }

    private func currentToken(cancellation: Cancellation?) throws(JumpError) -> (token: String, generation: UInt64) {
        let (session, generation) = try state.withLock { s throws(JumpError) in
            retryFailedSave(&s)
            return (try requireSession(s), s.generation)
        }
        if session.reauthenticationRequired {
            throw JumpError(.expired, "the session can no longer be refreshed: sign in again")
        }
        // A refresh was sent and its answer never saved (the process died, or the save failed): the same
        // request again gets the same answer while the server's grace window lasts.
        if let pending = session.pendingRefresh, pending.accessToken == session.accessToken {
            do {
                return (try refresh(replacing: session.accessToken), generation)
            } catch where error.status != .expired && error.status != .notSignedIn
                && (session.accessTokenExpiresAt.map { Clock.now() < $0 } ?? false) {
                // The replay failed for a passing reason; the token itself is still good (the next call
                // tries the replay again).
                return (session.accessToken, generation)
            }
        }
        if let expiresAt = session.accessTokenExpiresAt, Clock.now() >= expiresAt - settings.refreshMarginSeconds {
            do {
                return (try refresh(replacing: session.accessToken), generation)
            } catch where error.status != .expired && error.status != .notSignedIn && Clock.now() < expiresAt {
                // Refreshing early failed for a passing reason; the token itself is still good.
                return (session.accessToken, generation)
            }
        }
        return (session.accessToken, generation)
    }

    /// Single-flight refresh keyed by the token being replaced: if another caller already replaced it, its
    /// successor is returned; if a refresh is running, its outcome is shared; otherwise this caller leads.
    /// The leader saves the refresh as pending under the store's lock (reading first what other clients of
    /// the storage directory saved: a token refreshed already is used, a refresh another live client has on
    /// the wire is waited for), sends it without the lock, and applies the answer under it again.
    func refresh(replacing token: String) throws(JumpError) -> String {
        typealias Lead = (secret: String, generation: UInt64, flight: RefreshFlight)
        // Decided under the session's lock; again when the flight this caller waited for ended at its leader's deadline.
        let decide = { [self] () throws(JumpError) -> RefreshFlight.Step<Lead> in
            try state.withLock { s throws(JumpError) -> RefreshFlight.Step<Lead> in
                let session = try requireSession(s)
                if session.accessToken != token { return .done(session.accessToken) }
                if session.reauthenticationRequired {
                    throw JumpError(.expired, "the session can no longer be refreshed: sign in again")
                }
                if let flight = s.refresh, !flight.isAbandoned { return .wait(flight) }
                guard let secret = session.refreshSecret else {
                    throw JumpError(.expired, "the session has no refresh secret, so its token cannot be refreshed: sign in again")
                }
                let flight = RefreshFlight()
                s.refresh = flight
                return .lead(flight, (secret: secret, generation: s.generation, flight: flight))
            }
        }
        return try RefreshFlight.run(decide, waitMilliseconds: RefreshFlight.leaderBoundMs(requestTimeoutMs: settings.requestTimeoutMs)) { lead in
            do throws(JumpError) {
                // Another client's refresh on the wire is waited for at most the request timeout; then this
                // one sends the same request (the server answers a replay alike while its grace lasts).
                let waitUntil = CallDeadline.bound(Clock.monotonicMilliseconds() &+ Int64(settings.requestTimeoutMs)).deadline
                let sender = RefreshOwner.sender(client: refreshClientID)
                return try RefreshOwner.refreshing(as: sender) { () throws(JumpError) -> Result<String, JumpError> in
                while true {
                    let prepared = try storage.underSessionLock { () throws(JumpError) -> Prepared in
                        if let fresh = adoptSavedCredential(replacing: token, generation: lead.generation, flight: lead.flight) {
                            return .done(.success(fresh))
                        }
                        return prepareRefresh(of: token, generation: lead.generation, flight: lead.flight, sender: sender,
                                              othersMayGoOn: Clock.monotonicMilliseconds() < waitUntil)
                    }
                    switch prepared {
                    case .send(let date):
                        return performRefresh(token: token, secret: lead.secret, date: date, generation: lead.generation,
                                              flight: lead.flight)
                    case .done(let outcome):
                        return outcome
                    case .anotherClientIsRefreshing:
                        Fiber.pause(milliseconds: 20)  // no lock held: the other client saves its answer meanwhile
                    }
                }
                }
            } catch {
                state.withLock { s in if s.refresh === lead.flight { s.refresh = nil } }
                return .failure(error)
            }
        }
    }

    private enum Prepared {
        case send(date: String)
        case done(Result<String, JumpError>)
        case anotherClientIsRefreshing
    }

    /// Under the store's lock: the refresh is saved, naming its sender, before it is sent, so that a restart
    /// can replay it (see PendingRefresh) and other clients wait for it. Nothing irreversible goes out before
    /// what a restart needs is on disk: a refresh whose pending record cannot be saved is not sent
    /// (JUMP_E_STORAGE; the caller goes on with the token held while it lasts), and the session on disk stays
    /// as it was, alive. A refresh of the same token that another live sender saved as pending is left to it
    /// while `othersMayGoOn`; one that is on disk already and whose sender is gone is sent again as it was.
    private func prepareRefresh(of token: String, generation: UInt64, flight: RefreshFlight, sender: String,
                                othersMayGoOn: Bool) -> Prepared {
        state.withLock { s -> Prepared in
            guard s.generation == generation, let session = s.session else {
                if s.refresh === flight { s.refresh = nil }
                return .done(.failure(JumpError(.notSignedIn, "the session ended while its access token was being refreshed")))
            }
            if session.accessToken != token {
                // A save took a newer token from storage meanwhile.
                if s.refresh === flight { s.refresh = nil }
                return .done(.success(session.accessToken))
            }
            let now = Clock.now()
            if let pending = session.pendingRefresh, pending.accessToken == token,
               pending.startedAt <= now, now - pending.startedAt < 600 {
                if othersMayGoOn, RefreshOwner.mayBeInFlight(pending, me: sender, now: now,
                                                             requestTimeoutMs: settings.requestTimeoutMs) {
                    return .anotherClientIsRefreshing
                }
                // The same request again: on disk already, so it may go even if naming its new sender fails.
                s.updateSession { $0.pendingRefresh?.owner = sender }
                persist(&s)
                return .send(date: pending.date)
            }
            let date = Clock.signatureDate(captureNow())  // Capture's time: this device's clock may be off
            s.updateSession { $0.pendingRefresh = PendingRefresh(accessToken: token, date: date, startedAt: now, owner: sender) }
            persist(&s)
            if let failure = s.stored.storageError {
                s.updateSession { $0.pendingRefresh = nil }
                if s.refresh === flight { s.refresh = nil }
                return .done(.failure(JumpError(.storage, "the access token was not refreshed: the refresh could not be recorded "
                                                + "before it was sent (\(failure.message)), and a refresh a restart could not "
                                                + "finish would end the session", detail: failure.detail)))
            }
            return .send(date: date)
        }
    }

    /// Under the store's lock: the credential another process sharing the storage directory saved for this
    /// very session, when it is newer than `token` (that process refreshed it); nil when there is none.
    private func adoptSavedCredential(replacing token: String, generation: UInt64, flight: RefreshFlight) -> String? {
        guard let saved = storage.savedElsewhere() else { return nil }
        return state.withLock { s -> String? in
            guard s.generation == generation, adoptCredential(&s, from: saved),
                  let fresh = s.session?.accessToken, fresh != token else { return nil }
            if s.refresh === flight { s.refresh = nil }
            return fresh
        }
    }

    private func performRefresh(token: String, secret: String, date: String, generation: UInt64,
                                flight: RefreshFlight) -> Result<String, JumpError> {
        let flow = state.withLock { $0.flow }
        let parameters = commonParameters(flow: flow)
        // The refresh is shared by every waiting caller, so no single caller's cancellation stops it.
        let answer: [String: JSON]
        do {
            answer = try postRefresh(parameters, token: token, secret: secret, date: date, generation: generation)
        } catch {
            // Refused: a process sharing the storage directory without taking its lock (an older libjump) may
            // have refreshed this token first; its successor is then on storage.
            let adopted = try? storage.underSessionLock { () throws(JumpError) -> String? in
                adoptSavedCredential(replacing: token, generation: generation, flight: flight)
            }
            if let fresh = adopted ?? nil { return .success(fresh) }
            return .failure(refreshFailed(error, generation: generation, flight: flight))
        }
        guard let fresh = answer["access_token"]?.stringValue, !fresh.isEmpty else {
            return .failure(refreshFailed(JumpError(.server, "the refresh response has no access_token"), generation: generation,
                                          flight: flight))
        }
        // A secret from the moment it arrives: an error text may quote it before libjump ever sends it.
        SecretScrubber.remember(fresh)
        let expiresAt = expiryTime(fromExpiresIn: answer["expires_in"])
        let applied = state.withLock { s -> String? in
            if s.refresh === flight { s.refresh = nil }
            guard s.generation == generation, var session = s.session else { return nil }
            session.accessToken = fresh
            session.accessTokenExpiresAt = expiresAt
            session.pendingRefresh = nil
            session.credentialSerial &+= 1
            s.setSession(session)
            persist(&s)
            return session.record.uuid
        }
        guard let uuid = applied else {
            return .failure(JumpError(.notSignedIn, "the session ended while its access token was being refreshed"))
        }
        emit(.tokenRefreshed(uuid: uuid))
        return .success(fresh)
    }

    /// Transient failures (network, timeouts, 5xx, garbage) leave the session as it was; Capture refusing
    /// the refresh means this session is over: keep the record and edits, ask for a new sign-in.
    private func refreshFailed(_ error: JumpError, generation: UInt64, flight: RefreshFlight) -> JumpError {
        let httpStatus = error.detail["server"]?["http_status"]?.intValue ?? 0
        let capturedCode = error.detail["server"]?["code"]?.intValue
        let terminal = capturedCode != nil && httpStatus < 500 && httpStatus != 429 && capturedCode != 500 && capturedCode != 510
        let uuid = state.withLock { s -> String?? in
            // Only this flight: a session begun since may have one of its own running.
            if s.refresh === flight { s.refresh = nil }
            guard terminal, s.generation == generation, var session = s.session else { return .none }
            session.reauthenticationRequired = true
            session.pendingRefresh = nil
            s.setSession(session)
            persist(&s)
            return .some(session.record.uuid)
        }
        guard terminal else { return error }
        if case .some(let expiredUUID) = uuid {
            emit(.sessionExpired(uuid: expiredUUID, reason: error.message))
        }
        return JumpError(.expired, "the session can no longer be refreshed (\(error.message)): sign in again", detail: error.detail)
    }
}
