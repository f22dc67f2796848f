import Glibc

/// The threads ("jump-work") that run fibers: at most as many as the machine has cores, made when work
/// arrives and ended after a few idle seconds, whatever the number of clients or operations in flight
/// (docs/design-io.md). A fiber runs until it parks; its pool thread then takes the next ready fiber.
/// Storage steps (an fsync, a host storage callback, a Secret Service call) run here, never on the I/O loop.
public final class FiberPool: ForkParticipant {
    public static let shared = ForkSafety.processWide(FiberPool())

    private struct Queue {
        var ready = FIFO<Fiber>()
        var threads = 0
        var idle = 0
    }

    private let queue = Lock(Queue())
    private let wakeup = Semaphore()
    let threadLimit = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    static let idleSeconds = 5

    private init() {}

    /// Runs `job` on a fiber of its own; where the system gives no memory for one, on a thread of its own.
    public func start(_ job: @escaping @Sendable () -> Void) {
        guard let fiber = Fiber(job) else {
            WorkerThread.start(job)
            return
        }
        enqueue(fiber)
    }

    func enqueue(_ fiber: Fiber) {
        let spawn = queue.withLock { q -> Bool in
            q.ready.append(fiber)
            guard q.ready.count > q.idle, q.threads < threadLimit else { return false }
            q.threads += 1
            return true
        }
        wakeup.signal()
        if spawn { startThread() }
    }

    /// Host code runs on this thread's stack (Fiber.onThreadStack): 1 MiB, as WorkerThread gives.
    private func startThread() {
        if !WorkerThread.start(named: "jump-work", { [self] in work() }) {
            // No thread to be had: the fibers wait for a pool thread that exists, or run on this one.
            let alone = queue.withLock { q -> Bool in
                q.threads -= 1
                return q.threads == 0
            }
            // Never on a fiber or the I/O loop's thread: the next enqueue tries again for a thread.
            if alone, !Fiber.isRunning, !IOLoop.isLoopThread { work(exitWhenIdle: true) }
        }
    }

    private func work(exitWhenIdle: Bool = false) {
        while true {
            queue.withLock { $0.idle += 1 }
            let signalled = wakeup.wait(milliseconds: exitWhenIdle ? 0 : Self.idleSeconds * 1000)
            let next = queue.withLock { q -> (fiber: Fiber?, exit: Bool) in
                q.idle -= 1
                if signalled { return (q.ready.pop(), false) }
                guard q.ready.isEmpty else { return (nil, false) }  // a signal is on its way
                if !exitWhenIdle { q.threads -= 1 }
                return (nil, true)
            }
            if next.exit { return }
            if let fiber = next.fiber { run(fiber) }
        }
    }

    /// Runs a fiber until it finishes or parks; steps it asks to run on the thread's stack run here, and
    /// it goes on here after them.
    private func run(_ fiber: Fiber) {
        while !fiber.resume() {
            guard let next = fiber.afterSwitch else { return }
            fiber.afterSwitch = nil
            switch next {
            case .park(let arrange):
                arrange(Waker(fiber, self))
                return
            case .runHere(let body):
                body()
            }
        }
    }

    // fork(): in the child the pool threads are gone, and so are the fibers' other ends (the I/O loop, the
    // threads that would wake them). The child's InFlightRequests completes their operations as cancelled;
    // the fibers are dropped, never resumed, and the pool starts empty.
    public func forkPrepare() { queue.lockForFork() }
    public func forkParent() { queue.unlockAfterFork() }
    public func forkChild() {
        queue.withValueWhileHeld { q in
            // Left as they are, never released: releasing their captures here could run a deinit that takes
            // a lock a parent's thread held at the fork.
            _ = Unmanaged.passRetained(Abandoned(q.ready))
            q = Queue()
        }
        wakeup.resetAfterFork(count: 0)
        queue.unlockAfterFork()
    }
}

/// Fibers a forked child keeps but never runs.
private final class Abandoned {
    let fibers: FIFO<Fiber>
    init(_ fibers: FIFO<Fiber>) { self.fibers = fibers }
}
