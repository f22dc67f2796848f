/// Social sign-in (protocol.md 2.4-2.7, 3.3.1, 9.1): a browser sign-in begun here and completed with the URL
/// the browser ended on (RFC 8252), or a provider SDK's token; then Capture's auth_native, account linking,
/// or, for Engage-only apps, the auth_info result and the app's token URL.
extension JumpClient {
    public struct SocialBegin: Sendable {
        public let url: String
        public let state: String
        public let completion: String
        public let completionPrefix: String
        public var json: JSON {
            ["url": .string(url), "state": .string(state), "completion": .string(completion),
             "completion_prefix": .string(completionPrefix)]
        }
    }

    /// Builds the provider start URL and remembers the sign-in until its completion URL comes back.
    public func beginSocialSignIn(provider name: String, options: JSON = .null,
                                  cancellation: Cancellation? = nil) throws(JumpError) -> SocialBegin {
        let options = try SocialOptions(options)
        var linkGeneration: UInt64?
        if case .link = options.purpose {
            linkGeneration = try state.withLock { s throws(JumpError) in
                _ = try requireSession(s)
                return s.generation
            }
        }
        let config = try engageConfig(cancellation: cancellation)
        let provider = try engageProvider(name, in: config)
        var redirectURI = try options.redirectURI.map { s throws(JumpError) in try EngageSettings.checkedURL(s, key: "redirect_uri") }
        if redirectURI == nil && engage.responseType == "token" {
            guard let whitelisted = engage.whitelistedDomain else {
                throw .invalidArgument("engageResponseType \"token\" needs engageWhitelistedDomain (or the redirect_uri option)",
                                       argument: "engageWhitelistedDomain")
            }
            redirectURI = whitelisted
        }
        let stateToken = Secrets.refreshSecret()
        let start = try SignInStart(config: config, provider: provider, appID: engage.appID, input: options.input,
                                    forceReauth: options.forceReauth, redirectURI: redirectURI, state: stateToken,
                                    installationID: CaptureSettings.fnv1a("installation:" + settings.installationName))
        let pending = PendingSignIn(state: stateToken, provider: provider.name, purpose: options.purpose,
                                    completion: redirectURI == nil ? .device : .redirect,
                                    location: start.completionLocation, created: Clock.now(), sessionGeneration: linkGeneration)
        state.withLock { s in
            let now = Clock.now()
            s.pendingSignIns = s.pendingSignIns.filter { now - $0.value.created < PendingSignIn.lifetimeSeconds }
            while s.pendingSignIns.count >= PendingSignIn.maximumPending,
                  let oldest = s.pendingSignIns.min(by: { $0.value.created < $1.value.created }) {
                s.pendingSignIns[oldest.key] = nil
            }
            s.pendingSignIns[stateToken] = pending
        }
        return SocialBegin(url: start.url, state: stateToken, completion: pending.completion.rawValue,
                           completionPrefix: start.completionLocation)
    }

    /// Completes a begun sign-in with the URL the browser ended on. A URL that is not the completion of a
    /// pending sign-in of this client changes nothing.
    public func completeSocialSignIn(url: String, cancellation: Cancellation? = nil) throws(JumpError) -> JSON {
        let pending = try takePendingSignIn(for: url)
        let parameters = QueryString.parameters(of: url)
        if let error = parameters["error"] { throw EngageAPI.authenticationFailure(error) }
        let auth: EngageAuth
        switch pending.completion {
        case .device:
            auth = try engageAPI.deviceResult(url: url, provider: pending.provider, cancellation: cancellation)
        case .redirect:
            guard let token = parameters["token"], !token.isEmpty else {
                throw .invalidArgument("the completion URL carries no token", argument: "url")
            }
            auth = enriched(EngageAuth(provider: pending.provider, token: token, deviceToken: nil, profile: [:]),
                            cancellation: cancellation)
        }
        return try finishSocialSignIn(auth, purpose: pending.purpose, cancellation: cancellation)
    }

    /// Forgets a begun sign-in (its browser window was abandoned).
    func dropPendingSignIn(state stateToken: String) {
        state.withLock { _ = $0.pendingSignIns.removeValue(forKey: stateToken) }
    }

