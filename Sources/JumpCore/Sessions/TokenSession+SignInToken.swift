import JumpRuntime

/// The sign-in-token scheme (docs/protocol.md §12): a backend-issued token exchanged for an access + refresh
/// session, refreshed transparently; API-key mode; the status flags. The reference SDKs' defects (§12.10)
/// are avoided on purpose; each place says which.
extension TokenSession {
    // MARK: - Restore and save

    /// Reads the saved credential. Unreadable: JUMP_E_STORAGE, status from the gist, nothing deleted.
    public func restoreCredential() throws(JumpError) {
        do {
            let saved = try credentialStore.load().map { bytes throws(JumpError) in try TokenStateCodec.decode(bytes) }
            // Secrets from the moment they are read back, as when they arrived: a server may quote them.
            if case .token(let grant)? = saved?.credential {
                SecretScrubber.remember(grant.accessToken)
                SecretScrubber.remember(grant.refreshToken)
            }
            state.withLock { s in
                s.tokens = saved ?? TokenState()
                s.tokenGeneration &+= 1
                s.credentialRestoreError = nil
                s.gistStatus = nil
            }
        } catch {
            let gist = (try? gistStore.load()).flatMap { $0.flatMap(TokenStateCodec.decodeGist) }
            state.withLock { s in
                s.credentialRestoreError = error
                s.gistStatus = gist
            }
            throw error
        }
    }

    /// Saves the credential and its gist (or erases both when there is no credential and no external id).
    func persistCredential(_ s: inout TokenSessionState) {
        state.whileSaving(&s) { s in saveCredential(&s) }
    }

    private func saveCredential(_ s: inout TokenSessionState) {
        do {
            if s.tokens == TokenState() {
                try credentialStore.erase()
                try gistStore.erase()
                s.savedGist = nil
            } else {
                try credentialStore.save(TokenStateCodec.encode(s.tokens))
                // A refresh changes only secrets: the gist is written when it says something new.
                let gist = TokenStateCodec.gist(s.tokens)
                if gist != s.savedGist {
                    try gistStore.save(gist)
                    s.savedGist = gist
                }
            }
            s.storageError = nil
        } catch {
            s.storageError = error
            Log.warning("the credential could not be saved: \(error.message)")
        }
    }

    /// The credential, or why there is none (an unreadable store is never "signed out": §12.8).
    func requireTokens(_ s: TokenSessionState) throws(JumpError) -> TokenState {
        if let error = s.credentialRestoreError {
            throw JumpError(.storage, "the saved credential could not be read (\(error.message)); retry the "
                            + "restore", detail: error.detail)
        }
        return s.tokens
    }

    // MARK: - Status

    /// The status flags; from the gist when the saved credential could not be read (with restoreError).
    /// Never waits for a save (SessionStateLock.answer).
    public func status() -> TokenStatusReport {
        state.answer { s in
            TokenStatusReport(status: (s.credentialRestoreError != nil ? s.gistStatus : nil) ?? TokenStatus(s.tokens),
                              restoreError: s.credentialRestoreError)
        }
    }

    // MARK: - Sign-in with a sign-in token

    /// Exchanges a sign-in token for a session (§12.3). The same user already signed in: nothing to do (unless
    /// re-authentication is pending). An API-key session of the same user, environment and region migrates in
    /// place; any other signed-in user is JUMP_E_ALREADY_SIGNED_IN naming what differs (§12.6, §12.10 item 6).
    @discardableResult
    public func signIn(signInToken raw: String, cancellation: Cancellation? = nil) throws(JumpError) -> TokenSignIn {
        let token = try SignInToken(raw)
        return try credentialGate.withLock { _ throws(JumpError) -> TokenSignIn in
            try signInLocked(token, cancellation: cancellation)
        }
    }

