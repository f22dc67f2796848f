/// Lets one operation at a time through a long step of a session (a sync, a flow load, a credential change),
/// which may hold it across network requests. A waiting thread blocks; a waiting fiber parks
/// (docs/design-io.md), so that a pool thread is never held by an operation that waits its turn. The gate
/// passes, still closed, to the first in line. A wait ends at the deadline the gate was made with (the
/// request timeout) in JUMP_E_TIMEOUT, so no call can wait for ever behind another. A gate closed by a
/// thread of the parent process is open in a forked child, where that thread does not exist
/// (docs/conventions.md, "Locks and fork").
public final class Gate: Sendable {
    private enum Waiter {
        case fiber(Waker)
        case thread(Semaphore)
    }

    private struct State {
        var epoch: UInt64
        var closed = false
        var line: [(ticket: UInt64, waiter: Waiter)] = []
        var nextTicket: UInt64 = 0
    }

    private let state = Lock(State(epoch: ForkSafety.epoch))
    /// How long an operation waits for its turn.
    private let waitMilliseconds: Int
    /// What the wait is for, in the timeout's message ("the record's sync").
    private let purpose: String

    public init(waitMilliseconds: Int = 30_000, purpose: String = "another operation") {
        self.waitMilliseconds = max(1, waitMilliseconds)
        self.purpose = purpose
    }

    /// Runs `body` with the gate closed to every other operation of this process.
    public func withLock<Result>(_ body: (inout Void) throws(JumpError) -> Result) throws(JumpError) -> Result {
        let epoch = ForkSafety.epoch
        try enter(epoch)
        defer { leave(epoch) }
        var nothing: Void = ()
        return try body(&nothing)
    }

    /// Closes the gate (nil), or joins the line: the ticket to wait with.
    private func closeOrQueue(_ epoch: UInt64, _ waiter: Waiter?) -> UInt64? {
        state.withLock { s -> UInt64? in
            if s.epoch != epoch { s = State(epoch: epoch) }
            if !s.closed {
                s.closed = true
                return nil
            }
            guard let waiter else { return 0 }
            s.nextTicket &+= 1
            s.line.append((s.nextTicket, waiter))
            return s.nextTicket
        }
    }

    /// After a wait: true when the gate was handed over; false when the ticket was still in line (the time
    /// ran out), which leaves the line.
    private func handedOver(_ ticket: UInt64) -> Bool {
        state.withLock { s -> Bool in
            guard let index = s.line.firstIndex(where: { $0.ticket == ticket }) else { return true }
            s.line.remove(at: index)
            return false
        }
    }

    private func enter(_ epoch: UInt64) throws(JumpError) {
        if closeOrQueue(epoch, nil) == nil { return }
        let deadline = Clock.monotonicMilliseconds() &+ Int64(waitMilliseconds)
        var ticket: UInt64? = nil
        let parked = Fiber.park(until: deadline) { [self] waker in
            ticket = closeOrQueue(epoch, .fiber(waker))
            if ticket == nil { waker.wake() }
        }
        if parked {
            guard let ticket else { return }
            if handedOver(ticket) { return }
            throw timedOut()
        }
        let turn = Semaphore()
        guard let queued = closeOrQueue(epoch, .thread(turn)) else { return }
        let signalled = FiberPool.blocking { turn.wait(milliseconds: waitMilliseconds) }
        if signalled || handedOver(queued) { return }
        throw timedOut()
    }

    private func timedOut() -> JumpError {
        JumpError(.timeout, "waited longer than the request timeout (\(waitMilliseconds) ms) for \(purpose) to finish",
                  detail: ["reason": "busy"])
    }

    private func leave(_ epoch: UInt64) {
        let next = state.withLock { s -> Waiter? in
            guard s.epoch == epoch else { return nil }  // closed before a fork: this child's gate is another
            guard !s.line.isEmpty else {
                s.closed = false
                return nil
            }
            return s.line.removeFirst().waiter
        }
        switch next {
        case .fiber(let waker): waker.wake()
        case .thread(let turn): turn.signal()
        case nil: break
        }
    }
}
