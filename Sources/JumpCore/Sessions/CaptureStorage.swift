/// The Capture session's part of storage, owned by CaptureSession (as git_repository owns its odb and refdb):
/// the session entry (saved whole), the record journal (edits appended between full saves, bound to the
/// epoch of the save they follow) and the quarantine of sessions set aside. What it knows about what is on
/// storage is its State, kept inside CaptureState so that one lock guards the session and its storage
/// together (docs/conventions.md, "Locks"): every method here that takes a State runs under that lock.
struct CaptureStorage: Sendable {
    let sessionEntry: any SessionStore
    let journalEntry: any SessionStore
    /// The index of the sessions set aside (QuarantineEntry); each one's entries are named after it.
    let quarantineIndex: any SessionStore
    /// Any entry by name: the entries of the sessions set aside.
    let entry: @Sendable (String) -> any SessionStore
    /// The entry names (StorageEntryNames.swift) and the store lock's timeout.
    let settings: CaptureSettings
    /// Set: the session's secrets (access token, refresh secret) are kept in the Secret Service, one item per
    /// session id, and the session entry holds the rest (SessionCodec's "secrets_in").
    let secrets: SecretService?
    /// Why `secrets` is nil, for the message of a saved session that needs the Secret Service.
    let secretServiceProblem: String?
    /// Where the client's secrets are kept (jump_client_state's "secret_store").
    let placement: SecretPlacement

    /// Whether a save or an erase may take long (fsync, host code, the Secret Service): not in memory.
    var savesMayBlock: Bool { placement != .memory }
    /// Whether appending a journal line may take long: host code may, and so may the first line of a
    /// journal (`append` saves it whole, fsync'd); a further line of a file's journal is a write to the page
    /// cache, and memory's a copy.
    func appendMayBlock(_ st: State, for session: Session?) -> Bool {
        placement == .host || (placement != .memory && st.journalEpoch != session?.epoch)
    }

    init(_ storage: ClientStorage, settings: CaptureSettings) {
        self.settings = settings
        secrets = storage.secrets
        secretServiceProblem = storage.secretServiceProblem
        placement = storage.placement
        entry = storage.entry
        sessionEntry = storage.entry(settings.sessionFileName)
        journalEntry = storage.entry(settings.journalFileName)
        quarantineIndex = storage.entry(settings.quarantineFileName)
    }

    /// What is on storage, as far as this process knows.
    struct State: Sendable {
        /// Whether the session in memory, as of its epoch, is the one on storage: journal lines may then be
        /// appended to it. (The epoch moves only with a save that worked.)
        var sessionOnStorage = false
        /// The session epoch the journal on storage belongs to; nil: the next journal write starts a new one.
        var journalEpoch: Int64?
        var journalBytes = 0
        /// Whether a journal entry may exist on storage (so a full save removes it).
        var journalOnStorage = false
        /// The last save or erase failed (reported by jump_client_state until one works).
        var storageError: JumpError?
        /// Sessions set aside instead of being overwritten or merged into another sign-in.
        var quarantine: [QuarantineEntry] = []
        /// The quarantine index on storage could not be read: it is read again before any write, and never
        /// written over while it cannot be.
        var quarantineIndexUnreadable = false
        /// The Secret Service item that holds the saved session's secrets (nil: none, or they are in the file).
        var secretItem: String?
        /// Set when the saved session's secrets are in the Secret Service and this client cannot use it: no
        /// secret is then written to files in their place (never a silent downgrade) until sign-out.
        var secretServiceNeeded: JumpError?

        /// `index`: the quarantine index as loaded (nil: unreadable).
        init(quarantineIndex index: [QuarantineEntry]?) {
            quarantine = index ?? []
            quarantineIndexUnreadable = index == nil
        }

        /// The session was read back (restore): its journal, when one was replayed, is the one to append to.
        mutating func restored(journalEpoch epoch: Int64?, secretItem item: String?) {
            journalEpoch = epoch
            journalBytes = 0
            journalOnStorage = epoch != nil
            secretItem = item
        }
    }

    // MARK: - The session, saved whole

    /// The saved session with its journal replayed; nil when none is saved. journaled: a journal was
    /// replayed; secretItem: the Secret Service item its secrets came from (nil: they were in the file).
    func load() throws(JumpError) -> (session: Session?, journaled: Bool, secretItem: String?) {
        guard let (read, secretItem) = try readSession() else { return (nil, false, nil) }
        var session = read
        guard let bytes = try journalEntry.load(), let ops = try RecordJournal.decode(bytes, for: session) else {
            return (session, false, secretItem)
        }
        for op in ops { session.record.apply(op) }
        return (session, true, secretItem)
    }

    /// The session entry, with its secrets put back from the Secret Service when they are kept there. A
    /// session whose secrets cannot be read is JUMP_E_STORAGE with the reason, never "signed out".
    private func readSession() throws(JumpError) -> (Session, secretItem: String?)? {
        guard let (read, apart) = try SessionCodec.load(from: sessionEntry) else { return nil }
        var session = read
        guard apart else { return (session, nil) }
        guard let secrets else {
            throw JumpError(.storage, "the saved session's secrets are in the Secret Service, which this client cannot "
                            + "use (\(secretServiceProblem ?? "unknown")): make it available and create the client "
                            + "again, or sign out to discard the session",
                            detail: ["reason": "secret_service_unavailable", "secret_store": "secret-service"])
        }
        let item = secretItem(for: session)
        guard let text = try secrets.lookup(item) else {
            throw JumpError(.storage, "the saved session's secrets are missing from the Secret Service (item \(item)): "
                            + "sign in again", detail: ["reason": "secret_service", "secret_store": "secret-service"])
        }
        guard let kept = try? Jansson.parse(Array(text.utf8), what: "the session's secrets") else {
            throw JumpError(.storage, "the saved session's secrets in the Secret Service are unreadable (item \(item))",
                            detail: ["reason": "secret_service", "secret_store": "secret-service"])
        }
        try SessionCodec.restoreSecrets(kept, into: &session)
        return (session, item)
    }

