import JumpRuntime
import Synchronization

/// The Capture session of one app installation: its access token and refresh secret, the user's record
/// and its journal, the flow and schema it is checked with, and the sessions set aside. It owns these and
/// their entries on storage; every result of a call is applied only to the session (generation) it was
/// made for. State changes happen under one lock, network calls outside it.
public final class CaptureSession: Sendable {
    let settings: CaptureSettings
    /// Read for the social forms (thin registration, the social registration form).
    let engage: EngageSettings
    let capture: CaptureAPI
    let transport: any Transport
    let events: EventSink
    /// The servers' clocks, learned from their answers: the refresh is signed with Capture's time.
    let serverClock: ServerClock
    /// The session, its journal and the sessions set aside on storage; what is known of them is `state.stored`.
    let storage: CaptureStorage
    let flowCache: DocumentCache
    let schemaCache: DocumentCache
    /// Held for memory work and for saves (which may wait on host code, fsync or another process's store
    /// lock): its waiters park rather than hold a pool thread, and the host's questions never wait for it.
    let state: SessionStateLock<CaptureState>
    /// Whether a session is signed in, shared with the state (which sets it) so it is read without the lock.
    private let signedIn: AtomicFlag
    /// Syncs run one at a time, so two never send the same change.
    let syncGate: Gate
    let flowGate: Gate
    /// This client's name on the refreshes it sends (RefreshOwner).
    let refreshClientID = RefreshOwner.makeClientID()
    /// The client's accounts, with several (`accounts` "multiple"): where a sign-in's session goes.
    let accountRouting = AccountRoutingLink()

    init(settings: CaptureSettings, engage: EngageSettings, transport: any Transport, storage: ClientStorage,
         events: EventSink, clock: ServerClock = ServerClock()) throws(JumpError) {
        let signedIn = AtomicFlag()
        self.signedIn = signedIn
        state = SessionStateLock(CaptureState(signedIn: signedIn))
        self.settings = settings
        syncGate = Gate(waitMilliseconds: settings.requestTimeoutMs, purpose: "the record's sync in progress")
        flowGate = Gate(waitMilliseconds: settings.requestTimeoutMs, purpose: "the flow's load in progress")
        self.engage = engage
        self.transport = transport
        self.events = events
        serverClock = clock
        capture = CaptureAPI(base: settings.base, transport: transport)
        self.storage = CaptureStorage(storage, settings: settings)
        flowCache = DocumentCache(storage, name: settings.flowFileName, what: "flow")
        schemaCache = DocumentCache(storage, name: settings.schemaFileName, what: "schema")
        let schema = try initialSchema()
        let stored = CaptureStorage.State(quarantineIndex: self.storage.loadQuarantine())
        state.withLock { s in
            s.schema = schema
            s.stored = stored
        }
        _ = try? restore()
    }

    func emit(_ event: ClientEvent) { events.emit(event) }

    /// Read without the state lock: a host polling it every frame never waits for a sign-in or a save.
    public var isSignedIn: Bool { signedIn.isSet }

    /// The generation of the signed-in session (a link must complete in the session that began it).
    func signedInGeneration() throws(JumpError) -> UInt64 {
        try answer { s throws(JumpError) in
            _ = try requireSession(s)
            return s.generation
        }
    }

    /// What jump_client_state reports about this session.
    /// Never waits for a save (`answer`).
    public func report() -> CaptureSessionState {
        answer { s in
            let session = s.session
            return CaptureSessionState(
                signedIn: session != nil, uuid: session?.record.uuid, email: session?.record.email,
                reauthenticationRequired: session?.reauthenticationRequired ?? false,
                accessTokenExpiresAt: session?.accessTokenExpiresAt,
                unsyncedChanges: !(session.map { $0.record.plan(schema: s.schema).isEmpty } ?? true),
                restoreError: s.restoreError, storageError: s.stored.storageError, quarantine: s.stored.quarantine,
                flowVersion: s.flow?.version, secretStore: storage.placement, clockOffsetSeconds: captureClockOffset)
        }
    }

    /// Who this session's user is, for the list of saved accounts; nil when no user is signed in.
    /// Never waits for a save (`answer`).
    func accountSummary() -> AccountSummary? {
        answer { s in
            guard let session = s.session, let uuid = session.record.uuid else { return nil }
            return AccountSummary(uuid: uuid, email: session.record.email,
                                  displayName: session.record.current["displayName"]?.stringValue,
                                  reauthenticationRequired: session.reauthenticationRequired)
        }
    }

