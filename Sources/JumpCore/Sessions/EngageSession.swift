import JumpRuntime

/// The Engage side of a client: the app's Engage configuration (cached with its ETag), the browser sign-ins
/// waiting for their completion, the token URL of Engage-only apps, and the sharing tokens of browser
/// sign-ins. It owns these and their entries on storage.
public final class EngageSession: Sendable {
    let engage: EngageSettings
    let api: EngageAPI
    let configCache: DocumentCache
    /// The device tokens of browser sign-ins (secrets: they let the app share as the user).
    let socialStore: any SessionStore
    let state = Lock<EngageState>(EngageState())

    init(settings: EngageSettings, socialFileName: String, transport: any Transport, storage: ClientStorage) {
        engage = settings
        api = EngageAPI(settings: settings, transport: transport)
        configCache = DocumentCache(storage, name: settings.configFileName, what: "Engage configuration")
        socialStore = storage.secretEntry(socialFileName)
        let tokenURL = settings.tokenURL
        state.withLock { $0.tokenURL = tokenURL }
    }

    /// Remembers a begun browser sign-in until its completion URL comes back (at most maximumPending, for
    /// at most lifetimeSeconds).
    func addPending(_ pending: PendingSignIn) {
        state.withLock { s in
            let now = Clock.now()
            s.pendingSignIns = s.pendingSignIns.filter { now - $0.value.created < PendingSignIn.lifetimeSeconds }
            if pending.completion == .device {
                // Engage's /signin/device ending carries no state, so the client can tell only one sign-in
                // pending there from another: the newest is the one the user is going through.
                s.pendingSignIns = s.pendingSignIns.filter { $0.value.completion != .device || $0.value.location != pending.location }
            }
            while s.pendingSignIns.count >= PendingSignIn.maximumPending,
                  let oldest = s.pendingSignIns.min(by: { $0.value.created < $1.value.created }) {
                s.pendingSignIns[oldest.key] = nil
            }
            s.pendingSignIns[pending.state] = pending
        }
    }

    /// The pending sign-in `url` completes, taken out (a URL completes one sign-in once). A URL that is not
    /// the completion of a pending sign-in of this client changes nothing.
    func takePending(for url: String) throws(JumpError) -> PendingSignIn {
        let location = QueryString.location(of: url)
        let stateToken = QueryString.parameters(of: url)["state"]
        return try state.withLock { s throws(JumpError) -> PendingSignIn in
            let now = Clock.now()
            s.pendingSignIns = s.pendingSignIns.filter { now - $0.value.created < PendingSignIn.lifetimeSeconds }
            guard let stateToken else {
                // Engage's /signin/device ending does not echo the state: it completes the browser sign-in of
                // this client pending there (addPending keeps one; its token is checked with Engage through
                // /signin/device).
                let device = s.pendingSignIns.values.filter { $0.completion == .device }
                guard let pending = device.first(where: { $0.location == location }) else {
                    if let elsewhere = device.first {
                        throw JumpError(.invalidArgument, "this URL is not where the sign-in was to end (\(elsewhere.location))",
                                        detail: ["argument": "url", "reason": "wrong_location"])
                    }
                    throw JumpError(.invalidArgument, "this URL does not complete a sign-in begun by this client (no state, and no "
                                    + "sign-in pending at \(location))", detail: ["argument": "url", "reason": "unknown_state"])
                }
                s.pendingSignIns[pending.state] = nil
                return pending
            }
            guard let pending = s.pendingSignIns[stateToken] else {
                throw JumpError(.invalidArgument, "this URL does not complete a sign-in begun by this client (no pending sign-in has its state)",
                                detail: ["argument": "url", "reason": "unknown_state"])
            }
            guard pending.location == location else {
                throw JumpError(.invalidArgument, "this URL is not where the sign-in was to end (\(pending.location))",
                                detail: ["argument": "url", "reason": "wrong_location"])
            }
            s.pendingSignIns[stateToken] = nil
            return pending
        }
    }

    /// Forgets a begun sign-in (its browser window was abandoned).
    func dropPending(state stateToken: String) {
        state.withLock { _ = $0.pendingSignIns.removeValue(forKey: stateToken) }
    }

    /// Sets (nil: removes) the token URL of Engage-only sign-ins.
    public func setTokenURL(_ url: String?) throws(JumpError) {
        let checked = try url.map { s throws(JumpError) in try EngageSettings.checkedURL(s, key: "url") }
        state.withLock { $0.tokenURL = checked }
    }

    /// A redirect completion or a native token brings only the token; the mobile endpoint's result for it
    /// adds the profile and the device token (for sharing). Best effort: without them the sign-in still works.
    func enriched(_ auth: EngageAuth, cancellation: Cancellation?) -> EngageAuth {
        guard let config = state.withLock({ $0.engageConfig }) else { return auth }
        let url = config.baseURL + "/signin/device?token=" + FormParameters.escape(auth.token, keepBrackets: false)
        do throws(JumpError) {
            let full = try api.deviceResult(url: url, provider: auth.provider, cancellation: cancellation)
            guard full.token == auth.token else { return auth }
            return EngageAuth(provider: auth.provider, token: auth.token, deviceToken: full.deviceToken, profile: full.profile)
        } catch {
            Log.debug("no Engage profile for this sign-in: \(error.message)")
            return auth
        }
    }

    /// Engage-only apps: the result goes to the app, and the token to its token URL when there is one
    /// (docs/protocol.md §4.7).
    func engageOnlyResult(_ auth: EngageAuth, cancellation: Cancellation?) throws(JumpError) -> SocialOutcome {
        var outcome = SocialOutcome(kind: .authenticated, provider: auth.provider)
        outcome.engageToken = auth.token
        outcome.deviceToken = auth.deviceToken
        outcome.profile = auth.profile
        if let url = state.withLock({ $0.tokenURL }) {
            outcome.tokenURLResponse = try api.postToTokenURL(url, token: auth.token, cancellation: cancellation)
        }
        return outcome
    }
}

struct EngageState: Sendable {
    /// The app configuration in use this run (nil: not loaded yet; the cached copy is read first).
    var engageConfig: EngageConfig?
    var pendingSignIns: [String: PendingSignIn] = [:]
    var tokenURL: String?
    /// The device tokens by provider, loaded from storage when first needed.
    var deviceTokens: [String: JSON]?
}