    /// The loopback sign-in for desktop and command-line hosts (RFC 8252 7.3): a listener on 127.0.0.1, the
    /// host opens the URL, the browser lands on the listener, the sign-in completes.
    public func socialSignInLoopback(provider: String, options: JSON = .null, timeoutMs: Int,
                                     openURL: (String) throws(JumpError) -> Void,
                                     cancellation: Cancellation? = nil) throws(JumpError) -> JSON {
        var members: [String: JSON] = [:]
        if !options.isNull {
            guard case .object(let given) = options else {
                throw .invalidArgument("the options must be a JSON object, not \(options.typeName)", argument: "options")
            }
            guard given["redirect_uri"] == nil else {
                throw .invalidArgument("the loopback sign-in chooses its own redirect_uri", argument: "redirect_uri")
            }
            members = given
        }
        let receiver = try LoopbackReceiver()
        defer { receiver.close() }
        members["redirect_uri"] = .string(receiver.redirectURI)
        let begun = try beginSocialSignIn(provider: provider, options: .object(members), cancellation: cancellation)
        let url: String
        do throws(JumpError) {
            try openURL(begun.url)
            url = try receiver.waitForRedirect(timeoutMs: timeoutMs > 0 ? timeoutMs : 300_000, cancellation: cancellation) {
                QueryString.parameters(of: $0)["state"] == begun.state
            }
        } catch {
            dropPendingSignIn(state: begun.state)
            throw error
        }
        return try completeSocialSignIn(url: url, cancellation: cancellation)
    }

    /// Signs in with a provider SDK's own token: /signin/oauth_token gives the Engage token (2.6).
    public func signInWithProviderToken(provider name: String, token: String, tokenSecret: String?, options: JSON = .null,
                                        cancellation: Cancellation? = nil) throws(JumpError) -> JSON {
        guard !token.isEmpty else { throw .invalidArgument("the provider token is empty", argument: "token") }
        let options = try SocialOptions(options)
        guard options.redirectURI == nil, options.input == nil else {
            throw .invalidArgument("a native sign-in takes only the 'link' and 'merge_token' options", argument: "options")
        }
        if case .link = options.purpose { _ = try state.withLock { s throws(JumpError) in try requireSession(s) } }
        let config = try engageConfig(cancellation: cancellation)
        let provider = try engageProvider(name, in: config)
        let engageToken = try engageAPI.exchangeNativeToken(config: config, provider: provider.name, token: token,
                                                            tokenSecret: tokenSecret, cancellation: cancellation)
        let auth = enriched(EngageAuth(provider: provider.name, token: engageToken, deviceToken: nil, profile: [:]),
                            cancellation: cancellation)
        return try finishSocialSignIn(auth, purpose: options.purpose, cancellation: cancellation)
    }

    /// Sets (nil: removes) the token URL of Engage-only sign-ins.
    public func setTokenURL(_ url: String?) throws(JumpError) {
        let checked = try url.map { s throws(JumpError) in try EngageSettings.checkedURL(s, key: "url") }
        state.withLock { $0.tokenURL = checked }
    }

    // MARK: - After Engage

    /// A redirect completion or a native token brings only the token; the mobile endpoint's result for it
    /// adds the profile and the device token (for sharing). Best effort: without them the sign-in still works.
    private func enriched(_ auth: EngageAuth, cancellation: Cancellation?) -> EngageAuth {
        guard let config = state.withLock({ $0.engageConfig }) else { return auth }
        let url = config.baseURL + "/signin/device?token=" + FormParameters.escape(auth.token, keepBrackets: false)
        do throws(JumpError) {
            let full = try engageAPI.deviceResult(url: url, provider: auth.provider, cancellation: cancellation)
            guard full.token == auth.token else { return auth }
            return EngageAuth(provider: auth.provider, token: auth.token, deviceToken: full.deviceToken, profile: full.profile)
        } catch {
            Log.debug("no Engage profile for this sign-in: \(error.message)")
            return auth
        }
    }

