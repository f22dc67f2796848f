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
    private let slots: Lock<Slots>
    private let index: AccountIndexStore
    /// A slot's session, made (and restored from its entries) when first needed.
    private let make: @Sendable (String) throws(JumpError) -> CaptureSession
    private let events: EventSink

    init(multiple: Bool, index: AccountIndexStore, events: EventSink,
         make: @escaping @Sendable (String) throws(JumpError) -> CaptureSession) throws(JumpError) {
        self.multiple = multiple
        self.index = index
        self.events = events
        self.make = make
        primary = try make("")
        slots = Lock(Slots(sessions: ["": primary], active: ""))
        guard multiple else { return }
        primary.accountRouting.set(self)
        // An unreadable index loses no session (each slot keeps its own entries): the client starts with the
        // first slot and says why in the log.
        do {
            let saved = try index.read()
            for account in saved.accounts { _ = try? session(inSlot: account.slot) }
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

    /// The saved accounts, the active one first, then the most recently used; in "single" mode the signed-in user, if any. Reads the index
    /// again, so accounts another process added are there.
    func list() throws(JumpError) -> [SavedAccount] {
        guard multiple else {
            return primary.accountSummary().map { [SavedAccount($0, active: true, lastUsed: nil)] } ?? []
        }
        let saved = try index.read()
        for account in saved.accounts { _ = try? session(inSlot: account.slot) }
        let (sessions, activeSlot) = slots.withLock { ($0.sessions, $0.active) }
        let summaries = sessions.compactMap { slot, session -> SavedAccount? in
            guard let summary = session.accountSummary() else { return nil }
            return SavedAccount(summary, active: slot == activeSlot, lastUsed: saved.accounts.first { $0.slot == slot }?.lastUsed)
        }
        // The active account first: it is the one used last, whatever the clock's second says.
        return summaries.sorted { ($0.active ? 1 : 0, $0.lastUsed ?? 0, $0.uuid) > ($1.active ? 1 : 0, $1.lastUsed ?? 0, $1.uuid) }
    }

    /// Makes the saved account of `uuid` active (no password: its session is kept). JUMP_E_NOT_FOUND when no
    /// saved account has that uuid. Returns its session.
    func switchTo(uuid: String) throws(JumpError) -> CaptureSession {
        guard multiple else {
            guard primary.accountSummary()?.uuid == uuid else { throw notFound(uuid) }
            return primary
        }
        guard let (slot, session) = try slotOf(uuid: uuid) else { throw notFound(uuid) }
        activate(slot, session)
        return session
    }

    /// Signs the account of `uuid` out and erases its session, journal, quarantine and secrets; the other
    /// accounts stay signed in. A removed active account leaves no user active (the next sign-in goes to its
    /// slot): removing one account never signs another in.
    func remove(uuid: String) throws(JumpError) {
        let found: (String, CaptureSession)?
        if multiple { found = try slotOf(uuid: uuid) } else { found = primary.accountSummary()?.uuid == uuid ? ("", primary) : nil }
        guard let (slot, session) = found else { throw notFound(uuid) }
        _ = try session.signOut()
        try session.eraseQuarantine()
        guard multiple else { return }
        try forget(slot)
    }

    /// After the active session signed out (jump_client_sign_out): its account is no longer saved.
    func activeSignedOut(_ session: CaptureSession) throws(JumpError) {
        guard multiple else { return }
        try forget(session.settings.account)
    }

    // MARK: - AccountRouting

    func sessionToAdopt(uuid: String?, signingInOn source: CaptureSession) throws(JumpError) -> CaptureSession {
        if let uuid, let (_, session) = try slotOf(uuid: uuid) { return session }
        if source.accountSummary() == nil { return source }
        let slot = Secrets.accountSlot()
        return try session(inSlot: slot)
    }

    func adopted(_ session: CaptureSession) {
        let slot = session.settings.account
        slots.withLock { $0.sessions[slot] = session }
        activate(slot, session)
    }

    // MARK: - Slots

    private func activate(_ slot: String, _ session: CaptureSession) {
        let changed = slots.withLock { s -> Bool in
            defer { s.active = slot }
            return s.active != slot
        }
        let summary = session.accountSummary()
        do {
            try index.update { index in
                index.active = slot
                if let summary {
                    index.upsert(.init(slot: slot, uuid: summary.uuid, email: summary.email,
                                       displayName: summary.displayName, lastUsed: Clock.now()))
                }
            }
        } catch {
            Log.warning("the saved accounts could not be updated (\(error.message)): the switch holds for this client only")
        }
        if changed { events.emit(.accountSwitched(uuid: summary?.uuid)) }
    }

    /// Drops a slot whose user signed out or was removed: from the index, and from memory unless it is the
    /// first or the active one (which stays, empty, for the next sign-in).
    private func forget(_ slot: String) throws(JumpError) {
        try index.update { $0.remove(slot: slot) }
        slots.withLock { s in
            if !slot.isEmpty && s.active != slot { s.sessions[slot] = nil }
        }
    }

    /// The slot holding `uuid`'s session: in memory, or saved by another process (then made here).
    private func slotOf(uuid: String) throws(JumpError) -> (String, CaptureSession)? {
        let known = slots.withLock { $0.sessions }.first { $0.value.accountSummary()?.uuid == uuid }
        if let known { return (known.key, known.value) }
        guard let saved = try index.read().account(uuid: uuid) else { return nil }
        let session = try session(inSlot: saved.slot)
        return session.accountSummary()?.uuid == uuid ? (saved.slot, session) : nil
    }

    private func session(inSlot slot: String) throws(JumpError) -> CaptureSession {
        if let made = slots.withLock({ $0.sessions[slot] }) { return made }
        let session = try make(slot)
        session.accountRouting.set(self)
        return slots.withLock { s in
            if let first = s.sessions[slot] { return first }  // made meanwhile by another thread
            s.sessions[slot] = session
            return session
        }
    }

    private func notFound(_ uuid: String) -> JumpError {
        JumpError(.notFound, "no saved account has this uuid", detail: ["uuid": .string(uuid)])
    }
}

/// One saved account, as jump_client_accounts lists it.
public struct SavedAccount: Sendable {
    public let uuid: String
    public let email, displayName: String?
    /// True when the server refused to refresh its token: the user must sign in again to use it.
    public let reauthenticationRequired: Bool
    /// Whether the client's calls go to it.
    public let active: Bool
    /// Epoch seconds: its last sign-in or switch; nil in "single" mode, which keeps no index.
    public let lastUsed: Int64?

    init(_ summary: CaptureSession.AccountSummary, active: Bool, lastUsed: Int64?) {
        uuid = summary.uuid
        email = summary.email
        displayName = summary.displayName
        reauthenticationRequired = summary.reauthenticationRequired
        self.active = active
        self.lastUsed = lastUsed
    }
}

/// How a sign-in finds the session that adopts it (CaptureSession.startSession): the same user's saved
/// account, else the signing-in session when it is empty, else a new account's.
protocol AccountRouting: AnyObject, Sendable {
    func sessionToAdopt(uuid: String?, signingInOn source: CaptureSession) throws(JumpError) -> CaptureSession
    func adopted(_ session: CaptureSession)
}

/// A session's weak link to its client's accounts: none in "single" mode.
final class AccountRoutingLink: Sendable {
    private struct Weak { weak var target: (any AccountRouting)? }
    private let link = Lock(Weak())

    func set(_ target: any AccountRouting) { link.withLock { $0.target = target } }
    var target: (any AccountRouting)? { link.withLock { $0.target } }
}
