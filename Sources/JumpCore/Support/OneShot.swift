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

    /// Blocks (or parks) until set; nil only if a caller set nothing (never: `set` always stores a value).
    func wait() -> Value? {
        if let value = state.withLock({ $0.value }) { return value }
        let parked = Fiber.park { [state] waker in
            let ready = state.withLock { s -> Bool in
                if s.value != nil { return true }
                s.parked.append(waker)
                return false
            }
            if ready { waker.wake() }
        }
        if !parked {
            done.wait()
            done.signal()  // let the next waiter through too
        }
        return state.withLock { $0.value }
    }
}
