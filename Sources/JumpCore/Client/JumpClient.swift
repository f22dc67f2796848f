import Synchronization

/// One app installation's session with Capture. Thread-safe: state changes happen under one lock, network
/// calls happen outside it, and results are applied only if the session they belong to still exists.
public final class JumpClient: Sendable {
    public typealias EventHandler = @Sendable (ClientEvent) -> Void

    public let config: JumpConfig
    let settings: CaptureSettings
    let capture: CaptureAPI
    let transport: any Transport
    let store: any SessionStore
    let flowStore: (any SessionStore)?
    /// The record edits made since the session was last saved whole (see RecordJournal).
    let journalStore: any SessionStore
    let schemaStore: (any SessionStore)?
    /// The sign-in-token / API-key credential (secrets) and its secret-free gist.
    let credentialStore: any SessionStore
    let gistStore: any SessionStore
    /// Engage: its settings, the cached app configuration and the device tokens of browser sign-ins.
    let engage: EngageSettings
    let engageAPI: EngageAPI
    let engageConfigStore: (any SessionStore)?
    let socialStore: any SessionStore
    /// Sessions set aside (unreadable, or another user's with unsynced edits): the index and its entries.
    let quarantineStore: any SessionStore
    let makeStore: @Sendable (String) -> any SessionStore
    /// Credential changes (sign-in with a token, API key, identify) happen one at a time.
    let credentialGate = Mutex<Void>(())
    let state = Mutex<ClientState>(ClientState())
    /// Syncs run one at a time, so two never send the same change.
    let syncGate = Mutex<Void>(())
    let flowGate = Mutex<Void>(())
    private let eventHandler = Mutex<EventHandler?>(nil)

    /// Restores the saved session if there is one; an unreadable one is remembered, not deleted.
    /// `storage` gives the store for an entry key (the host's keychain, say); without it, files in
    /// storageDirectory are used.
    public init(config: JumpConfig, transport: (any Transport)? = nil,
                storage: (@Sendable (String) -> any SessionStore)? = nil) throws(JumpError) {
        self.config = config
        settings = try CaptureSettings(config)
        self.transport = transport ?? CurlTransport(connectTimeoutMs: settings.connectTimeoutMs,
                                                    requestTimeoutMs: settings.requestTimeoutMs,
                                                    maxResponseBytes: settings.maxResponseBytes)
        capture = CaptureAPI(base: settings.base, transport: self.transport)
        engage = try EngageSettings(config)
        engageAPI = EngageAPI(settings: engage, transport: self.transport)
        if let storage {
            makeStore = storage
            store = storage(settings.sessionFileName)
            flowStore = storage(settings.flowFileName)
            journalStore = storage(settings.journalFileName)
            schemaStore = storage(settings.schemaFileName)
            credentialStore = storage(settings.credentialFileName)
            gistStore = storage(settings.gistFileName)
            engageConfigStore = storage(engage.configFileName)
            socialStore = storage(settings.socialFileName)
        } else if let directory = settings.storageDirectory {
            try FileSessionStore.openDirectory(directory)
            makeStore = { FileSessionStore(directory: directory, fileName: $0) }
            store = FileSessionStore(directory: directory, fileName: settings.sessionFileName)
            flowStore = FileSessionStore(directory: directory, fileName: settings.flowFileName)
            journalStore = FileSessionStore(directory: directory, fileName: settings.journalFileName)
            schemaStore = FileSessionStore(directory: directory, fileName: settings.schemaFileName)
            credentialStore = FileSessionStore(directory: directory, fileName: settings.credentialFileName)
            gistStore = FileSessionStore(directory: directory, fileName: settings.gistFileName)
            engageConfigStore = FileSessionStore(directory: directory, fileName: engage.configFileName)
            socialStore = FileSessionStore(directory: directory, fileName: settings.socialFileName)
        } else {
            let memory = MemoryStores()
            makeStore = { memory.store($0) }
            store = MemorySessionStore()
            flowStore = nil
            journalStore = MemorySessionStore()
            schemaStore = nil
            credentialStore = MemorySessionStore()
            gistStore = MemorySessionStore()
            engageConfigStore = nil
            socialStore = MemorySessionStore()
        }
        quarantineStore = makeStore(settings.quarantineFileName)
        let schema = try initialSchema()
        let tokenURL = engage.tokenURL
        state.withLock { s in
            s.schema = schema
            s.tokenURL = tokenURL
            s.quarantine = loadQuarantine()
        }
        _ = try? restore()
        _ = try? restoreCredential()
    }