    /// The Secret Service item of a session's secrets: one per session id, so that the file and the item of
    /// one save never pair with those of another (a crash between the two writes leaves the older pair whole).
    func secretItem(for session: Session) -> String { "\(settings.sessionFileName)#\(session.sessionID)" }

    /// Runs body under the session entry's lock: processes sharing the storage directory take turns.
    func underSessionLock<T>(_ body: () throws(JumpError) -> T) throws(JumpError) -> T {
        try sessionEntry.withExclusiveAccess(timeoutMilliseconds: settings.requestTimeoutMs, body)
    }

    /// What another process sharing the storage directory saved since this one last read or wrote it (read
    /// under the lock); nil when nothing changed there, or it cannot be read (the caller goes on with its own
    /// copy, as it would have without the look).
    func savedElsewhere() -> Session? {
        guard sessionEntry.changedElsewhere else { return nil }
        return (try? readSession())??.0
    }

    /// Saves the session whole: with the Secret Service, its secrets there first (so the file never names an
    /// item that is not written), then the rest to the session entry, then the previous session's item goes.
    func save(_ session: Session, _ st: inout State) throws(JumpError) {
        if secrets == nil, let needed = st.secretServiceNeeded { throw needed }
        guard let secrets else { return try SessionCodec.save(session, to: sessionEntry, secretsApart: false) }
        let item = secretItem(for: session)
        try secrets.store(item, Jansson.serialize(SessionCodec.secrets(of: session)),
                          label: "libjump session (\(settings.sessionFileName))")
        try SessionCodec.save(session, to: sessionEntry, secretsApart: true)
        if let old = st.secretItem, old != item { clearSecretItem(old) }
        st.secretItem = item
    }

    /// Erases the session entry (the session ended without a sign-out: persist with none) and its secrets.
    func eraseWhole(_ st: inout State) throws(JumpError) {
        if let item = st.secretItem, let secrets {
            try secrets.clear(item)
            st.secretItem = nil
        }
        try sessionEntry.erase()
    }

    /// The item the saved session's file names, read without the keyring (a session whose restore failed).
    func itemOfSavedSession() -> String? {
        guard secrets != nil, let (saved, apart) = (try? SessionCodec.load(from: sessionEntry)) ?? nil, apart else { return nil }
        return secretItem(for: saved)
    }

    /// Best effort: an item left behind holds the secrets of a session no file names any more.
    func clearSecretItem(_ item: String) {
        do throws(JumpError) { try secrets?.clear(item) } catch {
            Log.warning("the secrets of an earlier session could not be removed from the Secret Service: \(error.message)")
        }
    }

    /// After the session was saved whole (or erased, `saved` false): a journal of an earlier save is ignored
    /// anyway, and removing it only saves space.
    func didSaveWhole(saved: Bool, _ st: inout State) {
        st.sessionOnStorage = saved
        st.storageError = nil
        st.journalEpoch = nil
        st.journalBytes = 0
        if st.journalOnStorage, (try? journalEntry.erase()) != nil { st.journalOnStorage = false }
    }

    /// Erases the session and its journal (sign-out); a failure is remembered and thrown. The secrets go
    /// first: a file left by a failure after them is a session to sign in again, never a stray secret.
    func eraseSession(_ st: inout State) throws(JumpError) {
        st.journalEpoch = nil
        do throws(JumpError) {
            if let item = st.secretItem ?? itemOfSavedSession(), let secrets {
                try secrets.clear(item)
                st.secretItem = nil
            }
            try sessionEntry.erase()
            try journalEntry.erase()
        } catch {
            st.storageError = error
            throw error
        }
        st.sessionOnStorage = false
        st.journalOnStorage = false
        st.storageError = nil
        st.secretServiceNeeded = nil
    }

    // MARK: - The journal

    /// Appends encoded journal lines (JournalLine, RecordJournal.encode) to the journal of `session` as saved;
    /// throws when the lines are not on storage after.
    func append(_ bytes: [UInt8], for session: Session?, _ st: inout State) throws(JumpError) {
        // After a failed full save the journal's base on storage is older than the record in memory (a
        // fetch, an acknowledgement): lines appended to it might not replay, so the change saves whole.
        guard st.storageError == nil, st.sessionOnStorage, let session else {
            throw JumpError(.storage, "the session on storage is not this one")
        }
        do throws(JumpError) {
            if st.journalEpoch == session.epoch {
                try journalEntry.append(bytes)
                st.journalBytes += bytes.count
            } else {
                let started = RecordJournal.header(for: session) + bytes
                st.journalOnStorage = true
                try journalEntry.save(started)
                st.journalEpoch = session.epoch
                st.journalBytes = started.count
            }
        } catch {
            // A failed append may have left part of a line: nothing more is appended after it, the next
            // change saves the session whole (which starts a new journal).
            st.journalEpoch = nil
            st.sessionOnStorage = false
            Log.warning("the record journal could not be written: \(error.message)")
            throw error
        }
    }

    /// Whether the journal has grown enough that the next change should save the session whole instead.
    func journalIsLong(_ st: State) -> Bool {
        st.journalBytes > (journalEntry.appendsCheaply ? 1 << 20 : 64 << 10)
    }
}