    struct AccountSummary: Sendable {
        let uuid: String
        let email, displayName: String?
        let reauthenticationRequired: Bool
    }

    /// The session, or the reason there is none (an unreadable store is not "signed out").
    func requireSession(_ s: CaptureState) throws(JumpError) -> Session {
        if let session = s.session { return session }
        if let restoreError = s.restoreError {
            throw JumpError(.storage, "the saved session could not be read (\(restoreError.message)); "
                            + "retry the restore or sign in again", detail: restoreError.detail)
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

    /// Forgets the session in memory at once (sign-out), then erases it from storage; the sessions set
    /// aside stay. Returns the uuid that was signed in.
    func signOut() throws(JumpError) -> String? {
        // One lock for forgetting and erasing: a sign-in that finishes meanwhile must not have its fresh
        // session erased behind it.
        try state.withLock { s throws(JumpError) -> String? in
            let uuid = s.session?.record.uuid
            s.replaceSession(with: nil, onStorage: s.stored.sessionOnStorage)  // on storage until erased below
            try whileSaving(&s) { s throws(JumpError) in try storage.eraseSession(&s.stored) }
            return uuid
        }
    }
}

/// What jump_client_state reports about the Capture session.
public struct CaptureSessionState: Sendable {
    public var signedIn: Bool
    public var uuid: String?
    public var email: String?
    public var reauthenticationRequired: Bool
    /// Epoch seconds by the local clock; nil when the server gave no lifetime.
    public var accessTokenExpiresAt: Int64?
    public var unsyncedChanges: Bool
    /// The saved session could not be read.
    public var restoreError: JumpError?
    /// The last save or erase failed.
    public var storageError: JumpError?
    public var quarantine: [QuarantineEntry]
    public var flowVersion: String?
    /// Where the client's secrets are kept.
    public var secretStore: SecretPlacement
    /// Capture's clock minus this device's, in seconds (0 until Capture answered once; kept with the session).
    public var clockOffsetSeconds: Int64 = 0
}

struct CaptureState: Sendable {
    /// Set through setSession (which keeps `signedIn` true to it); changed in place through withSession.
    private(set) var session: Session?
    /// Whether `session` is set, readable without the lock that guards it.
    let signedIn: AtomicFlag

    init(signedIn: AtomicFlag) {
        self.signedIn = signedIn
        signedIn.isSet = false
    }

    /// Changes the session in place, if there is one.
    mutating func updateSession(_ body: (inout Session) -> Void) { session?.inPlace(body) }

    mutating func setSession(_ new: Session?) {
        session = new
        signedIn.isSet = new != nil
    }

    /// The one place where another session (or none) takes this one's place: sign-in, restore, sign-out. The
    /// generation moves on, so calls begun under the old session drop their results, and its refresh in
    /// flight is no longer this session's to wait for.
    mutating func replaceSession(with new: Session?, onStorage: Bool) {
        setSession(new)
        generation = CaptureState.nextGeneration.add(1, ordering: .relaxed).newValue
        refresh = nil
        restoreError = nil
        stored.sessionOnStorage = onStorage
    }
    /// Moved on at every sign-in, sign-out and restore: results of calls begun under another generation are
    /// discarded (a late refresh must never land in the next user's session). Drawn from one counter for the
    /// process, so that no two sessions (two saved accounts) ever have the same: a link begun in one account
    /// cannot complete in another.
    var generation: UInt64 = 0
    static let nextGeneration = Atomic<UInt64>(0)
    var restoreError: JumpError?
    /// What is on storage (CaptureStorage's state, under this lock with the session it stores).
    var stored = CaptureStorage.State(quarantineIndex: [])
    var refresh: RefreshFlight?
    var flow: Flow?
    /// Epoch seconds of the last download attempt; nil: never tried in this run.
    var flowAttemptedAt: Int64?
    var flowDownloaded = false
    /// The record schema in use (captureSchemaFile, jump_client_load_schema or the cached copy).
    var schema: RecordSchema?

    /// Runs body on the session in place (never copied out, so its record is not shared and edits copy
    /// nothing); nil when signed out.
    mutating func withSession<T>(_ body: (inout Session) throws(JumpError) -> T) throws(JumpError) -> T? {
        try session?.inPlace(body)
    }
}
