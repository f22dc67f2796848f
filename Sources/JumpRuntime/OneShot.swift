/// A value set once by one thread and awaited by any number of others (each gets the same value). A fiber
/// that awaits it parks (docs/design-io.md): the one refresh's completion wakes every operation waiting on it.
package final class OneShot<Value: Sendable>: Sendable {
    private let state = Lock<(value: Value?, waiting: [Wakeup])>((nil, []))

    package init() {}

    package func set(_ newValue: Value) {
        let waiting = state.withLock { s -> [Wakeup] in
            s.value = newValue
            defer { s.waiting = [] }
            return s.waiting
        }
        waiting.forEach { $0.wake() }
    }

    /// Blocks (or parks) until set. Only for waits on work that ends by itself (host code that libjump cannot
    /// interrupt, a wait with a timeout of its own); every other wait has a deadline.
    package func wait() -> Value? { wait(until: nil) }

    /// Blocks (or parks) until set, or until `deadline` (Clock.monotonicMilliseconds): nil when the time ran out.
    package func wait(until deadline: Int64?) -> Value? {
        if let value = state.withLock({ $0.value }) { return value }
        Wait.until(deadline) { [state] wakeup in
            let ready = state.withLock { s -> Bool in
                if s.value != nil { return true }
                s.waiting.append(wakeup)
                return false
            }
            if ready { wakeup.wake() }
        }
        return state.withLock { $0.value }
    }
}