    public func setEventHandler(_ handler: EventHandler?) {
        eventHandler.withLock { $0 = handler }
    }

    func emit(_ event: ClientEvent) {
        guard let handler = eventHandler.withLock({ $0 }) else { return }
        handler(event)
    }

    // MARK: - State

    public var isSignedIn: Bool { state.withLock { $0.session != nil } }

    public func stateJSON() -> JSON {
        state.withLock { s in
            let session = s.session
            return [
                "signed_in": .bool(session != nil),
                "uuid": .optional(session?.record.uuid),
                "email": .optional(session?.record.email),
                "reauthentication_required": .bool(session?.reauthenticationRequired ?? false),
                "access_token_expires_at": session?.accessTokenExpiresAt.map(JSON.int) ?? .null,
                "unsynced_changes": .bool(!(session.map { $0.record.plan(schema: s.schema).isEmpty } ?? true)),
                "restore_error": s.restoreError?.json ?? .null,
                "storage_error": s.storageError?.json ?? .null,
                "quarantine": .array(s.quarantine.map(\.json)),
                "flow_version": .optional(s.flow?.version),
            ]
        }
    }

    /// The session, or the reason there is none (an unreadable store is not "signed out").
    func requireSession(_ s: ClientState) throws(JumpError) -> Session {
        if let session = s.session { return session }
        if let restoreError = s.restoreError {
            throw JumpError(.storage, "the saved session could not be read (\(restoreError.message)); "
                            + "retry with jump_client_restore or sign in again", detail: restoreError.detail)
        }
        throw JumpError(.notSignedIn, "no user is signed in")
    }

    /// client_id, locale, flow and flow_version, as every /oauth call sends them.
    func commonParameters(flow: Flow?) -> FormParameters {
        var p = FormParameters()
        if let clientID = settings.clientID { p.add("client_id", clientID) }
        p.add("locale", settings.locale)
        if let flow, let name = settings.flowName {
            p.add("flow", name)
            p.add("flow_version", flow.version)
        }
        return p
    }
}

struct ClientState: Sendable {
    var session: Session?
    /// Bumped at every sign-in, sign-out and restore: results of calls begun under another generation are
    /// discarded (a late refresh must never land in the next user's session).
    var generation: UInt64 = 0
    var restoreError: JumpError?
    var storageError: JumpError?
    var refresh: RefreshFlight?
    var flow: Flow?
    /// Epoch seconds of the last download attempt; nil: never tried in this run.
    var flowAttemptedAt: Int64?
    var flowDownloaded = false
    /// The record schema in use (captureSchemaFile, jump_client_load_schema or the cached copy).
    var schema: RecordSchema?
    /// Which session (id and full save) the session entry on storage holds; nil: none of this one's.
    var saved: SavedSession?
    /// The session epoch the journal on storage belongs to; nil: the next journal write starts a new one.
    var journalEpoch: Int64?
    var journalBytes = 0
    /// Whether a journal entry may exist on storage (so a full save removes it).
    var journalOnStorage = false
    /// Sessions set aside instead of being overwritten or merged into another sign-in.
    var quarantine: [QuarantineEntry] = []
    /// The sign-in-token / API-key side (signin-token.md).
    var tokens = TokenState()
    /// Bumped whenever the credential is replaced or removed: a refresh begun before is discarded.
    var tokenGeneration: UInt64 = 0
    var tokenRefresh: RefreshFlight?
    /// The saved credential could not be read: status comes from the gist, nothing is deleted.
    var credentialRestoreError: JumpError?
    var gistStatus: TokenStatus?
    /// The gist last written (so an unchanged one is not written again).
    var savedGist: [UInt8]?
    /// A token captured from a web login (kept in memory only).
    var webLogin: WebLogin?
    /// Engage: the app configuration in use, browser sign-ins awaiting their completion, the token URL, and
    /// the device tokens (for sharing) by provider, loaded from storage when first needed.
    var engageConfig: EngageConfig?
    var pendingSignIns: [String: PendingSignIn] = [:]
    var tokenURL: String?
    var deviceTokens: [String: JSON]?

    /// Runs body on the session in place (taken out of the state meanwhile, so its record is not shared
    /// and edits copy nothing); nil when signed out.
    mutating func withSession<T>(_ body: (inout Session) throws(JumpError) -> T) throws(JumpError) -> T? {
        guard var session = self.session else { return nil }
        self.session = nil
        defer { self.session = session }
        return try body(&session)
    }
}