    func signInLocked(_ token: SignInToken, cancellation: Cancellation?) throws(JumpError) -> TokenSignIn {
        enum Plan { case nothing, exchange(migrating: Bool) }
        let (plan, generation) = try state.withLock { s throws(JumpError) -> (Plan, UInt64) in
            let tokens = try requireTokens(s)
            switch tokens.credential {
            case nil:
                return (.exchange(migrating: false), s.tokenGeneration)
            case .token(let current)?:
                if let mismatch = TokenSession.mismatch(current.userID, current.environment, token) {
                    throw TokenSession.alreadySignedIn(current.userID, mismatch, token)
                }
                return (current.pendingReauthentication ? .exchange(migrating: false) : .nothing, s.tokenGeneration)
            case .apiKey(let key)?:
                guard let user = key.userID else { return (.exchange(migrating: true), s.tokenGeneration) }
                if let mismatch = TokenSession.mismatch(user, key.environment, token) {
                    throw TokenSession.alreadySignedIn(user, mismatch, token)
                }
                return (.exchange(migrating: true), s.tokenGeneration)
            }
        }
        guard case .exchange(let migrating) = plan else {
            return TokenSignIn(userID: token.userID, changed: false, migrated: false)
        }
        var form = FormParameters()
        form.add("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")
        form.add("subject_token_type", "urn:junction:sign-in-token")
        form.add("subject_token", token.jwt)
        let answer = try tokenEndpoint(form, environment: token.environment, cancellation: cancellation)
        let session = try TokenSession.session(from: answer, user: token.userID, team: token.teamID,
                                             environment: token.environment)
        let status = try state.withLock { s throws(JumpError) -> TokenStatus in
            guard s.tokenGeneration == generation else {
                throw JumpError(.notSignedIn, "the credential changed while the sign-in token was being exchanged")
            }
            s.tokens.credential = .token(session)
            s.tokenGeneration &+= 1
            s.tokenRefresh = nil
            persistCredential(&s)
            return TokenStatus(s.tokens)
        }
        emit(.statusChanged(status))
        return TokenSignIn(userID: token.userID, changed: true, migrated: migrating)
    }

    /// Which of user id, environment, region differs (nil: the same user).
    static func mismatch(_ user: String, _ environment: TokenEnvironment, _ token: SignInToken) -> String? {
        if !TokenState.sameUser(user, token.userID) { return "user_id" }
        if environment.name != token.environment.name { return "environment" }
        if environment.region != token.environment.region { return "region" }
        return nil
    }

    static func alreadySignedIn(_ user: String, _ field: String, _ token: SignInToken) -> JumpError {
        JumpError(.alreadySignedIn, "another sign-in is active (its \(field) differs from the sign-in token's): "
                  + "sign out first, or identify the external user",
                  detail: ["mismatch": .string(field), "current_user_id": .string(user),
                           "requested_user_id": .string(token.userID)])
    }

    /// A /v1/token answer -> the session (§12.3; expires_in as number or string).
    static func session(from answer: JSON, user: String, team: String?, environment: TokenEnvironment) throws(JumpError) -> TokenGrant {
        guard let access = answer["access_token"]?.stringValue, !access.isEmpty,
              let refresh = answer["refresh_token"]?.stringValue, !refresh.isEmpty else {
            throw JumpError(.server, "the token endpoint's answer has no access_token and refresh_token")
        }
        // Secrets from the moment they arrive: an error text may quote one before libjump ever sends it.
        SecretScrubber.remember(access)
        SecretScrubber.remember(refresh)
        let lifetime: JSON? = answer["expires_in"]?.stringValue.flatMap { Int64($0) }.map(JSON.int) ?? answer["expires_in"]
        return TokenGrant(userID: user, teamID: team, environment: environment, accessToken: access,
                            refreshToken: refresh, expiresAt: expiryTime(fromExpiresIn: lifetime),
                            pendingReauthentication: false)
    }

    // MARK: - API-key mode

    /// API-key mode (§12.8 "configured" / "signed_in + use_api_key"). A different signed-in user is
    /// JUMP_E_ALREADY_SIGNED_IN: sign out first (nothing is switched silently).
    public func useAPIKey(_ key: String, userID: String?, environment: TokenEnvironment) throws(JumpError) {
        guard !key.isEmpty else { throw .invalidArgument("the API key is empty", argument: "api_key") }
        try credentialGate.withLock { _ throws(JumpError) in try useAPIKeyLocked(key, userID: userID, environment: environment) }
    }

    func useAPIKeyLocked(_ key: String, userID: String?, environment: TokenEnvironment) throws(JumpError) {
        let status = try state.withLock { s throws(JumpError) -> TokenStatus in
            let current = try requireTokens(s).credential
            if let user = current?.userID, let userID, !TokenState.sameUser(user, userID) {
                throw JumpError(.alreadySignedIn, "user \(user) is signed in: sign out before acting for \(userID)",
                                detail: ["mismatch": "user_id", "current_user_id": .string(user),
                                         "requested_user_id": .string(userID)])
            }
            s.tokens.credential = .apiKey(APIKeySession(apiKey: key, userID: userID, environment: environment))
            s.tokenGeneration &+= 1
            s.tokenRefresh = nil
            persistCredential(&s)
            return TokenStatus(s.tokens)
        }
        emit(.statusChanged(status))
    }

