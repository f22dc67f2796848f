import JumpCore
import JumpRuntime

public typealias CStorageSink = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UInt) -> Void
public typealias CStorageLoad = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, CStorageSink?, UnsafeMutableRawPointer?) -> Int32
public typealias CStorageSave = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt) -> Int32
public typealias CStorageErase = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32

/// The host's storage callbacks (jump_config_set_storage). context_free runs once, when the last config or
/// client holding them goes, on a libjump thread (host code never runs on a thread pool worker). From an
/// _async operation they run on its pool thread's own stack, never a fiber's (Fiber.onThreadStack).
final class HostStorage: @unchecked Sendable {
    fileprivate let load: CStorageLoad
    fileprivate let save: CStorageSave
    fileprivate let erase: CStorageErase
    fileprivate let context: UnsafeMutableRawPointer?
    private let contextFree: CFree?

    init(load: CStorageLoad, save: CStorageSave, erase: CStorageErase, context: UnsafeMutableRawPointer?, contextFree: CFree?) {
        self.load = load
        self.save = save
        self.erase = erase
        self.context = context
        self.contextFree = contextFree
    }

    deinit {
        guard let contextFree else { return }
        let pending = UnsafeSendable(free: contextFree, context: context)
        CallbackThread.shared.post { pending.free(pending.context) }
    }

    /// One entry of the host's store, seen as a JumpCore session store.
    func entry(_ key: String) -> any SessionStore { HostStorageEntry(storage: self, key: key) }
}

private struct UnsafeSendable: @unchecked Sendable {
    let free: CFree
    let context: UnsafeMutableRawPointer?
}

private struct HostStorageEntry: SessionStore {
    let storage: HostStorage
    let key: String

    func load() throws(JumpError) -> [UInt8]? {
        let sink = LoadedBytes()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        let status = Fiber.onThreadStack { key.withCString { storage.load(storage.context, $0, receiveLoadedBytes, context.toOpaque()) } }
        switch status {
        case JumpStatus.ok.rawValue:
            let (bytes, received, tooLarge) = sink.state.withLock { ($0.bytes, $0.received, $0.tooLarge) }
            if tooLarge { throw failure("gave more than 64 MiB for", status) }
            guard received else { throw failure("returned JUMP_OK without passing any data to the sink for", status) }
            return bytes
        case JumpStatus.notFound.rawValue:
            return nil
        default:
            throw failure("could not load", status)
        }
    }

    func save(_ bytes: [UInt8]) throws(JumpError) {
        let status = Fiber.onThreadStack {
            key.withCString { key in
                bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { storage.save(storage.context, key, $0.baseAddress ?? key, UInt($0.count)) }
                }
            }
        }
        if status != JumpStatus.ok.rawValue { throw failure("could not save", status) }
    }

    func erase() throws(JumpError) {
        let status = Fiber.onThreadStack { key.withCString { storage.erase(storage.context, $0) } }
        if status != JumpStatus.ok.rawValue && status != JumpStatus.notFound.rawValue { throw failure("could not erase", status) }
    }

    private func failure(_ what: String, _ status: Int32) -> JumpError {
        let name = JumpStatus(rawValue: status)?.name ?? "status \(status)"
        return JumpError(.storage, "the host storage \(what) '\(key)' (\(name))", detail: ["storage_status": .int(Int64(status))])
    }
}

/// What a host callback hands to a sink (storage loads, identify answers).
final class LoadedBytes: Sendable {
    struct State {
        var bytes: [UInt8] = []
        var received = false
        var tooLarge = false
    }
    let state = Lock(State())
}

let receiveLoadedBytes: CStorageSink = { context, data, length in
    guard let context else { return }
    let sink = Unmanaged<LoadedBytes>.fromOpaque(context).takeUnretainedValue()
    sink.state.withLock { s in
        s.received = true
        guard let count = Int(exactly: length), count <= (64 << 20) - s.bytes.count else {
            s.tooLarge = true
            return
        }
        if let data, count > 0 {
            s.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        }
    }
}
