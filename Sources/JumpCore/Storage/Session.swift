import JumpRuntime

/// A signed-in user's session with Capture.
struct Session: Sendable, Equatable {
    /// Minted at sign-in and kept for the session's life: every artefact saved for this session carries it,
    /// so nothing saved for another sign-in (even of the same user) is ever applied to this one.
    /// Empty for sessions saved before format 3.
    var sessionID, accessToken: String
    /// The secret that signs refresh requests; nil when the server was given none (no refresh possible).
    var refreshSecret: String?
    /// Epoch seconds when the access token expires, when the server said (expires_in).
    var accessTokenExpiresAt: Int64?
    /// The server refused to refresh: the app must sign in again; the record and its edits are kept.
    var reauthenticationRequired: Bool
    var record: UserRecord
    /// Which record journal belongs to this saved session: bumped at every full save, so a journal left
    /// from an earlier one is never replayed onto it.
    var epoch: Int64 = 1
    /// A refresh sent (or about to be) and not yet answered: saved before the request, so a process that
    /// dies meanwhile replays the very same request on restore and gets the server's answer again.
    var pendingRefresh: PendingRefresh?
    /// The quarantine entries whose edits this session took back (released once it is saved; a restore
    /// releases them if a crash came first).
    var absorbed: [String] = []
    /// Counts the refreshes of this session's credential: of two copies of one session (processes sharing
    /// the storage directory), the one with the higher count holds the newer access token.
    var credentialSerial: Int64 = 0
    /// Appends sent and never answered: saved before each is sent, so that the next sync (here or after a
    /// restart) looks for their elements on the server before it sends them again (CaptureSession+Appends).
    var pendingAppends: [PendingAppend] = []
    /// Values of updates sent whose answers never came, by path: a fetch that finds one on the server finds
    /// this client's own write, not another's change, so it is no conflict (CaptureSession+Record).
    var unansweredValues: [String: JSON] = [:]
    /// Capture's clock minus this device's when the session was last saved (ServerClock), so that a restart
    /// signs with the server's time before Capture answers again; nil when it was never known.
    var clockOffsetSeconds: Int64?

    /// Runs body on this session where it is stored (reached through optional chaining, so never copied).
    mutating func inPlace<T, E: Error>(_ body: (inout Session) throws(E) -> T) throws(E) -> T { try body(&self) }
}

/// An append of elements to a plural, sent and not (yet) answered.
struct PendingAppend: Sendable, Equatable {
    var plural: RecordPath
    /// The plural's element ids the server had (the baseline's) when it was sent.
    var knownIDs: [Int64]
    /// The elements as sent, with their local ids.
    var sent: [JSON]

    var json: JSON {
        ["plural": .string(plural.description), "known_ids": .array(knownIDs.map(JSON.int)), "sent": .array(sent)]
    }

    /// nil for a malformed entry (it is dropped: at worst an append is sent again, as before it was kept).
    init?(json: JSON) {
        guard let text = json["plural"]?.stringValue, let plural = try? RecordPath(text),
              let known = json["known_ids"]?.arrayValue, let sent = json["sent"]?.arrayValue else { return nil }
        self.init(plural: plural, knownIDs: known.compactMap(\.intValue), sent: sent)
    }

    init(plural: RecordPath, knownIDs: [Int64], sent: [JSON]) {
        self.plural = plural
        self.knownIDs = knownIDs
        self.sent = sent
    }
}

/// The parts of a refresh request that make it the same request again (the signature is recomputed).
struct PendingRefresh: Sendable, Equatable {
    var accessToken: String
    var date: String
    /// Epoch seconds; a replay long after is pointless (the server's grace window is over).
    var startedAt: Int64
    /// Which client of which process sent it (RefreshOwner): a client sharing the storage directory waits for
    /// a live owner's answer instead of sending the same refresh again. Empty when saved before owners.
    var owner: String = ""
}

/// When a token issued now expires, from the server's `expires_in` (clamped: a hostile or broken value
/// must neither overflow nor make a token look valid for centuries).
func expiryTime(fromExpiresIn value: JSON?) -> Int64? {
    guard let seconds = value?.intValue else { return nil }
    return Clock.now() + min(max(seconds, 0), 366 * 86_400)
}

/// The versioned on-disk form of a session (JSON, one file per installation).
enum SessionCodec {
    static let format = "libjump-session"
    static let version: Int64 = 3

