import JumpRuntime

/// The sign-in-token side of a client (docs/protocol.md §12): a backend-issued token exchanged for an access +
/// refresh session, or an API key; the status flags and the identified external user. It owns its
/// credential and the secret-free gist on storage, its generation and its refresh flight.
public final class TokenSession: Sendable {
    let settings: SignInTokenSettings
    let transport: any Transport
    let events: EventSink
    /// The credential (secrets) and its secret-free gist.
    let credentialStore: any SessionStore
    let gistStore: any SessionStore
    /// Saves happen under it: its waiters park, and the host's questions never wait for it.
    let state = SessionStateLock(TokenSessionState())
    /// Credential changes (sign-in with a token, API key, identify) happen one at a time.
    let credentialGate: Gate
    /// What the server saying "this user is gone" signs out: the whole client (set by it).
    private let everything = Lock<ClosureBox<@Sendable () -> Void>?>(nil)

    init(settings: SignInTokenSettings, transport: any Transport, storage: ClientStorage, events: EventSink) {
        self.settings = settings
        credentialGate = Gate(waitMilliseconds: settings.requestTimeoutMs, purpose: "the credential change in progress")
        self.transport = transport
        self.events = events
        credentialStore = storage.secretEntry(settings.credentialFileName)
        gistStore = storage.entry(settings.gistFileName)
        _ = try? restoreCredential()
    }

    func emit(_ event: ClientEvent) { events.emit(event) }

    func onUserInvalidated(_ signOut: @escaping @Sendable () -> Void) { everything.withLock { $0 = ClosureBox(signOut) } }

    func signOutEverything() { everything.withLock { $0 }?.function() }

    /// Whether a credential is held, or one could not be read.
    var holdsCredential: Bool { state.answer { $0.tokens.credential != nil || $0.credentialRestoreError != nil } }

    /// Forgets the credential in memory at once, then erases it and its gist from storage. Returns whether
    /// there was anything, and the refresh token to revoke.
    func signOut() throws(JumpError) -> (hadTokens: Bool, revocable: TokenGrant?) {
        // Forgotten and erased under one lock: a credential saved meanwhile must not be erased behind it.
        try state.withLock { s throws(JumpError) -> (Bool, TokenGrant?) in
            let hadTokens = s.tokens != TokenState() || s.credentialRestoreError != nil
            var revocable: TokenGrant?
            if case .token(let t)? = s.tokens.credential { revocable = t }
            s.tokens = TokenState()
            s.tokenGeneration &+= 1
            s.tokenRefresh = nil
            s.credentialRestoreError = nil
            s.gistStatus = nil
            s.savedGist = nil
            do throws(JumpError) {
                // The gist first: a sign-out cut short must not leave a gist speaking for a credential gone.
                try state.whileSaving(&s) { _ throws(JumpError) in
                    try gistStore.erase()
                    try credentialStore.erase()
                }
            } catch {
                s.storageError = error
                throw error
            }
            s.storageError = nil
            return (hadTokens, revocable)
        }
    }
}

struct TokenSessionState: Sendable {
    var tokens = TokenState()
    /// Bumped whenever the credential is replaced or removed: a refresh begun before is discarded.
    var tokenGeneration: UInt64 = 0
    var tokenRefresh: RefreshFlight?
    /// The saved credential could not be read: status comes from the gist, nothing is deleted.
    var credentialRestoreError: JumpError?
    var gistStatus: TokenStatus?
    /// The gist last written (so an unchanged one is not written again).
    var savedGist: [UInt8]?
    /// The last save or erase of the credential failed.
    var storageError: JumpError?
}

/// jump_client_status: the flags, and why they come from the gist when the credential could not be read.
public struct TokenStatusReport: Sendable {
    public var status: TokenStatus
    public var restoreError: JumpError?
}

/// The outcome of a sign-in with a sign-in token.
public struct TokenSignIn: Sendable, Equatable {
    public let userID: String
    /// false: that user was already signed in, nothing was exchanged.
    public let changed: Bool
    /// An API-key session of the same user was turned into a sign-in-token session.
    public let migrated: Bool
}
