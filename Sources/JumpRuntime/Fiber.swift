import CFiber
import Glibc

/// An `_async` operation's own stack (docs/design-io.md). The operation's code is the same code a synchronous
/// call runs; where that call would block its thread (a request on the wire, a refresh flight, a gate, a
/// pause), a fiber parks instead and gives its pool thread to another fiber, and whatever it waited for
/// wakes it, on the same thread (FiberPool). Nothing parks while its thread holds a `Lock` (`mayPark`: the
/// locks are counted): a fiber run meanwhile on that thread could wait for a mutex its own thread holds.
public final class Fiber: @unchecked Sendable {  // `afterSwitch` is touched only by the thread running the fiber,
                                                 // `home` and `pinned` under the pool's lock
    /// Reserved per fiber, touched only as used: what a "jump-work" thread had (records are walked, answers
    /// parsed, bounded by JUMP_JSON_MAX_DEPTH). Host code never runs on it (`onThreadStack`).
    static let stackBytes = 1 << 20

    fileprivate let raw: OpaquePointer
    private let job: @Sendable () -> Void

    /// What the pool thread does once the fiber is off its stack.
    enum AfterSwitch {
        /// Waits: `arrange` gets the waker that puts the fiber back in the pool's queue.
        case park((Waker) -> Void)
        /// Runs `body` on the thread's own stack, then goes on with the fiber on the same thread.
        case runHere(() -> Void)
    }
    var afterSwitch: AfterSwitch?
    /// The pool thread the fiber runs on, and goes on on when woken.
    var home: PoolThread?
    /// Set once it has run host code: from then on it never leaves `home`, even while `home` is blocked.
    var pinned = false

    /// nil when the system gives no memory for the stack.
    init?(_ job: @escaping @Sendable () -> Void) {
        self.job = job
        // The fiber's argument is this object, unretained: the pool holds it until it finishes.
        guard let raw = jumpi_fiber_new(Self.stackBytes, { argument in
            guard let argument else { return }
            Unmanaged<Fiber>.fromOpaque(argument).takeUnretainedValue().job()
        }, nil) else { return nil }
        self.raw = raw
        jumpi_fiber_set_argument(raw, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { jumpi_fiber_free(raw) }

    /// Runs the fiber on this thread: true once it has finished, false when it parked or asks for a step
    /// on the thread's stack (`afterSwitch`).
    func resume() -> Bool { jumpi_fiber_resume(raw) != 0 }

    /// The fiber running on this thread; nil on a thread's own stack.
    package static var current: Fiber? {
        guard let argument = jumpi_fiber_current_argument() else { return nil }
        return Unmanaged<Fiber>.fromOpaque(argument).takeUnretainedValue()
    }

    /// Whether the caller runs on a fiber.
    package static var isRunning: Bool { jumpi_fiber_current_argument() != nil }

    /// Whether the caller may park: it runs on a fiber and holds no `Lock`. Anywhere else it blocks, as a
    /// thread does (a wait under a lock, such as the shared store's flock taken inside a save, is bounded by
    /// the request timeout).
    package static var mayPark: Bool { isRunning && jumpi_locks_held_here() == 0 }

    /// Parks the running fiber: `arrange` runs on the pool thread's stack once the fiber is off it, and sees
    /// to it that the waker is woken exactly once, from any thread. Returns when woken (true), or at once
    /// (false) where the caller may not park (`mayPark`), when it must wait its own way.
    package static func park(_ arrange: @escaping (Waker) -> Void) -> Bool {
        guard jumpi_locks_held_here() == 0, let fiber = current else { return false }
        return fiber.suspend(arrange)
    }

    /// Parks like `park`, and is woken at `deadline` (Clock.monotonicMilliseconds) at the latest: the caller
    /// tells which woke it. false where it may not park, or no I/O loop keeps the time.
    package static func park(until deadline: Int64, _ arrange: @escaping (Waker) -> Void) -> Bool {
        guard jumpi_locks_held_here() == 0, let fiber = current, let loop = IOLoop.shared else { return false }
        return fiber.suspend { waker in
            arrange(waker)
            loop.wake(waker, at: deadline)  // after: a waiter put in line by `arrange` is there when it fires
        }
    }

    private func suspend(_ arrange: @escaping (Waker) -> Void) -> Bool {
        let fiber = self
        fiber.afterSwitch = .park(arrange)
        guard jumpi_fiber_suspend() == 0 else {
            fiber.afterSwitch = nil
            return false
        }
        return true
    }

    /// Waits `milliseconds`: a fiber parks on the I/O loop's clock, a thread sleeps.
    package static func pause(milliseconds: Int) {
        let milliseconds = min(max(0, milliseconds), 60_000)
        Wait.until(Clock.monotonicMilliseconds() &+ Int64(milliseconds)) { _ in }  // nothing wakes it but the time
    }

    /// Runs `body` on a thread of its own while the fiber parks: for host code that may block for long
    /// (`open_url` may wait until the browser is closed), which on a pool thread would hold up every other
    /// operation of the process. Outside a fiber it is a plain call.
    public static func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        guard mayPark else { return body() }
        let outcome = OneShot<Result>()
        guard WorkerThread.start(named: "jump-work", { outcome.set(body()) }), let result = outcome.wait() else {
            return onThreadStack(body)  // no thread to be had
        }
        return result
    }

    /// Runs `body` on the thread's own stack: host code (storage callbacks, a dispatcher, the log callback)
    /// never runs on a fiber's stack, which a host runtime's stack scanning or thread-state lookups would not
    /// know. The fiber stays on the same thread throughout, so a lock held around this call stays held by
    /// that thread. Outside a fiber it is a plain call.
    public static func onThreadStack<Result>(_ body: () -> Result) -> Result {
        guard let fiber = current else { return body() }
        var result: Result? = nil
        withoutActuallyEscaping(body) { body in
            fiber.afterSwitch = .runHere { result = body() }
            if jumpi_fiber_suspend() != 0 { fiber.afterSwitch = nil }
        }
        if let result { return result }
        return body()  // the switch failed: run it here rather than not at all
    }
}

/// Puts a parked fiber back in its pool's queue: once.
package final class Waker: Sendable {
    private let target: Lock<(fiber: Fiber, pool: FiberPool)?>

    package init(_ fiber: Fiber, _ pool: FiberPool) { target = Lock((fiber, pool)) }

    package func wake() {
        guard let (fiber, pool) = target.withLock({ t -> (Fiber, FiberPool)? in defer { t = nil }; return t }) else { return }
        pool.enqueue(fiber)
    }
}