    static func encode(_ session: Session) -> [UInt8] { Jansson.serializedBytes(document(session)) }

    /// "secrets_in" of a document whose secrets (access token, refresh secret, the token of a pending
    /// refresh) are kept apart, in the Secret Service (CaptureStorage); absent when they are in it.
    static let secretsKey = "secrets_in"
    static let secretsInSecretService = "secret-service"

    /// The session saved in `store` and whether its secrets are kept apart; nil when nothing is saved.
    static func load(from store: any SessionStore) throws(JumpError) -> (Session, secretsApart: Bool)? {
        try store.load().map { bytes throws(JumpError) in try decodeDocument(bytes) }
    }

    /// Saves `session` to `store`, printed straight into it (a large record is never held twice); without
    /// its secrets when `secretsApart`.
    static func save(_ session: Session, to store: any SessionStore, secretsApart: Bool) throws(JumpError) {
        let document = document(session, secretsApart: secretsApart)
        try store.save { emit throws(JumpError) in try Jansson.serialize(document, inPiecesOf: 64 << 10, to: emit) }
    }

    /// The secrets a document without them leaves out, with what binds them to their session.
    static func secrets(of session: Session) -> JSON {
        [
            "session_id": .string(session.sessionID),
            "credential_serial": .int(session.credentialSerial),
            "access_token": .string(session.accessToken),
            "refresh_secret": .optional(session.refreshSecret),
            "access_token_expires_at": session.accessTokenExpiresAt.map(JSON.int) ?? .null,
            "reauthentication_required": .bool(session.reauthenticationRequired),
            "pending_refresh": pendingRefreshJSON(session.pendingRefresh),
        ]
    }

    /// Puts `secrets` (secrets(of:), as saved) back into `session`, read from a document without them. The
    /// secrets of another session are refused: applied, they would make this one act as that one.
    static func restoreSecrets(_ secrets: JSON, into session: inout Session) throws(JumpError) {
        guard secrets["session_id"]?.stringValue == session.sessionID,
              let token = secrets["access_token"]?.stringValue, !token.isEmpty else {
            throw JumpError(.storage, "the secrets kept for the saved session belong to another session",
                            detail: ["reason": "secret_service", "secret_store": "secret-service"])
        }
        session.accessToken = token
        session.refreshSecret = secrets["refresh_secret"]?.stringValue
        // The secrets are written first: after a crash between the two writes they are the newer, and the
        // pending refresh (saved with its token) is theirs.
        session.credentialSerial = max(session.credentialSerial, secrets["credential_serial"]?.intValue ?? 0)
        session.pendingRefresh = pendingRefresh(secrets["pending_refresh"])
        // What goes with the token: its lifetime and whether it can still be refreshed.
        if let expiry = secrets["access_token_expires_at"] {
            session.accessTokenExpiresAt = expiry.intValue.map { min(max($0, 0), Int64(Int32.max) * 4) }
        }
        if let reauth = secrets["reauthentication_required"]?.boolValue { session.reauthenticationRequired = reauth }
    }

    static func document(_ session: Session, secretsApart: Bool = false) -> JSON {
        let document = fullDocument(session)
        guard secretsApart, var members = document.objectValue else { return document }
        members["access_token"] = nil
        members["refresh_secret"] = nil
        members["pending_refresh"] = nil  // it names the token being refreshed: kept with the secrets
        members[secretsKey] = .string(secretsInSecretService)
        return .object(members)
    }

    private static func fullDocument(_ session: Session) -> JSON {
        [
            "format": .string(format),
            "version": .int(version),
            "saved_at": .int(Clock.now()),
            "access_token": .string(session.accessToken),
            "refresh_secret": .optional(session.refreshSecret),
            "access_token_expires_at": session.accessTokenExpiresAt.map(JSON.int) ?? .null,
            "reauthentication_required": .bool(session.reauthenticationRequired),
            "epoch": .int(session.epoch),
            "session_id": .string(session.sessionID),
            "uuid": .optional(session.record.uuid),
            "absorbed_quarantine": .array(session.absorbed.map(JSON.string)),
            "credential_serial": .int(session.credentialSerial),
            "pending_appends": .array(session.pendingAppends.map(\.json)),
            "unanswered_values": .object(session.unansweredValues),
            "pending_refresh": pendingRefreshJSON(session.pendingRefresh),
            "clock_offset_seconds": session.clockOffsetSeconds.map(JSON.int) ?? .null,
            "record": [
                "baseline": session.record.baseline,
                "edits": .array(session.record.snapshotEdits.map(\.json)),
                "next_local_id": .int(session.record.nextLocalID),
            ],
        ]
    }

