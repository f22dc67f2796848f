/// A value guarded by a lock whose waiters park (docs/design-io.md, "Waiting"): a fiber that waits gives its
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

    private enum Waiter {
        case fiber(Waker)
        case thread(Semaphore)
    }

    private struct Line {
        var epoch: UInt64
        var held = false
        var waiting: [(ticket: UInt64, waiter: Waiter)] = []
        var nextTicket: UInt64 = 0
    }

    private let line = Lock(Line(epoch: ForkSafety.epoch))
    private var value: Value
    /// Told of every release, with the value and whether the lock passed to a waiter rather than became free.
    private let released: (@Sendable (Value, _ handedOver: Bool) -> Void)?

    /// `released` runs at every release, under the lock's own mutex (it must not take this lock): it lets a
    /// reader that must not wait see the value while the next holder has yet to run.
    public init(_ value: Value, released: (@Sendable (Value, _ handedOver: Bool) -> Void)? = nil) {
        self.value = value
        self.released = released
    }

    /// Runs `body` holding the lock, however long the wait.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        let epoch = ForkSafety.epoch
        _ = acquire(epoch, deadline: nil, cancellation: nil)  // without a deadline or a cancellation it gets in
        defer { release(epoch) }
        return try body(&value)
    }

    /// Runs `body` holding the lock, or throws `ended(why)` when `deadline` (Clock.monotonicMilliseconds)
    /// passes or `cancellation` comes first.
    public func withLock<Result>(deadline: Int64?, cancellation: Cancellation?, ended: (WaitEnd) -> JumpError,
                                 _ body: (inout Value) throws(JumpError) -> Result) throws(JumpError) -> Result {
        let epoch = ForkSafety.epoch
        if let why = acquire(epoch, deadline: deadline, cancellation: cancellation) { throw ended(why) }
        defer { release(epoch) }
        return try body(&value)
    }

    /// Runs `body` holding the lock when nobody holds it; nil, at once, when somebody does.
    public func withLockIfFree<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result? {
        let epoch = ForkSafety.epoch
        guard takeOrQueue(epoch, nil) == nil else { return nil }
        defer { release(epoch) }
        return try body(&value)
    }

    /// Takes the lock (nil), or joins the line: the ticket to wait with (0 for no waiter: not queued).
    private func takeOrQueue(_ epoch: UInt64, _ waiter: Waiter?) -> UInt64? {
        line.withLock { l -> UInt64? in
            if l.epoch != epoch { l = Line(epoch: epoch) }
            if !l.held {
                l.held = true
                return nil
            }
            guard let waiter else { return 0 }
            l.nextTicket &+= 1
            l.waiting.append((l.nextTicket, waiter))
            return l.nextTicket
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
        let arrange = { [self] (waker: Waker) in
            ticket = takeOrQueue(epoch, .fiber(waker))
            if ticket == nil {
                waker.wake()
            } else {
                cancellation?.whenCancelled { waker.wake() }
            }
        }
        let parked = deadline.map { Fiber.park(until: $0, arrange) } ?? Fiber.park(arrange)
        if parked {
            cancellation?.whenCancelled(nil)
            guard let ticket, !handedOver(ticket) else { return nil }
            return cancellation?.isCancelled == true ? .cancelled : .deadline
        }
        let turn = Semaphore()
        guard let queued = takeOrQueue(epoch, .thread(turn)) else { return nil }
        cancellation?.whenCancelled { turn.signal() }
        defer { cancellation?.whenCancelled(nil) }
        FiberPool.blocking {
            if let deadline {
                _ = turn.wait(milliseconds: Int(max(0, min(deadline - Clock.monotonicMilliseconds(), Int64(Int32.max)))))
            } else {
                turn.wait()
            }
        }
        if handedOver(queued) { return nil }
        return cancellation?.isCancelled == true ? .cancelled : .deadline
    }

    private func release(_ epoch: UInt64) {
        let next = line.withLock { l -> Waiter? in
            guard l.epoch == epoch else { return nil }  // taken before a fork: this child's lock is another
            released?(value, !l.waiting.isEmpty)
            guard !l.waiting.isEmpty else {
                l.held = false
                return nil
            }
            return l.waiting.removeFirst().waiter
        }
        switch next {
        case .fiber(let waker): waker.wake()
        case .thread(let turn): turn.signal()
        case nil: break
        }
    }
}
