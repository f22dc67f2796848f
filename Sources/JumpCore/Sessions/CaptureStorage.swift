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

    init(_ storage: ClientStorage, settings: CaptureSettings) {
        self.settings = settings
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

        /// `index`: the quarantine index as loaded (nil: unreadable).
        init(quarantineIndex index: [QuarantineEntry]?) {
            quarantine = index ?? []
            quarantineIndexUnreadable = index == nil
        }

        /// The session was read back (restore): its journal, when one was replayed, is the one to append to.
        mutating func restored(journalEpoch epoch: Int64?) {
            journalEpoch = epoch
            journalBytes = 0
            journalOnStorage = epoch != nil
        }
    }

    // MARK: - The session, saved whole

    /// The saved session with its journal replayed (journaled: a journal was replayed); nil when none is saved.
    func load() throws(JumpError) -> (session: Session?, journaled: Bool) {
        guard var session = try SessionCodec.load(from: sessionEntry) else { return (nil, false) }
        guard let bytes = try journalEntry.load(), let ops = try RecordJournal.decode(bytes, for: session) else {
            return (session, false)
        }
        for op in ops { session.record.apply(op) }
        return (session, true)
    }

    /// Runs body under the session entry's lock: processes sharing the storage directory take turns.
    func underSessionLock<T>(_ body: () throws(JumpError) -> T) throws(JumpError) -> T {
        try sessionEntry.withExclusiveAccess(timeoutMilliseconds: settings.requestTimeoutMs, body)
    }

    /// The session another process sharing the storage directory saved, if any (read under the lock).
    func savedElsewhere() -> Session? { SessionCodec.savedElsewhere(in: sessionEntry) }

    func save(_ session: Session) throws(JumpError) { try SessionCodec.save(session, to: sessionEntry) }

    /// After the session was saved whole (or erased, `saved` false): a journal of an earlier save is ignored
    /// anyway, and removing it only saves space.
    func didSaveWhole(saved: Bool, _ st: inout State) {
        st.sessionOnStorage = saved
        st.storageError = nil
        st.journalEpoch = nil
        st.journalBytes = 0
        if st.journalOnStorage, (try? journalEntry.erase()) != nil { st.journalOnStorage = false }
    }

    /// Erases the session and its journal (sign-out); a failure is remembered and thrown.
    func eraseSession(_ st: inout State) throws(JumpError) {
        st.journalEpoch = nil
        do throws(JumpError) {
            try sessionEntry.erase()
            try journalEntry.erase()
        } catch {
            st.storageError = error
            throw error
        }
        st.sessionOnStorage = false
        st.journalOnStorage = false
        st.storageError = nil
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
