import Synchronization

/// A value guarded by a lock whose waiters park (docs/design-io.md, "A client's state"): a fiber that waits gives its
/// pool thread to other work, and a thread that waits blocks inside FiberPool.blocking, so the pool knows
/// and makes up for it. A `Lock` (a pthread mutex) is for a few instructions; this is for what may be held
/// across host code or disk I/O, such as a client's state during a save.
///
/// The lock is held by an operation, not by a thread: its holder may park, run host code on its thread's
/// stack or wait for I/O. It passes, still held, to the first in line, so waiters get in in the order they
/// came. A wait may end at a deadline or at a cancellation. A lock held by a thread of the parent process is
/// free in a forked child, where that thread does not exist (docs/conventions.md, "Locks and fork").
public final class ParkingLock<Value>: @unchecked Sendable {  // `value` is touched only by the holder
    /// Why a wait ended without the lock.
    public enum WaitEnd: Sendable { case deadline, cancelled }

    private struct Line {
        var epoch: UInt64
        var waiting: [(ticket: UInt64, waiter: Wakeup)] = []
        var nextTicket: UInt64 = 0
    }

    /// Free, held, or held with a line that may not be empty. Taking a free lock and freeing one nobody waits
    /// for is one compare-and-swap each: the line's mutex is touched only when there is a line.
    private static var free: UInt8 { 0 }
    private static var held: UInt8 { 1 }
    private static var heldWithLine: UInt8 { 2 }
    private let word = Atomic<UInt8>(0)
    /// The fork epoch `word` belongs to: a lock held by a thread of the parent is free in a child.
    private let wordEpoch = Atomic<UInt64>(ForkSafety.epoch)
    /// The waiters, in order; changed only under its mutex, as is `word` from `free` to anything but `held`.
    private let line = Lock(Line(epoch: ForkSafety.epoch))
    /// The guarded value, in its own allocation: touched only by the holder, through the pointer (no
    /// exclusivity bookkeeping, which the lock makes redundant; and a value of no size, as a Gate's, has an
    /// address of its own).
    private let value: UnsafeMutablePointer<Value>
    /// Told when the lock passes to a waiter, with the value its holder left.
    private let handedOver: (@Sendable (borrowing Value) -> Void)?
    /// Told when the lock becomes free.
    private let freed: (@Sendable () -> Void)?

    /// `handedOver` and `freed` run at a release, under the lock's own mutex (they must not take this lock):
    /// they let a reader that must not wait see the value while the next holder has yet to run.
    public init(_ value: Value, handedOver: (@Sendable (borrowing Value) -> Void)? = nil, freed: (@Sendable () -> Void)? = nil) {
        self.value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        self.value.initialize(to: value)
        self.handedOver = handedOver
        self.freed = freed
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` holding the lock, however long the wait.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        let epoch = ForkSafety.epoch
        _ = acquire(epoch, deadline: nil, cancellation: nil)  // without a deadline or a cancellation it gets in
        defer { release(epoch) }
        return try body(&value.pointee)
    }

    /// Runs `body` holding the lock, or throws `ended(why)` when `deadline` (Clock.monotonicMilliseconds)
    /// passes or `cancellation` comes first.
    public func withLock<Result, Failure: Error>(deadline: Int64?, cancellation: Cancellation?, ended: (WaitEnd) -> Failure,
                                                 _ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        let epoch = ForkSafety.epoch
        if let why = acquire(epoch, deadline: deadline, cancellation: cancellation) { throw ended(why) }
        defer { release(epoch) }
        return try body(&value.pointee)
    }

    /// Runs `body` holding the lock when nobody holds it; nil, at once, when somebody does.
    @inline(__always)
    public func withLockIfFree<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result? {
        let epoch = ForkSafety.epoch
        guard takeOrQueue(epoch, nil) == nil else { return nil }
        defer { release(epoch) }
        return try body(&value.pointee)
    }

    /// Takes the lock (nil), or joins the line: the ticket to wait with (0 for no waiter: not queued).
    @inline(__always)
    private func takeOrQueue(_ epoch: UInt64, _ waiter: Wakeup?) -> UInt64? {
        if wordEpoch.load(ordering: .acquiring) == epoch,
           word.compareExchange(expected: Self.free, desired: Self.held, ordering: .acquiring).exchanged {
            return nil
        }
        return takeOrQueueSlowly(epoch, waiter)
    }

    private func takeOrQueueSlowly(_ epoch: UInt64, _ waiter: Wakeup?) -> UInt64? {
        line.withLock { l -> UInt64? in
            if l.epoch != epoch {
                l = Line(epoch: epoch)
                word.store(Self.free, ordering: .releasing)
                wordEpoch.store(epoch, ordering: .releasing)
            }
            while true {
                let now = word.load(ordering: .acquiring)
                if now == Self.free {
                    if word.compareExchange(expected: Self.free, desired: Self.held, ordering: .acquiring).exchanged { return nil }
                    continue
                }
                guard let waiter else { return 0 }
                // Marked before joining: a holder that frees the lock from now on goes through the line.
                if now == Self.held,
                   !word.compareExchange(expected: Self.held, desired: Self.heldWithLine, ordering: .acquiringAndReleasing).exchanged {
                    continue
                }
                l.nextTicket &+= 1
                l.waiting.append((l.nextTicket, waiter))
                return l.nextTicket
            }
        }
    }

    /// After a wait: true when the lock was handed over; false when the ticket was still in line, which
    /// leaves the line.
    private func handedOver(_ ticket: UInt64) -> Bool {
        line.withLock { l -> Bool in
            guard let index = l.waiting.firstIndex(where: { $0.ticket == ticket }) else { return true }
            l.waiting.remove(at: index)
            return false
        }
    }

    /// nil once held; why the wait ended otherwise.
    private func acquire(_ epoch: UInt64, deadline: Int64?, cancellation: Cancellation?) -> WaitEnd? {
        if takeOrQueue(epoch, nil) == nil { return nil }
        if cancellation?.isCancelled == true { return .cancelled }
        var ticket: UInt64? = nil
        Wait.until(deadline) { [self] wakeup in
            ticket = takeOrQueue(epoch, wakeup)
            if ticket == nil {
                wakeup.wake()
            } else {
                cancellation?.whenCancelled { wakeup.wake() }
            }
        }
        cancellation?.whenCancelled(nil)
        guard let ticket, !handedOver(ticket) else { return nil }
        return cancellation?.isCancelled == true ? .cancelled : .deadline
    }

    @inline(__always)
    private func release(_ epoch: UInt64) {
        guard wordEpoch.load(ordering: .acquiring) == epoch else { return }  // taken before a fork: this child's lock is another
        if word.load(ordering: .relaxed) == Self.held {
            freed?()  // before the lock is free: the next holder's own publishing must not be undone
            if word.compareExchange(expected: Self.held, desired: Self.free, ordering: .releasing).exchanged { return }
        }
        releaseSlowly(epoch)
    }

    private func releaseSlowly(_ epoch: UInt64) {
        let next = line.withLock { l -> Wakeup? in
            guard l.epoch == epoch else { return nil }
            guard !l.waiting.isEmpty else {
                freed?()
                word.store(Self.free, ordering: .releasing)
                return nil
            }
            handedOver?(value.pointee)
            let next = l.waiting.removeFirst().waiter
            if l.waiting.isEmpty { word.store(Self.held, ordering: .releasing) }  // held by `next`, nobody in line
            return next
        }
        next?.wake()
    }
}
