import JumpRuntime

/// Social sign-in (docs/protocol.md §4.4-§4.7, §6.3, §11.1): a browser sign-in begun here and completed with
/// the URL the browser ended on (RFC 8252), or a provider SDK's token; then Capture's auth_native, account
/// linking, or, for Engage-only apps, the auth_info result and the app's token URL.
extension JumpClient {
    public struct SocialBegin: Sendable {
        public let url: String
        public let state: String
        public let completion: String
        public let completionPrefix: String
    }

    /// Builds the provider start URL and remembers the sign-in until its completion URL comes back.
    public func beginSocialSignIn(provider name: String, options: JSON = .null,
                                  cancellation: Cancellation? = nil) throws(JumpError) -> SocialBegin {
        let options = try SocialOptions(options)
        var linkGeneration: UInt64?
        if case .link = options.purpose {
            linkGeneration = try capture.signedInGeneration()
        }
        let config = try engage.engageConfig(cancellation: cancellation)
        let provider = try engage.engageProvider(name, in: config)
        var redirectURI = try options.redirectURI.map { s throws(JumpError) in try EngageSettings.checkedURL(s, key: "redirect_uri") }
        if redirectURI == nil && settings.engage.responseType == "token" {
            guard let whitelisted = settings.engage.whitelistedDomain else {
                throw .invalidArgument("engageResponseType \"token\" needs engageWhitelistedDomain (or the redirect_uri option)",
                                       argument: "engageWhitelistedDomain")
            }
            redirectURI = whitelisted
        }
        let stateToken = Secrets.refreshSecret()
        let start = try SignInStart(config: config, provider: provider, appID: settings.engage.appID,
                                    device: settings.engage.device, input: options.input,
                                    forceReauth: options.forceReauth, redirectURI: redirectURI, state: stateToken,
                                    installationID: CaptureSettings.fnv1a("installation:" + settings.capture.installationName))
        let pending = PendingSignIn(state: stateToken, provider: provider.name, purpose: options.purpose,
                                    completion: redirectURI == nil ? .device : .redirect,
                                    location: start.completionLocation, created: Clock.now(), sessionGeneration: linkGeneration)
        engage.addPending(pending)
        return SocialBegin(url: start.url, state: stateToken, completion: pending.completion.rawValue,
                           completionPrefix: start.completionLocation)
    }

    /// Completes a begun sign-in with the URL the browser ended on. A URL that is not the completion of a
    /// pending sign-in of this client changes nothing.
    public func completeSocialSignIn(url: String, cancellation: Cancellation? = nil) throws(JumpError) -> SocialOutcome {
        let session = capture  // read once: a switch meanwhile does not move the sign-in to another account
        let pending = try takePendingSignIn(for: url, in: session)
        let parameters = QueryString.parameters(of: url)
        if let error = parameters["error"] { throw EngageAPI.authenticationFailure(error) }
        let auth: EngageAuth
        switch pending.completion {
        case .device:
            auth = try engage.api.deviceResult(url: url, provider: pending.provider, cancellation: cancellation)
        case .redirect:
            guard let token = parameters["token"], !token.isEmpty else {
                throw .invalidArgument("the completion URL carries no token", argument: "url")
            }
            auth = engage.enriched(EngageAuth(provider: pending.provider, token: token, deviceToken: nil, profile: [:]),
                            cancellation: cancellation)
        }
        return try finishSocialSignIn(auth, purpose: pending.purpose, in: session, cancellation: cancellation)
    }

