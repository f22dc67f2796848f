import JumpRuntime

/// One app installation's client: a thin front over one owner per credential
/// (docs/conventions.md#one-owner-per-credential). The Capture session, the sign-in-token session and the
/// Engage side each own their state, their entries on storage, their generation and their refresh flight;
/// the client chooses which credential a request carries, signs out of all of them at once, and delivers
/// their events. Thread-safe.
public final class JumpClient: Sendable {
    public typealias EventHandler = @Sendable (ClientEvent) -> Void

    public let config: JumpConfig
    /// In parts (ClientSettings): each session is given its own.
    let settings: ClientSettings
    let transport: any Transport
    let events = EventSink()
    /// The Capture sessions of the saved accounts (one unless `accounts` is "multiple").
    let accounts: CaptureAccounts
    /// The active account's Capture session: where the client's Capture calls go. With several accounts a
    /// switch makes it another session: a call that uses it more than once reads it once and keeps it, so
    /// that all its steps (a request and its replay, a link and its completion) stay in one account.
    public var capture: CaptureSession { accounts.active }
    public let tokens: TokenSession
    public let engage: EngageSession
    /// A token captured from a web login (memory only).
    let webLogin = Lock<WebLogin?>(nil)
    /// Owned by the client alone, so it lives exactly as long (see init).
    private let signOutAll: SignOutAll

    /// Restores the saved sessions if there are; an unreadable one is remembered, not deleted.
    /// `storage` gives the store for an entry key (the host's keychain, say); without it, files in
    /// storageDirectory are used.
    public init(config: JumpConfig, transport: (any Transport)? = nil,
                storage: (@Sendable (String) -> any SessionStore)? = nil) throws(JumpError) {
        self.config = config
        settings = try ClientSettings(config)
        let wire = settings.transport
        if let emulator = wire.emulator { Log.warning(emulator.warning) }
        // Every request, whatever transport carries it, learns its server's clock and is retried where safe.
        let retrying = RetryingTransport(
            transport ?? CurlTransport(connectTimeoutMs: wire.connectTimeoutMs, requestTimeoutMs: wire.requestTimeoutMs,
                                       maxResponseBytes: wire.maxResponseBytes, userAgent: wire.userAgent,
                                       network: wire.network),
            maxRetries: wire.network.maxRetries, requestTimeoutMs: wire.requestTimeoutMs)
        let transport: any Transport = retrying
        self.transport = transport
        let storage = try ClientStorage(settings: settings.storage, host: storage)
        let (captureSettings, engageSettings, events, clock) = (settings.capture, settings.engage, events, retrying.clock)
        accounts = try CaptureAccounts(
            multiple: settings.multipleAccounts,
            index: AccountIndexStore(entry: storage.entry(captureSettings.accountIndexFileName),
                                     lockTimeoutMs: captureSettings.requestTimeoutMs),
            lockTimeoutMs: captureSettings.requestTimeoutMs, events: events
        ) { slot throws(JumpError) in
            try CaptureSession(settings: captureSettings.forAccount(slot), engage: engageSettings, transport: transport,
                               storage: storage, events: events, clock: clock)
        }
        tokens = TokenSession(settings: settings.tokens, transport: transport, storage: storage, events: events)
        engage = EngageSession(settings: settings.engage, socialFileName: settings.capture.socialFileName,
                               transport: transport, storage: storage)
        let signOutAll = SignOutAll(accounts: accounts, tokens: tokens, engage: engage, events: events)
        self.signOutAll = signOutAll
        // Weak, so the client is not kept alive by its own token session; and to the sign-out object, not to
        // the client: a weak reference gives its target a refcount side table, which makes every retain and
        // release of it take the runtime's slow path, and the client is retained on every C call.
        tokens.onUserInvalidated { [weak signOutAll] in _ = try? signOutAll?.run() }
    }

    public func setEventHandler(_ handler: EventHandler?) { events.set(handler) }

    /// Runs one call of the app's (a C entry point's work) within operationTimeoutMs, when set: every wait
    /// inside it draws on that deadline (CallDeadline).
    public func call<Result>(_ body: () throws(JumpError) -> Result) throws(JumpError) -> Result {
        try call(until: deadlineOfCallMadeNow(), body)
    }

    /// The deadline of a call the host makes now (nil without operationTimeoutMs): an `_async` call takes it
    /// on the host's thread and runs within it on a fiber (`call(until:)`), its time in the queue counted.
    public func deadlineOfCallMadeNow() -> Int64? { CallDeadline.from(now: settings.operationTimeoutMs) }

    public func call<Result>(until deadline: Int64?, _ body: () throws(JumpError) -> Result) throws(JumpError) -> Result {
        try CallDeadline.within(until: deadline, body)
    }

    func emit(_ event: ClientEvent) { events.emit(event) }

    // MARK: - State

    public var isSignedIn: Bool { capture.isSignedIn }

    /// The Capture session's state, with the credential's storage error when the session has none.
    public func state() -> CaptureSessionState {
        var state = capture.report()
        if state.storageError == nil { state.storageError = tokens.lastStorageError }
        return state
    }

    /// Reads the saved Capture session and credential again.
    public func restoreAll() throws(JumpError) {
        var failure: JumpError?
        do throws(JumpError) { try accounts.restoreAll() } catch { failure = error }
        do throws(JumpError) { try tokens.restoreCredential() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    // MARK: - Sign-out

    /// Local-first sign-out of everything: the Capture session, the sign-in-token or API-key credential, its
    /// gist, the identified external user and the sharing tokens are gone from memory at once, then erased
    /// from storage; then, best effort, the refresh token is revoked on the server.
    public func signOut() throws(JumpError) { try signOutAll.run() }

    // MARK: - Sharing

    /// Publishes to each provider with the sharing token of its browser sign-in, when that identity is the
    /// signed-in user's (see EngageSession.share).
    public func share(activity: JSON, providers: JSON, cancellation: Cancellation? = nil) throws(JumpError) -> JSON {
        let identities = settings.capture.base == nil ? nil : capture.confirmedIdentifiers()
        return try engage.share(activity: activity, providers: providers, identities: identities, cancellation: cancellation)
    }
}

/// JumpClient.signOut, on the client's parts rather than the client (see JumpClient.init).
final class SignOutAll: Sendable {
    let accounts: CaptureAccounts
    let tokens: TokenSession
    let engage: EngageSession
    let events: EventSink

    init(accounts: CaptureAccounts, tokens: TokenSession, engage: EngageSession, events: EventSink) {
        self.accounts = accounts
        self.tokens = tokens
        self.engage = engage
        self.events = events
    }

    func run() throws(JumpError) {
        var failure: JumpError?
        var uuid: String?
        var hadTokens = false
        var revocable: TokenGrant?
        do throws(JumpError) {
            let capture = accounts.active
            uuid = try capture.signOut()
            try accounts.forgetSignedOut(capture)
        } catch { failure = error }
        do throws(JumpError) { (hadTokens, revocable) = try tokens.signOut() } catch { failure = failure ?? error }
        do throws(JumpError) { try engage.signOut() } catch { failure = failure ?? error }
        if let failure { throw failure }
        events.emit(.signedOut(uuid: uuid))
        if hadTokens { events.emit(.statusChanged(TokenStatus(TokenState()))) }
        if let revocable { tokens.revokeRefreshToken(revocable) }
    }
}