    private static func pendingRefreshJSON(_ pending: PendingRefresh?) -> JSON {
        guard let p = pending else { return .null }
        return ["access_token": .string(p.accessToken), "date": .string(p.date), "started_at": .int(p.startedAt),
                "owner": .string(p.owner)]
    }

    private static func pendingRefresh(_ p: JSON?) -> PendingRefresh? {
        guard let p, let old = p["access_token"]?.stringValue, let date = p["date"]?.stringValue else { return nil }
        // Clamped like every time read from storage: a broken value must not overflow later arithmetic.
        return PendingRefresh(accessToken: old, date: date,
                              startedAt: min(max(p["started_at"]?.intValue ?? 0, 0), Int64(Int32.max) * 4),
                              owner: p["owner"]?.stringValue ?? "")
    }

    /// The session of a saved document, with empty secrets when they are kept apart (restoreSecrets).
    static func decode(_ bytes: [UInt8]) throws(JumpError) -> Session { try decodeDocument(bytes).0 }

    static func decodeDocument(_ bytes: [UInt8]) throws(JumpError) -> (Session, secretsApart: Bool) {
        let document: JSON
        do {
            document = try Jansson.parse(bytes, what: "the saved session", maxDepth: Jansson.storageDepth)
        } catch {
            // Position only: jansson's text quotes the bytes near the error, which may be part of a secret.
            throw JumpError(.storage, "the saved session is unreadable (not valid JSON at line \(error.detail["line"]?.intValue ?? 0), "
                            + "column \(error.detail["column"]?.intValue ?? 0))")
        }
        guard document["format"]?.stringValue == format else {
            throw JumpError(.storage, "the saved session is not a libjump session file")
        }
        guard let v = document["version"]?.intValue, (1...version).contains(v) else {
            throw JumpError(.storage, "the saved session has format version \(document["version"].map(Jansson.serialize) ?? "none"); this libjump reads version \(version)")
        }
        let secretsApart = document[secretsKey]?.stringValue == secretsInSecretService
        let token = document["access_token"]?.stringValue ?? ""
        guard secretsApart || !token.isEmpty,
              let baseline = document["record"]?["baseline"], case .object = baseline else {
            throw JumpError(.storage, "the saved session is incomplete (access token or record missing)")
        }
        let record: UserRecord
        if v == 1 {
            guard let current = document["record"]?["current"], case .object = current else {
                throw JumpError(.storage, "the saved session is incomplete (record missing)")
            }
            record = UserRecord(baseline: baseline, current: current)
        } else {
            var edits: [RecordOp] = []
            for item in document["record"]?["edits"]?.arrayValue ?? [] { edits.append(try RecordOp(json: item)) }
            record = UserRecord(baseline: baseline, edits: edits,
                                nextLocalID: document["record"]?["next_local_id"]?.intValue ?? -1)
        }
        // With the secrets apart, the pending refresh comes back with them (restoreSecrets).
        let pending = secretsApart ? nil : pendingRefresh(document["pending_refresh"])
        let session = Session(
            sessionID: document["session_id"]?.stringValue ?? "",
            accessToken: token,
            refreshSecret: document["refresh_secret"]?.stringValue,
            accessTokenExpiresAt: document["access_token_expires_at"]?.intValue.map { min(max($0, 0), Int64(Int32.max) * 4) },
            reauthenticationRequired: document["reauthentication_required"]?.boolValue ?? false,
            record: record,
            epoch: document["epoch"]?.intValue ?? 1,
            pendingRefresh: pending,
            absorbed: (document["absorbed_quarantine"]?.arrayValue ?? []).compactMap(\.stringValue),
            credentialSerial: max(document["credential_serial"]?.intValue ?? 0, 0),
            pendingAppends: (document["pending_appends"]?.arrayValue ?? []).compactMap(PendingAppend.init(json:)),
            unansweredValues: document["unanswered_values"]?.objectValue ?? [:],
            clockOffsetSeconds: document["clock_offset_seconds"]?.intValue)
        return (session, secretsApart)
    }
}
