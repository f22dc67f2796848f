import Glibc

/// The threads ("jump-work") that run fibers: at most as many as the machine has cores, made when work
/// arrives and ended after a few idle seconds, whatever the number of clients or operations in flight
/// (docs/design-io.md). A fiber runs until it parks; its pool thread then takes the next ready fiber.
/// Storage steps (an fsync, a host storage callback, a Secret Service call) run here, never on the I/O loop.
public final class FiberPool: ForkParticipant {
    public static let shared = ForkSafety.processWide(FiberPool())

    /// First in, first out; a popped slot is emptied as it is popped (nothing is released under the lock).
    private struct Queue {
        var ready: [Fiber?] = []
        var head = 0
        var threads = 0
        var idle = 0
        var waiting: Int { ready.count - head }

        mutating func pop() -> Fiber? {
            guard head < ready.count else { return nil }
            let fiber = ready[head].take()
            head += 1
            if head == ready.count {
                ready.removeAll(keepingCapacity: true)
                head = 0
            }
            return fiber
        }
    }

    private let queue = Lock(Queue())
    private let wakeup = Semaphore()
    public let threadLimit = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
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

    /// How many pool threads exist now (the 1 000-client test and the benchmark read it).
    public var threadCount: Int { queue.withLock { $0.threads } }

    func enqueue(_ fiber: Fiber) {
        let spawn = queue.withLock { q -> Bool in
            q.ready.append(fiber)
            guard q.waiting > q.idle, q.threads < threadLimit else { return false }
            q.threads += 1
            return true
        }
        wakeup.signal()
        if spawn { startThread() }
    }

    private func startThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // Host code runs on this stack (Fiber.onThreadStack), as it did on a "jump-work" thread.
        pthread_attr_setstacksize(&attributes, 1 << 20)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            WorkerThread.nameThisThread("jump-work")
            Unmanaged<FiberPool>.fromOpaque(context).takeRetainedValue().work()
            return nil
        }, context)
        if created != 0 {
            Unmanaged<FiberPool>.fromOpaque(context).release()
            // No thread to be had: the fibers wait for a pool thread that exists, or run on this one.
            let alone = queue.withLock { q -> Bool in
                q.threads -= 1
                return q.threads == 0
            }
            if alone { work(exitWhenIdle: true) }
        }
    }

    private func work(exitWhenIdle: Bool = false) {
        while true {
            queue.withLock { $0.idle += 1 }
            let signalled = wakeup.wait(milliseconds: exitWhenIdle ? 0 : Self.idleSeconds * 1000)
            let next = queue.withLock { q -> (fiber: Fiber?, exit: Bool) in
                q.idle -= 1
                if signalled { return (q.pop(), false) }
                guard q.waiting == 0 else { return (nil, false) }  // a signal is on its way
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
    let fibers: [Fiber?]
    init(_ fibers: [Fiber?]) { self.fibers = fibers }
}
