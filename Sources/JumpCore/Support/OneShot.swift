/// A value set once by one thread and awaited by any number of others (each gets the same value). A fiber
/// that awaits it parks (docs/design-io.md): the one refresh's completion wakes every operation waiting on it.
final class OneShot<Value: Sendable>: Sendable {
    private let state = Lock<(value: Value?, parked: [Waker])>((nil, []))
    private let done = Semaphore()

    func set(_ newValue: Value) {
        let parked = state.withLock { s -> [Waker] in
            s.value = newValue
            defer { s.parked = [] }
            return s.parked
        }
        done.signal()
        parked.forEach { $0.wake() }
    }

    /// Blocks (or parks) until set. Only for waits on work that ends by itself (host code that libjump cannot
    /// interrupt, a wait with a timeout of its own); every other wait has a deadline.
    func wait() -> Value? { wait(until: nil) }

    /// Blocks (or parks) until set, or until `deadline` (Clock.monotonicMilliseconds): nil when the time ran out.
    func wait(until deadline: Int64?) -> Value? {
        if let value = state.withLock({ $0.value }) { return value }
        let arrange: (Waker) -> Void = { [state] waker in
            let ready = state.withLock { s -> Bool in
                if s.value != nil { return true }
                s.parked.append(waker)
                return false
            }
            if ready { waker.wake() }
        }
        let parked = if let deadline { Fiber.park(until: deadline, arrange) } else { Fiber.park(arrange) }
        if !parked {
            FiberPool.blocking {
                if let deadline {
                    let left = Int(clamping: max(0, deadline - Clock.monotonicMilliseconds()))
                    if done.wait(milliseconds: left) { done.signal() }  // let the next waiter through too
                } else {
                    done.wait()
                    done.signal()
                }
            }
        }
        return state.withLock { $0.value }
    }
}
