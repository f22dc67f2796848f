import CFiber
import Glibc

/// A value guarded by a pthread mutex: libjump's lock, in every module. Not `Synchronization.Mutex`: on
/// Linux that writes its owner as a thread id the runtime caches per thread, which in a forked child is
/// still the parent's, so the child's first contended lock traps (docs/conventions.md, "Locks and fork").
/// glibc's mutex takes the thread id from the thread itself, which the kernel gives the child anew.
///
/// A failed lock or unlock (which a normal mutex does not report) is never a trap.
public final class Lock<Value>: @unchecked Sendable {  // the value is touched only under the mutex
    // pthread objects must not move once initialised: the mutex lives in its own allocation, owned here.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        jumpi_lock_taken()  // counted, so that a fiber never parks holding it (Fiber.park)
        defer {
            jumpi_lock_released()
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// For fork handlers only (ForkSafety): the lock is taken in fork()'s prepare step and released in its
    /// parent or child step, by the thread that forks; `withValueWhileHeld` reads the value in between.
    public func lockForFork() { pthread_mutex_lock(mutex) }
    public func unlockAfterFork() { pthread_mutex_unlock(mutex) }
    public func withValueWhileHeld<Result>(_ body: (inout Value) -> Result) -> Result { body(&value) }
}

extension Lock {
    /// Appends `element` to a pool unless it holds `limit` already: true when kept.
    package func keep<Element>(_ element: Element, upTo limit: Int) -> Bool where Value == [Element] {
        withLock { pool -> Bool in
            guard pool.count < limit else { return false }
            pool.append(element)
            return true
        }
    }
}
