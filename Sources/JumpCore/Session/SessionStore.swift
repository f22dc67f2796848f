import Synchronization

/// Where a session is kept between runs. A read error must be thrown (never reported as "nothing saved"):
/// taking an unreadable keychain or disk for "signed out" logs users out and loses their edits.
public protocol SessionStore: Sendable {
    /// The saved bytes, or nil when nothing is saved.
    func load() throws(JumpError) -> [UInt8]?
    func save(_ bytes: [UInt8]) throws(JumpError)
    func erase() throws(JumpError)
}

/// Keeps the session in memory only (storageDirectory ":memory:").
public final class MemorySessionStore: SessionStore {
    private let bytes = Mutex<[UInt8]?>(nil)

    public init() {}

    public func load() throws(JumpError) -> [UInt8]? { bytes.withLock { $0 } }
    public func save(_ data: [UInt8]) throws(JumpError) { bytes.withLock { $0 = data } }
    public func erase() throws(JumpError) { bytes.withLock { $0 = nil } }
}
