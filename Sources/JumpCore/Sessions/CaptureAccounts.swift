import JumpRuntime

/// The Capture sessions of a client's saved accounts (`accounts`, docs/guide.md "Several accounts"). In
/// "single" mode there is one, as always: a sign-in of another user replaces it. In "multiple" mode each
/// signed-in user has a session of its own, in a slot with its own entries on storage (session, journal,
/// quarantine, secrets), its own refresh flight and gates; one slot is active, and the client's calls go to
/// it. A sign-in of another user adds a slot and makes it active; the others stay signed in. The slots and
/// the active one are kept in the AccountIndex, which processes sharing the directory share.
final class CaptureAccounts: Sendable, AccountRouting {
    private struct Slots {
        var sessions: [String: CaptureSession]
        var active: String
    }

    /// The first slot's session: the only one in "single" mode, where `active` reads it without a lock.
    private let primary: CaptureSession
    private let multiple: Bool
    /// The sessions in memory and the active slot: read by every call, changed only under `changes`.
    private let slots: Lock<Slots>
    /// One change of the accounts at a time (a switch, a sign-in's adoption, a removal, a sign-out): each
    /// writes the index, then memory, and two must not interleave (a switch would bring back an account a
    /// removal just erased). Its waiters park; a wait ends at requestTimeoutMs ("busy").
    private let changes: Gate
    private let index: AccountIndexStore
    /// A slot's session, made (and restored from its entries) when first needed.
    private let makeSession: @Sendable (String) throws(JumpError) -> CaptureSession
    private let events: EventSink
    /// Slots whose adoption of a sign-in could not be written to the index: the next index write adds them,
    /// so a signed-in account is never left out of it for good.
    private let unindexed = Lock<Set<String>>([])
    /// Accounts (uuid: slot) whose removal failed after their sign-out: "call again" finds them here, though
    /// no session of theirs is left in memory.
    private let removing = Lock<[String: String]>([:])

    init(multiple: Bool, index: AccountIndexStore, lockTimeoutMs: Int, events: EventSink,
         makeSession: @escaping @Sendable (String) throws(JumpError) -> CaptureSession) throws(JumpError) {
        self.multiple = multiple
        self.index = index
        self.events = events
        self.makeSession = makeSession
        changes = Gate(waitMilliseconds: lockTimeoutMs, purpose: "another change of the saved accounts")
        primary = try makeSession("")
        slots = Lock(Slots(sessions: ["": primary], active: ""))
        guard multiple else { return }
        primary.accountRouting.set(self)
        // An unreadable index loses no session (each slot keeps its own entries): the client starts with the
        // first slot and says why in the log.
        do {
            let saved = try index.read()
            materialize(saved)
            if (try? session(inSlot: saved.active)) != nil { slots.withLock { $0.active = saved.active } }
        } catch {
            Log.warning("the saved accounts could not be read (\(error.message)); starting with the first")
        }
    }

    /// The session the client's calls go to.
    var active: CaptureSession {
        guard multiple else { return primary }
        return slots.withLock { $0.sessions[$0.active] } ?? primary
    }

    /// The saved accounts, the active one first, then the most recently used; in "single" mode the signed-in
    /// user, if any. Reads the index again, so accounts another process added are there.
    func list() throws(JumpError) -> [SavedAccount] {
        guard multiple else {
            return primary.accountSummary().map { [SavedAccount($0, active: true, lastUsed: nil)] } ?? []
        }
        let saved = try index.read()
        materialize(saved)
        let (sessions, activeSlot) = slots.withLock { ($0.sessions, $0.active) }
        let listed = sessions.compactMap { slot, session -> SavedAccount? in
            let entry = saved.accounts.first { $0.slot == slot }
            if let summary = session.accountSummary() {
                return SavedAccount(summary, active: slot == activeSlot, lastUsed: entry?.lastUsed)
            }
            // Unreadable is not signed out: the account is listed, as the index remembers it.
            guard let entry, session.isUnreadable else { return nil }
            return SavedAccount(unreadable: entry, active: slot == activeSlot)
        }
        // The active account first: it is the one used last, whatever the clock's second says.
        return listed.sorted { ($0.active ? 1 : 0, $0.lastUsed ?? 0, $0.uuid) > ($1.active ? 1 : 0, $1.lastUsed ?? 0, $1.uuid) }
    }

    /// Makes the saved account of `uuid` active (no password: its session is kept). JUMP_E_NOT_FOUND when no
    /// saved account has that uuid; the index's write failing fails the switch, which then changes nothing.
    /// Returns its session.
    func switchTo(uuid: String) throws(JumpError) -> CaptureSession {
        guard multiple else {
            guard primary.accountSummary()?.uuid == uuid else { throw notFound(uuid) }
            return primary
        }
        return try changes.withLock { _ throws(JumpError) -> CaptureSession in
            guard let (slot, session) = try find(uuid: uuid) else { throw notFound(uuid) }
            try activate(slot, session)
            return session
        }
    }

    /// Signs the account of `uuid` out and erases its session, journal, quarantine and secrets; the other
    /// accounts stay signed in. A removed active account leaves no user active (the next sign-in goes to its
    /// slot): removing one account never signs another in. After a failed erase, calling again finishes it.
    func remove(uuid: String) throws(JumpError) {
        try changes.withLock { _ throws(JumpError) in
            let found: (String, CaptureSession)?
            if let slot = removing.withLock({ $0[uuid] }) {
                found = (slot, try session(inSlot: slot))
            } else if multiple {
                found = try find(uuid: uuid)
            } else {
                found = primary.accountSummary()?.uuid == uuid ? ("", primary) : nil
            }
            guard let (slot, session) = found else { throw notFound(uuid) }
            removing.withLock { $0[uuid] = slot }
            // Signing out a session already signed out erases what is still stored of it: safe to repeat.
            _ = try session.signOut()
            // The first slot's quarantine may hold other users' sessions set aside before "multiple": only
            // this user's go. Any other slot's are this account's.
            try session.eraseQuarantine { slot.isEmpty ? $0.uuid == uuid : true }
            if multiple { try forget(slot) }
            removing.withLock { $0[uuid] = nil }
        }
    }

