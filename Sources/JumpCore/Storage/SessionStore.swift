import JumpRuntime

/// Where a session is kept between runs. A read error must be thrown (never reported as "nothing saved"):
/// taking an unreadable keychain or disk for "signed out" logs users out and loses their edits.
public protocol SessionStore: Sendable {
    /// The saved bytes, or nil when nothing is saved.
    func load() throws(JumpError) -> [UInt8]?
    func save(_ bytes: [UInt8]) throws(JumpError)
    /// Saves what `produce` hands its emit function, piece by piece, as one entry (atomically, as `save`).
    func save(streaming produce: (_ emit: ([UInt8]) throws(JumpError) -> Void) throws(JumpError) -> Void) throws(JumpError)
    func erase() throws(JumpError)
    /// Adds bytes at the end of what is saved (the record journal). Stores without a cheap append load and
    /// save the whole entry.
    func append(_ bytes: [UInt8]) throws(JumpError)
    /// Whether append costs about the size of the bytes added (not of the whole entry).
    var appendsCheaply: Bool { get }
    /// Moves what is saved to `other` (which must be empty) without needing to read it where the store
    /// can (files are renamed); false when nothing was saved.
    func moveAside(to other: any SessionStore) throws(JumpError) -> Bool
    /// Runs `body` while no other process, and no other client of this process, runs one on this entry
    /// (an advisory lock for stores that processes share; design: docs/conventions.md, "Processes sharing
    /// a store"). Nested calls on one store, from any thread of its client, join the holder. JUMP_E_TIMEOUT
    /// when the lock cannot be had within `timeoutMilliseconds`.
    func withExclusiveAccess<Result>(timeoutMilliseconds: Int,
                                     _ body: () throws(JumpError) -> Result) throws(JumpError) -> Result
    /// Whether the entry was written by someone else since this store last read or wrote it (another
    /// process sharing the storage directory).
    var changedElsewhere: Bool { get }
}

extension SessionStore {
    /// For stores that keep whole entries: the pieces joined, then saved.
    public func save(streaming produce: (_ emit: ([UInt8]) throws(JumpError) -> Void) throws(JumpError) -> Void) throws(JumpError) {
        var whole: [UInt8] = []
        try produce { piece throws(JumpError) in whole += piece }
        try save(whole)
    }

    public func append(_ bytes: [UInt8]) throws(JumpError) {
        try save((try load() ?? []) + bytes)
    }

    public var appendsCheaply: Bool { false }

    /// Stores only this process uses (memory, host callbacks): the client's own locks suffice.
    public func withExclusiveAccess<Result>(timeoutMilliseconds: Int,
                                            _ body: () throws(JumpError) -> Result) throws(JumpError) -> Result {
        try body()
    }

    public var changedElsewhere: Bool { false }

    public func moveAside(to other: any SessionStore) throws(JumpError) -> Bool { try copyAside(to: other) }

    /// moveAside for stores that cannot rename: read, save there, erase here.
    func copyAside(to other: any SessionStore) throws(JumpError) -> Bool {
        guard let bytes = try load() else { return false }
        try other.save(bytes)
        try erase()
        return true
    }
}

/// The entries of an in-memory storage directory, by name.
final class MemoryStores: Sendable {
    private let stores = Lock<[String: MemorySessionStore]>([:])

    func store(_ name: String) -> MemorySessionStore {
        stores.withLock { all in
            if let existing = all[name] { return existing }
            let created = MemorySessionStore()
            all[name] = created
            return created
        }
    }
}

/// Keeps the session in memory only (storageDirectory ":memory:").
public final class MemorySessionStore: SessionStore {
    private let bytes = Lock<[UInt8]?>(nil)

    public init() {}

    public func load() throws(JumpError) -> [UInt8]? { bytes.withLock { $0 } }
    public func save(_ data: [UInt8]) throws(JumpError) { bytes.withLock { $0 = data } }
    public func erase() throws(JumpError) { bytes.withLock { $0 = nil } }
    public func append(_ data: [UInt8]) throws(JumpError) {
        bytes.withLock { stored in
            var all = stored ?? []
            stored = nil  // so `all` is the only reference and grows in place
            all.append(contentsOf: data)
            stored = all
        }
    }
    public var appendsCheaply: Bool { true }
}