    // MARK: - Access token and refresh

    /// The sign-in-token session's access token, refreshed first when it expires within the margin (§12.10
    /// item 7: refresh before expiry, not after).
    public func tokenAccessToken(cancellation: Cancellation? = nil) throws(JumpError) -> String {
        let session = try state.answer { s throws(JumpError) -> TokenGrant in
            guard case .token(let t)? = try requireTokens(s).credential else {
                throw JumpError(.notSignedIn, "no sign-in-token session (sign in with a sign-in token first)")
            }
            return t
        }
        let now = Clock.now()
        guard let expiresAt = session.expiresAt, now >= expiresAt - settings.refreshMarginSeconds else {
            return session.accessToken
        }
        if session.pendingReauthentication {
            if now < expiresAt { return session.accessToken }
            throw JumpError(.expired, "re-authentication is required: sign in again with a sign-in token for this user",
                            detail: ["error_type": "reauthentication_required"])
        }
        do {
            return try refreshTokenSession(replacing: session.refreshToken)
        } catch where error.status != .expired && error.status != .notSignedIn && now < expiresAt {
            return session.accessToken  // refreshing early failed for a passing reason; the token still works
        }
    }

    /// Single flight keyed by the refresh token being replaced; every waiter gets the outcome (§12.4: unlike
    /// iOS, waiters do not start refreshes of their own after a failure, but for the leader's own deadline:
    /// RefreshFlight.run).
    @discardableResult
    public func refreshTokenSession(replacing refreshToken: String? = nil) throws(JumpError) -> String {
        typealias Lead = (TokenGrant, UInt64, RefreshFlight)
        // Decided under the session's lock; again when the flight this caller waited for ended at its leader's deadline.
        let decide = { [self] () throws(JumpError) -> RefreshFlight.Step<Lead> in
            try state.withLock { s throws(JumpError) -> RefreshFlight.Step<Lead> in
                guard case .token(let t)? = try requireTokens(s).credential else {
                    throw JumpError(.notSignedIn, "no sign-in-token session to refresh")
                }
                if let refreshToken, t.refreshToken != refreshToken { return .done(t.accessToken) }
                if t.pendingReauthentication {
                    throw JumpError(.expired, "re-authentication is required: sign in again with a sign-in token for this user",
                                    detail: ["error_type": "reauthentication_required"])
                }
                if let flight = s.tokenRefresh, !flight.isAbandoned { return .wait(flight) }
                let flight = RefreshFlight()
                s.tokenRefresh = flight
                return .lead(flight, (t, s.tokenGeneration, flight))
            }
        }
        return try RefreshFlight.run(decide, waitMilliseconds: RefreshFlight.leaderBoundMs(requestTimeoutMs: settings.requestTimeoutMs)) { lead in performTokenRefresh(lead.0, generation: lead.1, flight: lead.2) }
    }

    /// The flight's marker is cleared only while it is still this flight's: a refresh that ends after a sign-out
    /// and a new sign-in must not clear the new session's refresh in flight, or a third caller would send the
    /// same refresh token again, which the server takes for reuse (and revokes the whole family).
    private func performTokenRefresh(_ session: TokenGrant, generation: UInt64, flight: RefreshFlight) -> Result<String, JumpError> {
        var form = FormParameters()
        form.add("grant_type", "refresh_token")
        form.add("refresh_token", session.refreshToken)
        let answer: JSON
        do {
            // Shared by every waiter, so no single caller's cancellation stops it.
            answer = try tokenEndpoint(form, environment: session.environment, cancellation: nil)
        } catch {
            return .failure(tokenRefreshFailed(error, generation: generation, flight: flight))
        }
        let fresh: TokenGrant
        do {
            fresh = try TokenSession.session(from: answer, user: session.userID, team: session.teamID,
                                           environment: session.environment)
        } catch {
            state.withLock { s in if s.tokenRefresh === flight { s.tokenRefresh = nil } }
            return .failure(error)
        }
        let applied = state.withLock { s -> Bool in
            if s.tokenRefresh === flight { s.tokenRefresh = nil }
            // A refresh that finishes after sign-out or another sign-in is dropped (session generation).
            guard s.tokenGeneration == generation, case .token? = s.tokens.credential else { return false }
            s.tokens.credential = .token(fresh)
            persistCredential(&s)
            return true
        }
        guard applied else {
            return .failure(JumpError(.notSignedIn, "the session ended while its access token was being refreshed"))
        }
        emit(.tokenRefreshed(uuid: session.userID))
        return .success(fresh.accessToken)
    }

