import Glibc

/// Lets one thread at a time through a long step of a session (a sync, a flow load, a credential change),
/// which may hold it across network requests. A gate closed by a thread of the parent process is open in
/// a forked child, where that thread does not exist (docs/conventions.md, "Locks and fork"): each fork
/// epoch gets a mutex of its own.
public final class Gate: Sendable {
    private let current = Lock<(epoch: UInt64, mutex: StepMutex)>((ForkSafety.epoch, StepMutex()))

    public init() {}

    /// Runs `body` with the gate closed to every other thread of this process.
    public func withLock<Result, Failure: Error>(_ body: (inout Void) throws(Failure) -> Result) throws(Failure) -> Result {
        let epoch = ForkSafety.epoch
        let mutex = current.withLock { c -> StepMutex in
            if c.epoch != epoch { c = (epoch, StepMutex()) }
            return c.mutex
        }
        mutex.lock()
        defer { mutex.unlock() }
        var nothing: Void = ()
        return try body(&nothing)
    }
}

/// A pthread mutex held across a step rather than over a value (a `Lock<Void>` would do, but then the step's
/// code would run inside an access to the lock's empty value).
final class StepMutex: @unchecked Sendable {  // the mutex is only touched through pthread calls
    // pthread objects must not move once initialised: the mutex lives in its own allocation, owned here.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
