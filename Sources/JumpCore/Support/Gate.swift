/// Lets one operation at a time through a long step of a session (a sync, a flow load, a credential change),
/// which may hold it across network requests. A waiting thread blocks; a waiting fiber parks
/// (docs/design-io.md), so that a pool thread is never held by an operation that waits its turn. The gate
/// passes, still closed, to the first in line. A gate closed by a thread of the parent process is open in a
/// forked child, where that thread does not exist (docs/conventions.md, "Locks and fork").
public final class Gate: Sendable {
    private enum Waiter {
        case fiber(Waker)
        case thread(Semaphore)
    }

    private struct State {
        var epoch: UInt64
        var closed = false
        var line: [Waiter] = []
    }

    private let state = Lock(State(epoch: ForkSafety.epoch))

    public init() {}

    /// Runs `body` with the gate closed to every other operation of this process.
    public func withLock<Result, Failure: Error>(_ body: (inout Void) throws(Failure) -> Result) throws(Failure) -> Result {
        let epoch = ForkSafety.epoch
        enter(epoch)
        defer { leave(epoch) }
        var nothing: Void = ()
        return try body(&nothing)
    }

    /// Closes the gate, or joins the line: true when the gate was free.
    private func closeOrQueue(_ epoch: UInt64, _ waiter: Waiter) -> Bool {
        state.withLock { s -> Bool in
            if s.epoch != epoch { s = State(epoch: epoch) }
            if !s.closed {
                s.closed = true
                return true
            }
            s.line.append(waiter)
            return false
        }
    }

    private func enter(_ epoch: UInt64) {
        let free = state.withLock { s -> Bool in
            if s.epoch != epoch { s = State(epoch: epoch) }
            if s.closed { return false }
            s.closed = true
            return true
        }
        if free { return }
        let parked = Fiber.park { [self] waker in
            if closeOrQueue(epoch, .fiber(waker)) { waker.wake() }
        }
        if parked { return }
        let turn = Semaphore()
        if !closeOrQueue(epoch, .thread(turn)) { turn.wait() }
    }

    private func leave(_ epoch: UInt64) {
        let next = state.withLock { s -> Waiter? in
            guard s.epoch == epoch else { return nil }  // closed before a fork: this child's gate is another
            guard !s.line.isEmpty else {
                s.closed = false
                return nil
            }
            return s.line.removeFirst()
        }
        switch next {
        case .fiber(let waker): waker.wake()
        case .thread(let turn): turn.signal()
        case nil: break
        }
    }
}
