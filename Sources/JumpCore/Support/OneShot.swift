
/// A value set once by one thread and awaited by any number of others (each gets the same value).
final class OneShot<Value: Sendable>: Sendable {
    private let value = Lock<Value?>(nil)
    private let done = Semaphore()

    func set(_ newValue: Value) {
        value.withLock { $0 = newValue }
        done.signal()
    }

    /// Blocks until set; nil only if a caller set nothing (never: `set` always stores a value).
    func wait() -> Value? {
        done.wait()
        done.signal()  // let the next waiter through too
        return value.withLock { $0 }
    }
}