    private func takePendingSignIn(for url: String) throws(JumpError) -> PendingSignIn {
        let location = QueryString.location(of: url)
        let stateToken = QueryString.parameters(of: url)["state"]
        return try state.withLock { s throws(JumpError) -> PendingSignIn in
            let now = Clock.now()
            s.pendingSignIns = s.pendingSignIns.filter { now - $0.value.created < PendingSignIn.lifetimeSeconds }
            guard let stateToken, let pending = s.pendingSignIns[stateToken] else {
                throw JumpError(.invalidArgument, "this URL does not complete a sign-in begun by this client (no pending sign-in has its state)",
                                detail: ["argument": "url", "reason": "unknown_state"])
            }
            guard pending.location == location else {
                throw JumpError(.invalidArgument, "this URL is not where the sign-in was to end (\(pending.location))",
                                detail: ["argument": "url", "reason": "wrong_location"])
            }
            s.pendingSignIns[stateToken] = nil
            if let generation = pending.sessionGeneration, generation != s.generation || s.session == nil {
                throw JumpError(.notSignedIn, "the account link was begun for a session that has ended (another sign-in or a sign-out since)",
                                detail: ["reason": "session_changed"])
            }
            return pending
        }
    }

    func finishSocialSignIn(_ auth: EngageAuth, purpose: SocialPurpose, cancellation: Cancellation?) throws(JumpError) -> JSON {
        if let deviceToken = auth.deviceToken {
            rememberDeviceToken(provider: auth.provider, deviceToken: deviceToken, identifier: auth.profile["identifier"]?.stringValue)
        }
        switch purpose {
        case .link:
            return try linkIdentity(auth, cancellation: cancellation)
        case .signIn(let mergeToken):
            guard settings.base != nil else {
                if mergeToken != nil {
                    throw .invalidArgument("merging accounts needs Capture (captureDomain)", argument: "merge_token")
                }
                return try engageOnlyResult(auth, cancellation: cancellation)
            }
            return try captureSocialSignIn(auth, mergeToken: mergeToken, cancellation: cancellation)
        }
    }

    /// auth_native (3.3.1): signed in, thin-registered, 310 (two-step registration) or 380 (merge).
    private func captureSocialSignIn(_ auth: EngageAuth, mergeToken: String?, cancellation: Cancellation?) throws(JumpError) -> JSON {
        let flow = settings.flowURL == nil ? nil : try? self.flow(cancellation: cancellation)
        try cancellation?.check()
        let secret = Secrets.refreshSecret()
        var p = commonParameters(flow: flow)
        p.add("response_type", settings.responseType)
        p.add("redirect_uri", settings.redirectURI)
        p.add("token", auth.token)
        p.add("thin_registration", engage.thinRegistration ? "true" : "false")
        p.add("refresh_secret", secret)
        p.add("registration_form", engage.socialRegistrationForm)
        p.add("merge_token", mergeToken)
        let body: [String: JSON]
        do {
            body = try capture.post("/oauth/auth_native", p, cancellation: cancellation)
        } catch where error.status == .registrationRequired {
            throw registrationRequired(error, auth: auth, flow: flow)
        } catch where error.status == .mergeRequired {
            let existing = error.detail["existing_provider"]?.stringValue
            var detail = error.detail
            detail["merge_token"] = .string(auth.token)
            detail["existing_provider"] = .optional(existing)
            detail["conflicting_provider"] = .string(auth.provider)
            throw JumpError(.mergeRequired,
                            "the email of this \(auth.provider) identity belongs to an account that signs in with \(existing ?? "another provider"): "
                            + "sign in with that and pass merge_token to merge", detail: detail)
        }
        let result = try startSession(from: body, refreshSecret: secret, cancellation: cancellation)
        return [
            "outcome": .string(result.isNew ? "registered" : "signed_in"), "provider": .string(auth.provider),
            "is_new": .bool(result.isNew), "uuid": .optional(result.uuid),
            "authorization_code": .optional(result.authorizationCode), "merged": .bool(mergeToken != nil),
            "identifier": .optional(auth.profile["identifier"]?.stringValue),
        ]
    }

    /// 310: the Engage token becomes the social registration token, and prereg_fields (form field names)
    /// become record attributes through the flow's schemaIds, nested at dotted paths (not the SDKs' flat keys).
    private func registrationRequired(_ error: JumpError, auth: EngageAuth, flow: Flow?) -> JumpError {
        var detail = error.detail
        let fields = error.detail["prereg_fields"]?.objectValue ?? [:]
        var record: JSON = [:]
        if case .object? = error.detail["prereg_attributes"], let attributes = error.detail["prereg_attributes"] {
            record = attributes
        } else if let flow {
            record = FormMapping.record(fromFields: fields, flow: flow)
        }
        detail["social_registration_token"] = .string(auth.token)
        detail["provider"] = .string(auth.provider)
        detail["prereg_record"] = record
        detail["prereg_fields"] = .object(fields)
        return JumpError(.registrationRequired,
                         "no account has this \(auth.provider) identity: register it with jump_client_register_social "
                         + "(prereg_record holds what the provider told)", detail: detail)
    }

