import Glibc

/// A counting semaphore whose timed waits use the monotonic clock (a wall-clock change neither shortens nor
/// stretches them). libjump's own instead of libdispatch's: `import Dispatch` alone links libdispatch and
/// _StringProcessing (1.3 MiB) into libjump.so.
public final class Semaphore: @unchecked Sendable {
    // pthread objects must not move once initialised: each lives in its own allocation, owned here.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var count: UInt  // guarded by mutex

    public init(value: UInt = 0) {
        count = value
        initializePrimitives()
    }

    /// Only in a forked child's fork handler, where no other thread exists: the parent's threads may have
    /// left the mutex held or the condition counting waiters that the child does not have (glibc's
    /// condition variable would wait for them), so both start anew, with `count` signals pending.
    public func resetAfterFork(count newCount: UInt) {
        count = newCount
        initializePrimitives()
    }

    private func initializePrimitives() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func signal() {
        pthread_mutex_lock(mutex)
        count &+= 1
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    public func wait() {
        pthread_mutex_lock(mutex)
        while count == 0 { pthread_cond_wait(condition, mutex) }
        count -= 1
        pthread_mutex_unlock(mutex)
    }

    /// true when signalled within `milliseconds` (0: only if it is signalled already).
    public func wait(milliseconds: Int) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let wait = max(0, milliseconds)
        deadline.tv_sec += wait / 1000
        deadline.tv_nsec += (wait % 1000) * 1_000_000
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_mutex_lock(mutex)
        while count == 0 {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        let signalled = count > 0
        if signalled { count -= 1 }
        pthread_mutex_unlock(mutex)
        return signalled
    }
}