    /// After a session signed out (jump_client_sign_out): its account is no longer saved.
    func forgetSignedOut(_ session: CaptureSession) throws(JumpError) {
        guard multiple else { return }
        try changes.withLock { _ throws(JumpError) in try forget(session.settings.account) }
    }

    /// Reads the active session again, and in "multiple" mode every other one that could not be read.
    func restoreAll() throws(JumpError) {
        let current = active
        var failure: JumpError?
        do throws(JumpError) { try current.restore() } catch { failure = error }
        for session in slots.withLock({ Array($0.sessions.values) }) where session !== current && session.isUnreadable {
            do throws(JumpError) { try session.restore() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    // MARK: - AccountRouting

    func sessionToAdopt(uuid: String?, signingInOn source: CaptureSession) throws(JumpError) -> CaptureSession {
        if let uuid, let (_, session) = try find(uuid: uuid) { return session }
        // An unreadable session is another account's, whose user is not known: a new slot, not that one.
        if source.accountSummary() == nil && !source.isUnreadable { return source }
        return try session(inSlot: Secrets.accountSlot())
    }

    func adopted(_ session: CaptureSession) {
        let slot = session.settings.account
        do {
            try changes.withLock { _ throws(JumpError) in try activate(slot, session, mustSaveIndex: false) }
        } catch {
            Log.warning("the signed-in account could not be made the active one: \(error.message)")
        }
    }

    // MARK: - Slots

    /// Makes `slot` the active one: the index first (JUMP_E_STORAGE or JUMP_E_TIMEOUT when it cannot be
    /// written and `mustSaveIndex`; else remembered for the next write), then memory. Under `changes`.
    private func activate(_ slot: String, _ session: CaptureSession, mustSaveIndex: Bool = true) throws(JumpError) {
        let summary = session.accountSummary()
        do {
            try writeIndex { index in
                index.active = slot
                if let summary {
                    index.upsert(.init(slot: slot, uuid: summary.uuid, email: summary.email,
                                       displayName: summary.displayName, lastUsed: Clock.now()))
                }
            }
        } catch {
            guard !mustSaveIndex else { throw error }
            unindexed.withLock { _ = $0.insert(slot) }
            Log.warning("the saved accounts could not be updated (\(error.message)): written with the next change")
        }
        let changed = slots.withLock { s -> Bool in
            defer {
                s.sessions[slot] = session
                s.active = slot
            }
            return s.active != slot
        }
        if changed { events.emit(.accountSwitched(uuid: summary?.uuid)) }
    }

    /// Drops a slot whose user signed out or was removed: from the index, and from memory unless it is the
    /// first slot or the active one. Those stay, empty: the first because its entries are a single-account
    /// client's, the active one because the next sign-in goes there (a sign-out signs no one else in).
    /// Under `changes`.
    private func forget(_ slot: String) throws(JumpError) {
        try writeIndex { $0.remove(slot: slot) }
        slots.withLock { s in
            if !slot.isEmpty && s.active != slot { s.sessions[slot] = nil }
        }
    }

    /// Rewrites the index with `change`, adding the accounts a failed write left out. Under `changes`.
    private func writeIndex(_ change: (inout AccountIndex) -> Void) throws(JumpError) {
        let left = unindexed.withLock { $0 }
        let missing = left.compactMap { slot -> AccountIndex.Account? in
            guard let summary = slots.withLock({ $0.sessions[slot] })?.accountSummary() else { return nil }
            return .init(slot: slot, uuid: summary.uuid, email: summary.email, displayName: summary.displayName,
                         lastUsed: Clock.now())
        }
        try index.update { index in
            for account in missing where index.account(uuid: account.uuid) == nil { index.upsert(account) }
            change(&index)
        }
        unindexed.withLock { $0.subtract(left) }
    }

    /// The slot holding `uuid`'s account: in memory, or saved by another process (then made here). A slot the
    /// index names whose session cannot be read is that account's; one whose session is gone (another process
    /// removed it) is no account.
    private func find(uuid: String) throws(JumpError) -> (String, CaptureSession)? {
        let known = slots.withLock { $0.sessions }.first { $0.value.accountSummary()?.uuid == uuid }
        if let known { return (known.key, known.value) }
        guard multiple, let saved = try index.read().account(uuid: uuid) else { return nil }
        let session = try session(inSlot: saved.slot)
        let holds = session.accountSummary()?.uuid == uuid || session.isUnreadable
        return holds ? (saved.slot, session) : nil
    }

    /// Makes the sessions of the slots another process added.
    private func materialize(_ saved: AccountIndex) {
        for account in saved.accounts { _ = try? session(inSlot: account.slot) }
    }

    private func session(inSlot slot: String) throws(JumpError) -> CaptureSession {
        if let made = slots.withLock({ $0.sessions[slot] }) { return made }
        let session = try makeSession(slot)
        session.accountRouting.set(self)
        return slots.withLock { s in
            // Two threads may make the same slot's session at once; the first kept wins, the other (which
            // only read storage) is dropped.
            if let first = s.sessions[slot] { return first }
            s.sessions[slot] = session
            return session
        }
    }

    private func notFound(_ uuid: String) -> JumpError {
        JumpError(.notFound, "no saved account has this uuid", detail: ["uuid": .string(uuid)])
    }
}