    /// invalid_token: the user is gone, so everything is signed out (§12.10 item 2: a full reset on every
    /// platform). reauthentication_required: the session is kept, pending. Anything else changes nothing.
    private func tokenRefreshFailed(_ error: JumpError, generation: UInt64, flight: RefreshFlight) -> JumpError {
        let type = error.detail["error_type"]?.stringValue
        let current = state.withLock { s -> Bool in
            if s.tokenRefresh === flight { s.tokenRefresh = nil }
            return s.tokenGeneration == generation
        }
        // Signed out (or another sign-in) meanwhile: whatever the server said is about a session that is gone.
        guard current else {
            return JumpError(.notSignedIn, "the session ended while its access token was being refreshed")
        }
        switch type {
        case "invalid_token":
            let user = state.withLock { s -> String?? in
                guard s.tokenGeneration == generation else { return .none }
                return .some(s.tokens.credential?.userID)
            }
            guard case .some(let userID) = user else { return error }
            signOutEverything()
            emit(.userInvalidated(userID: userID))
            return JumpError(.notSignedIn, "the user no longer exists or was disabled: everything was signed out",
                             detail: error.detail.merging(["user_invalidated": true]) { a, _ in a })
        case "reauthentication_required":
            let status = state.withLock { s -> TokenStatus? in
                guard s.tokenGeneration == generation, case .token(var t)? = s.tokens.credential else { return nil }
                t.pendingReauthentication = true
                s.tokens.credential = .token(t)
                persistCredential(&s)
                return TokenStatus(s.tokens)
            }
            if let status { emit(.statusChanged(status)) }
            return JumpError(.expired, "the refresh token was refused: sign in again with a sign-in token for this user",
                             detail: error.detail)
        default:
            return error
        }
    }

    // MARK: - The token endpoint

    func authBase(for environment: TokenEnvironment) -> String {
        settings.authBaseOverride?.base ?? environment.authBase
    }

    func apiBase(for environment: TokenEnvironment) -> String {
        settings.apiBaseOverride?.base ?? environment.apiBase
    }

    /// POST {auth}/v1/token (form in, JSON out). 4xx {"detail":{"error_type":..}} keeps error_type in the detail.
    func tokenEndpoint(_ form: FormParameters, environment: TokenEnvironment, cancellation: Cancellation?) throws(JumpError) -> JSON {
        let request = HTTPRequest(method: "POST", url: authBase(for: environment) + "/v1/token",
                                  headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                                  body: Array(form.encoded.utf8))
        let response = try transport.send(request, cancellation: cancellation)
        let body = try? Jansson.parse(response.body, what: "the token endpoint's answer")
        if (200..<300).contains(response.status), let body, case .object = body { return body }
        let type = body?["detail"]?["error_type"]?.stringValue
        var detail: [String: JSON] = ["http_status": .int(Int64(response.status))]
        if let type { detail["error_type"] = .string(type) }
        if let message = body?["detail"]?["message"]?.stringValue { detail["server_message"] = .string(message) }
        switch (response.status, type) {
        case (400..<500, "invalid_token"?):
            throw JumpError(.badCredentials, "the token endpoint refused the token (invalid_token)", detail: detail)
        case (400..<500, "reauthentication_required"?):
            throw JumpError(.expired, "the token endpoint asks for re-authentication", detail: detail)
        case (400..<500, _):
            throw JumpError(.server, "POST \(request.redactedURL) answered HTTP \(response.status)\(type.map { " (\($0))" } ?? "")",
                            detail: detail)
        default:
            throw JumpError(.server, "POST \(request.redactedURL) answered HTTP \(response.status)", detail: detail)
        }
    }

    /// Best effort (§12.10 item 10: the reference SDKs never revoke): tells the server the refresh token is dead.
    func revokeRefreshToken(_ session: TokenGrant) {
        var form = FormParameters()
        form.add("token", session.refreshToken)
        form.add("token_type_hint", "refresh_token")
        let request = HTTPRequest(method: "POST", url: authBase(for: session.environment) + "/v1/revoke",
                                  headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                  body: Array(form.encoded.utf8))
        do { _ = try transport.send(request, cancellation: nil) } catch {
            Log.info("the refresh token could not be revoked on sign-out: \(error.message)")
        }
    }
}
