/// The saved accounts of a client whose `accounts` is "multiple": which slot holds whose session, when each
/// was last used, and which slot is active. No secret: each account's session keeps its own secrets in its
/// own entries (StorageEntryNames). Processes sharing the storage directory share it, and change it only
/// whole, under its lock (AccountIndexStore).
struct AccountIndex: Sendable, Equatable {
    struct Account: Sendable, Equatable {
        /// Names the account's entries on storage ("" for the first: a single-account client's names).
        var slot: String
        var uuid: String
        var email: String?
        var displayName: String?
        /// Epoch seconds: the account's last sign-in or switch.
        var lastUsed: Int64
    }

    /// The slot the client works with; it may hold no session (after its user signed out), and then the next
    /// sign-in goes there.
    var active = ""
    var accounts: [Account] = []

    func account(uuid: String) -> Account? { accounts.first { $0.uuid == uuid } }

    mutating func upsert(_ account: Account) {
        accounts.removeAll { $0.slot == account.slot || $0.uuid == account.uuid }
        accounts.append(account)
    }

    mutating func remove(slot: String) { accounts.removeAll { $0.slot == slot } }

    var json: JSON {
        .object([
            "version": 1, "active": .string(active),
            "accounts": .array(accounts.map { a in
                .object(["slot": .string(a.slot), "uuid": .string(a.uuid), "email": .optional(a.email),
                         "display_name": .optional(a.displayName), "last_used": .int(a.lastUsed)])
            }),
        ])
    }

    /// Lenient: an entry without a slot or uuid is left out (it names nothing that can be switched to).
    init(json: JSON) {
        // A slot names entries on storage: one with characters a name cannot hold is no slot of ours.
        let usable = { (slot: String) in slot.isEmpty || CaptureSettings.safeName(slot) == slot }
        active = json["active"]?.stringValue.flatMap { usable($0) ? $0 : nil } ?? ""
        accounts = (json["accounts"]?.arrayValue ?? []).compactMap { entry -> Account? in
            guard let slot = entry["slot"]?.stringValue, let uuid = entry["uuid"]?.stringValue, usable(slot) else { return nil }
            return Account(slot: slot, uuid: uuid, email: entry["email"]?.stringValue,
                           displayName: entry["display_name"]?.stringValue, lastUsed: entry["last_used"]?.intValue ?? 0)
        }
    }

    init() {}
}

/// The index's entry on storage, read and rewritten whole under the entry's lock, so that two processes that
/// add an account each both keep theirs.
struct AccountIndexStore: Sendable {
    let entry: any SessionStore
    let lockTimeoutMs: Int

    /// The index as saved; empty when nothing is saved yet.
    func read() throws(JumpError) -> AccountIndex {
        guard let bytes = try entry.load() else { return AccountIndex() }
        return AccountIndex(json: try Jansson.parse(bytes, what: "the saved accounts"))
    }

    /// Reads, changes and saves the index (only when the change changed it); returns the changed index.
    @discardableResult
    func update(_ change: (inout AccountIndex) -> Void) throws(JumpError) -> AccountIndex {
        try entry.withExclusiveAccess(timeoutMilliseconds: lockTimeoutMs) { () throws(JumpError) -> AccountIndex in
            let saved = try read()
            var index = saved
            change(&index)
            if index != saved { try entry.save(Jansson.serializedBytes(index.json)) }
            return index
        }
    }
}
