/// Lets one thread at a time through a long step of a session (a sync, a flow load, a credential change),
/// which may hold it across network requests. A gate closed by a thread of the parent process is open in
/// a forked child, where that thread does not exist (docs/conventions.md, "Locks and fork"): each fork
/// epoch gets a lock of its own.
public final class Gate: Sendable {
    private let current = Lock<(epoch: UInt64, lock: Lock<Void>)>((ForkSafety.epoch, Lock(())))

    public init() {}

    /// Runs `body` with the gate closed to every other thread of this process.
    public func withLock<Result, Failure: Error>(_ body: (inout Void) throws(Failure) -> Result) throws(Failure) -> Result {
        let epoch = ForkSafety.epoch
        let lock = current.withLock { c -> Lock<Void> in
            if c.epoch != epoch { c = (epoch, Lock(())) }
            return c.lock
        }
        return try lock.withLock(body)
    }
}