    /// The loopback sign-in for desktop and command-line hosts (RFC 8252 7.3): a listener on 127.0.0.1, the
    /// host opens the URL, the browser lands on the listener, the sign-in completes.
    public func socialSignInLoopback(provider: String, options: JSON = .null, timeoutMs: Int,
                                     openURL: (String) throws(JumpError) -> Void,
                                     cancellation: Cancellation? = nil) throws(JumpError) -> SocialOutcome {
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
        // The listener serves, and the sign-in completes, while open_url runs: a host's open_url may block
        // until the browser is closed (console browsers, webbrowser.open with some $BROWSER), and the
        // timeout counts from when the listener serves.
        // The background half's result, handed to the thread that runs open_url.
        let finished = OneShot<Result<SocialOutcome, JumpError>>()
        WorkerThread.start { [self] in
            finished.set(Result { () throws(JumpError) -> SocialOutcome in
                let url = try receiver.waitForRedirect(timeoutMs: timeoutMs > 0 ? timeoutMs : 300_000, cancellation: cancellation) {
                    QueryString.parameters(of: $0)["state"] == begun.state
                }
                return try completeSocialSignIn(url: url, cancellation: cancellation)
            })
        }
        do throws(JumpError) {
            try openURL(begun.url)
        } catch {
            receiver.close()  // ends the wait (unless the browser already came back: that outcome stands)
            if case .success(let outcome)? = finished.wait() { return outcome }
            engage.dropPending(state: begun.state)
            throw error
        }
        switch finished.wait() ?? .failure(JumpError(.internal, "the loopback sign-in ended without an outcome")) {
        case .success(let outcome): return outcome
        case .failure(let error):
            engage.dropPending(state: begun.state)
            throw error
        }
    }

    /// Signs in with a provider SDK's own token: /signin/oauth_token gives the Engage token (§4.6).
    public func signInWithProviderToken(provider name: String, token: String, tokenSecret: String?, options: JSON = .null,
                                        cancellation: Cancellation? = nil) throws(JumpError) -> SocialOutcome {
        guard !token.isEmpty else { throw .invalidArgument("the provider token is empty", argument: "token") }
        let options = try SocialOptions(options)
        guard options.redirectURI == nil, options.input == nil else {
            throw .invalidArgument("a native sign-in takes only the 'link' and 'merge_token' options", argument: "options")
        }
        // The account it links to is the one active now: a switch meanwhile does not move the link.
        let session = capture
        if case .link = options.purpose { _ = try session.signedInGeneration() }
        let config = try engage.engageConfig(cancellation: cancellation)
        let provider = try engage.engageProvider(name, in: config)
        let engageToken = try engage.api.exchangeNativeToken(config: config, provider: provider.name, token: token,
                                                            tokenSecret: tokenSecret, cancellation: cancellation)
        let auth = engage.enriched(EngageAuth(provider: provider.name, token: engageToken, deviceToken: nil, profile: [:]),
                            cancellation: cancellation)
        return try finishSocialSignIn(auth, purpose: options.purpose, in: session, cancellation: cancellation)
    }

    /// The pending sign-in `url` completes; a link must complete in the session that began it.
    private func takePendingSignIn(for url: String, in session: CaptureSession) throws(JumpError) -> PendingSignIn {
        let pending = try engage.takePending(for: url)
        if let generation = pending.sessionGeneration, (try? session.signedInGeneration()) != generation {
            throw JumpError(.notSignedIn, "the account link was begun for a session that has ended, or in another account "
                            + "(another sign-in, a sign-out or an account switch since)",
                            detail: ["reason": "session_changed"])
        }
        return pending
    }

    func finishSocialSignIn(_ auth: EngageAuth, purpose: SocialPurpose, in session: CaptureSession,
                            cancellation: Cancellation?) throws(JumpError) -> SocialOutcome {
        if let deviceToken = auth.deviceToken {
            engage.rememberDeviceToken(provider: auth.provider, deviceToken: deviceToken, identifier: auth.profile["identifier"]?.stringValue)
        }
        switch purpose {
        case .link:
            return try session.linkIdentity(auth, cancellation: cancellation)
        case .signIn(let mergeToken):
            guard settings.capture.base != nil else {
                if mergeToken != nil {
                    throw .invalidArgument("merging accounts needs Capture (captureDomain)", argument: "merge_token")
                }
                return try engage.engageOnlyResult(auth, cancellation: cancellation)
            }
            return try session.socialSignIn(auth, mergeToken: mergeToken, cancellation: cancellation)
        }
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