    /// Engage-only apps: the result goes to the app, and the token to its token URL when there is one (2.7).
    private func engageOnlyResult(_ auth: EngageAuth, cancellation: Cancellation?) throws(JumpError) -> JSON {
        var result: [String: JSON] = [
            "outcome": "authenticated", "provider": .string(auth.provider), "token": .string(auth.token),
            "device_token": .optional(auth.deviceToken), "profile": auth.profile, "token_url_response": .null,
        ]
        if let url = state.withLock({ $0.tokenURL }) {
            result["token_url_response"] = try engageAPI.postToTokenURL(url, token: auth.token, cancellation: cancellation)
        }
        return .object(result)
    }

    // MARK: - Device tokens

    /// Kept per provider with the session's other secrets, for sharing later (also after a restart).
    func rememberDeviceToken(provider: String, deviceToken: String, identifier: String?) {
        state.withLock { s in
            var tokens = s.deviceTokens ?? loadDeviceTokens()
            tokens[provider] = ["device_token": .string(deviceToken), "identifier": .optional(identifier)]
            s.deviceTokens = tokens
            do throws(JumpError) {
                try socialStore.save(Array(Jansson.serialize(["version": 1, "providers": .object(tokens)]).utf8))
            } catch {
                Log.warning("the sharing token could not be saved: \(error.message)")
            }
        }
    }

    /// The provider's sharing token, when it belongs to the signed-in user: with Capture, the identity it
    /// was issued for must be one of the record's profiles (a token left by another user, after a switch
    /// or a sign-out cut short, is never used for this one).
    func deviceToken(for provider: String) -> String? {
        state.withLock { s in
            if s.deviceTokens == nil { s.deviceTokens = loadDeviceTokens() }
            guard let saved = s.deviceTokens?[provider], let token = saved["device_token"]?.stringValue else { return nil }
            guard settings.base != nil else { return token }
            guard let identifier = saved["identifier"]?.stringValue,
                  let profiles = s.session?.record.current["profiles"]?.arrayValue,
                  profiles.contains(where: { $0["identifier"]?.stringValue == identifier }) else { return nil }
            return token
        }
    }

    private func loadDeviceTokens() -> [String: JSON] {
        guard let bytes = try? socialStore.load(), let saved = try? Jansson.parse(bytes, what: "the saved sharing tokens") else {
            return [:]
        }
        return saved["providers"]?.objectValue ?? [:]
    }
}

/// The options object of begin and native sign-in: {"input","force_reauth","link","merge_token","redirect_uri"}.
struct SocialOptions: Sendable {
    let purpose: SocialPurpose
    let input: String?
    let forceReauth: Bool
    let redirectURI: String?

    init(_ options: JSON) throws(JumpError) {
        let members: [String: JSON]
        switch options {
        case .null: members = [:]
        case .object(let given): members = given
        default: throw .invalidArgument("the options must be a JSON object, not \(options.typeName)", argument: "options")
        }
        let known: Set<String> = ["input", "force_reauth", "link", "merge_token", "redirect_uri"]
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidArgument("unknown option '\(unknown)'", argument: unknown)
        }
        func value<T>(_ name: String, _ kind: String, _ read: (JSON) -> T?) throws(JumpError) -> T? {
            guard let value = members[name], !value.isNull else { return nil }
            guard let typed = read(value) else { throw .invalidArgument("option '\(name)' must be \(kind)", argument: name) }
            return typed
        }
        input = try value("input", "a string", \.stringValue)
        redirectURI = try value("redirect_uri", "a string", \.stringValue)
        forceReauth = try value("force_reauth", "a boolean", \.boolValue) ?? false
        let mergeToken = try value("merge_token", "a string", \.stringValue).flatMap { $0.isEmpty ? nil : $0 }
        if try value("link", "a boolean", \.boolValue) == true {
            guard mergeToken == nil else {
                throw .invalidArgument("options 'link' and 'merge_token' cannot be combined", argument: "merge_token")
            }
            purpose = .link
        } else {
            purpose = .signIn(mergeToken: mergeToken)
        }
    }
}
