import Glibc
import Synchronization

/// Something libjump keeps for the whole process and must leave usable in both processes after fork():
/// its lock is taken before fork() (so no thread of the parent holds it at the moment of the copy) and
/// released after, in the parent and in the child.
public protocol ForkParticipant: AnyObject, Sendable {
    func forkPrepare()
    func forkParent()
    func forkChild()
}

extension Lock: ForkParticipant {
    public func forkPrepare() { lockForFork() }
    public func forkParent() { unlockAfterFork() }
    public func forkChild() { unlockAfterFork() }
}

/// libjump inside a process that forks (docs/conventions.md, "Locks and fork"). pthread_atfork handlers,
/// installed once, take every process-wide lock before fork() and release them after, in registration
/// order and its reverse; no process-wide lock is taken while another is held, so the order cannot deadlock.
///
/// In the child only the thread that forked exists. The epoch changes there, so that a gate or a refresh
/// flight owned by a thread of the parent counts as free or abandoned instead of being waited for. The work
/// registered with `onChild` (in-flight requests complete with JUMP_E_CANCELLED, which starts the callback
/// thread) waits until the child first calls libjump (`runDeferredChildWork`): a child that only execs, as
/// every subprocess a host spawns does, must stay a plain copy with no thread of libjump's racing its own
/// steps before exec.
public enum ForkSafety {
    /// 0 in the process that loaded libjump, one more in each forked child.
    public static var epoch: UInt64 { epochValue.load(ordering: .acquiring) }

    /// Registers a process-wide participant (a lock made at start-up, the handle table). Returns it, so a
    /// `static let` can register its lock where it makes it.
    @discardableResult
    public static func processWide<P: ForkParticipant>(_ participant: P) -> P {
        registry.withLock { $0.participants.append(participant) }
        return participant
    }

    /// Work for a forked child, run the first time the child calls libjump (runDeferredChildWork).
    public static func onChild(_ work: @escaping @Sendable () -> Void) {
        registry.withLock { $0.childWork.append(work) }
    }

    private struct Registry {
        var participants: [any ForkParticipant] = []
        var childWork: [@Sendable () -> Void] = []
        /// What this child has still to run (set inside fork(), run at the first call into libjump).
        var deferred: [@Sendable () -> Void] = []
    }

    private static let childWorkPending = Atomic<Bool>(false)

    /// Runs the child's deferred work, once; every entry point that takes a handle calls it. One atomic load
    /// when there is none (always, outside a forked child).
    public static func runDeferredChildWork() {
        guard childWorkPending.load(ordering: .acquiring),
              childWorkPending.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let work = registry.withLock { r -> [@Sendable () -> Void] in
            defer { r.deferred = [] }
            return r.deferred
        }
        work.forEach { $0() }
    }

    private static let epochValue = Atomic<UInt64>(0)

    /// The handlers are installed with the registry, before its first participant.
    private static let registry: Lock<Registry> = {
        pthread_atfork({ ForkSafety.prepare() }, { ForkSafety.parent() }, { ForkSafety.child() })
        return Lock(Registry())
    }()

    private static func prepare() {
        registry.lockForFork()
        registry.withValueWhileHeld { $0.participants.forEach { $0.forkPrepare() } }
    }

    private static func parent() {
        registry.withValueWhileHeld { $0.participants.reversed().forEach { $0.forkParent() } }
        registry.unlockAfterFork()
    }

    private static func child() {
        epochValue.add(1, ordering: .acquiringAndReleasing)
        let pending = registry.withValueWhileHeld { r -> Bool in
            r.participants.reversed().forEach { $0.forkChild() }
            r.deferred = r.childWork
            return !r.deferred.isEmpty
        }
        registry.unlockAfterFork()
        childWorkPending.store(pending, ordering: .releasing)
    }
}
