import Glibc
import JumpCore
import JumpRuntime
import Synchronization

public typealias CCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
public typealias CFree = @convention(c) (UnsafeMutableRawPointer?) -> Void
public typealias CJob = @convention(c) (UnsafeMutableRawPointer?) -> Void
public typealias CDispatch = @convention(c) (UnsafeMutableRawPointer?, CJob?, UnsafeMutableRawPointer?) -> Void

/// A host callback with its userdata. userdata_free runs exactly once, when libjump drops the last
/// reference (after the final delivery that holds it), on `releaseThread` when one is given: host code
/// then only ever runs on threads libjump owns, never on a libdispatch worker.
final class CallbackTarget: @unchecked Sendable {
    private let callback: CCallback?
    private let userdata: UnsafeMutableRawPointer?
    private let userdataFree: CFree?
    private let releaseThread: CallbackThread?
    /// userdata_free has run (it runs once: here, or where releaseUserdataHere was called).
    private let freed = Atomic<Bool>(false)

    init(_ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?, _ userdataFree: CFree?,
         releaseOn releaseThread: CallbackThread? = nil) {
        self.callback = callback
        self.userdata = userdata
        self.userdataFree = userdataFree
        self.releaseThread = releaseThread
    }

    var isEmpty: Bool { callback == nil }

    func invoke(_ text: String) {
        guard let callback else { return }
        CallbackScope.enter()
        text.withCString { callback(userdata, $0) }
        CallbackScope.leave()
    }

    /// Runs userdata_free now, on the calling thread (queue mode: the thread that pumps), not at release.
    func releaseUserdataHere() {
        guard let userdataFree, !freed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        userdataFree(userdata)
    }

    deinit {
        guard let userdataFree, !freed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Host code: never on a fiber's stack (the last reference may go inside an _async operation).
        guard let releaseThread else { return Fiber.onThreadStack { userdataFree(userdata) } }
        let pending = PendingFree(free: userdataFree, userdata: userdata)
        releaseThread.post { pending.free(pending.userdata) }
    }
}

/// userdata_free and its argument, carried to the thread that runs it.
private struct PendingFree: @unchecked Sendable {
    let free: CFree
    let userdata: UnsafeMutableRawPointer?
}

/// Whether the current thread is inside a libjump callback (blocking waits there would deadlock).
enum CallbackScope {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var isInside: Bool { pthread_getspecific(key) != nil }

    static func enter() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth + 1)) }

    static func leave() { pthread_setspecific(key, depth > 1 ? UnsafeRawPointer(bitPattern: depth - 1) : nil) }

    private static var depth: Int { Int(bitPattern: pthread_getspecific(key)) }
}

/// A host dispatcher: libjump hands it jobs; the host runs each exactly once on a thread of its choice.
struct HostDispatcher: @unchecked Sendable {
    let dispatch: CDispatch
    let context: UnsafeMutableRawPointer?

    func post(_ job: @escaping @Sendable () -> Void) {
        let job = Unmanaged.passRetained(HostJob(job)).toOpaque()
        Fiber.onThreadStack { dispatch(context, runHostJob, job) }
    }
}

private final class HostJob {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

private let runHostJob: CJob = { pointer in
    guard let pointer else { return }
    Unmanaged<HostJob>.fromOpaque(pointer).takeRetainedValue().run()
}
