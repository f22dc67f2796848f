import Synchronization

/// What a C handle refers to. The C side holds an opaque token, never a Swift pointer: a token is looked up
/// in this table before anything is touched, so a freed, foreign or wrong-kind handle is an error code,
/// not a crash. Tokens are never reused, which makes use-after-free detectable.
enum HandleKind: String, Sendable {
    case config = "jump_config"
    case client = "jump_client"
    case record = "jump_record"
    case request = "jump_request"
}

final class HandleRegistry: Sendable {
    static let shared = HandleRegistry()

    private struct Entry {
        let kind: HandleKind
        let object: any Sendable & AnyObject
    }

    private struct Table {
        // Tokens start far from small integers and step by 16 so they look like aligned pointers.
        var next: UInt = 0x4A55_4D50_0000
        var entries: [UInt: Entry] = [:]
    }

    private let table = Mutex(Table())

    func register(_ object: some Sendable & AnyObject, as kind: HandleKind) -> OpaquePointer? {
        let token = table.withLock { t -> UInt in
            t.next &+= 16
            t.entries[t.next] = Entry(kind: kind, object: object)
            return t.next
        }
        return OpaquePointer(bitPattern: token)
    }

    func lookup<T: Sendable & AnyObject>(_ handle: OpaquePointer?, as kind: HandleKind, _ type: T.Type) throws(ABIError) -> T {
        guard let handle else { throw ABIError(.invalidHandle, "the \(kind.rawValue) handle is NULL") }
        let token = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
        let entry = table.withLock { $0.entries[token] }
        guard let entry else {
            throw ABIError(.invalidHandle, "the \(kind.rawValue) handle is not valid (already freed, or never created by libjump)")
        }
        guard entry.kind == kind, let object = entry.object as? T else {
            throw ABIError(.invalidHandle, "a \(entry.kind.rawValue) handle was passed where a \(kind.rawValue) handle is expected")
        }
        return object
    }

    /// Removes the handle; nil when it was not a live handle of that kind (a double free is harmless).
    @discardableResult
    func remove(_ handle: OpaquePointer?, as kind: HandleKind) -> (any Sendable & AnyObject)? {
        guard let handle else { return nil }
        let token = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
        return table.withLock { t -> (any Sendable & AnyObject)? in
            guard let entry = t.entries[token], entry.kind == kind else { return nil }
            t.entries[token] = nil
            return entry.object
        }
    }
}
