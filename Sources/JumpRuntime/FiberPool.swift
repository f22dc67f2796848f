import CFiber
import Glibc

/// The threads ("jump-work") that run fibers (docs/design-io.md):
/// - as many as the machine has cores while nothing blocks, made when work arrives and ended after a few
///   idle seconds, whatever the number of clients or operations in flight;
/// - while a thread is blocked (host code, a flock wait, a wait that may not park) for longer than
///   `blockedAfterMilliseconds`, others are made for the ready fibers, up to `threadCap` in all, so one slow
///   step holds up only what waits for it (the I/O loop looks, as Go's sysmon does);
/// - a fiber goes on on the thread that first ran it: each thread has its own queue, and a waker posts to it.
///   A fiber that has run no host code yet is handed to another thread when its own is blocked; one that has
///   stays (the host saw it on that thread).
/// Storage steps (an fsync, a host storage callback, a Secret Service call) run here, never on the I/O loop.
public final class FiberPool: ForkParticipant {
    public static let shared = ForkSafety.processWide(FiberPool())

    private struct State {
        /// Fibers that have not started, and those whose thread is blocked or gone.
        var unbound = FIFO<Fiber>()
        var threads = 0
        /// Threads blocked for longer than `blockedAfterMilliseconds`: made up for.
        var blocked = 0
        var idle: [PoolThread] = []
        /// A look for long-blocked threads is due on the I/O loop.
        var checkDue = false
        /// Every thread of the pool, and how many are in a blocking section now.
        var all: [PoolThread] = []
        var blockedNow = 0

        func blockedThreads() -> [PoolThread] { all.filter { $0.blocked > 0 } }
    }

    private let state = Lock(State())
    /// Threads while nothing blocks: the cores (JUMP_POOL_THREADS, for tests only, sets another number).
    package let threadLimit: Int
    /// Threads in all while some are blocked.
    package let threadCap: Int
    package static let idleSeconds = 5
    /// How long a thread is blocked before another is made for its work: host code that returns at once (a
    /// log line, an event) costs no thread, as Go's runtime and .NET's pool wait before they add one.
    package static let blockedAfterMilliseconds: Int64 = 50

    private init() {
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        if let text = getenv("JUMP_POOL_THREADS").map({ String(cString: $0) }), let number = Int(text), number >= 1 {
            threadLimit = min(number, 64)
        } else {
            threadLimit = cores
        }
        threadCap = threadLimit + 8
    }

    /// Runs `job` on a fiber of its own; where the system gives no memory for one, on a thread of its own.
    public func start(_ job: @escaping @Sendable () -> Void) {
        guard let fiber = Fiber(job) else {
            WorkerThread.start(job)
            return
        }
        enqueue(fiber)
    }

    /// Makes a parked or new fiber ready: on its own thread's queue, or on the shared one.
    package func enqueue(_ fiber: Fiber) {
        let (wake, spawn, check) = state.withLock { s -> (PoolThread?, Bool, Bool) in
            if let home = fiber.home, home.alive, fiber.pinned || home.blocked == 0 {
                home.ready.append(fiber)
                return (takeIdle(home, &s), false, false)
            }
            fiber.home = nil
            s.unbound.append(fiber)
            let (wake, spawn) = offerUnbound(&s)
            // Nobody free to take it, and a thread is blocked: it may be one to make up for soon.
            let check = wake == nil && !spawn && s.blockedNow > 0 && scheduleCheck(&s)
            return (wake, spawn, check)
        }
        wake?.wakeup.signal()
        if spawn { startThread() }
        if check { requestCheck() }
    }

    /// Runs `body`, which may block its thread for long (host code, a wait for another process's lock, a wait
    /// that may not park): meanwhile the thread's fibers that may move go to other threads (an idle one takes
    /// them at once), and once it has been blocked for `blockedAfterMilliseconds` another thread is made for
    /// ready work if none is free. On any other thread, a plain call.
    public static func blocking<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let here = jumpi_pool_thread_here() else { return try body() }
        let thread = Unmanaged<PoolThread>.fromOpaque(here).takeUnretainedValue()
        let pool = shared
        pool.enterBlocking(thread)
        defer { pool.leaveBlocking(thread) }
        return try body()
    }

    private func enterBlocking(_ thread: PoolThread) {
        guard thread.epoch == ForkSafety.epoch else { return }
        let (wake, check) = state.withLock { s -> (PoolThread?, Bool) in
            thread.blocked += 1
            guard thread.blocked == 1 else { return (nil, false) }
            s.blockedNow += 1
            thread.blockedSince = Clock.monotonicMilliseconds()
            var staying = FIFO<Fiber>()
            while let fiber = thread.ready.pop() {
                if fiber.pinned {
                    staying.append(fiber)
                } else {
                    fiber.home = nil
                    s.unbound.append(fiber)
                }
            }
            thread.ready = staying
            guard !s.unbound.isEmpty else { return (nil, false) }
            if let idle = s.idle.popLast() {
                idle.idle = false
                return (idle, false)
            }
            return (nil, scheduleCheck(&s))
        }
        wake?.wakeup.signal()
        if check { requestCheck() }
    }

    private func leaveBlocking(_ thread: PoolThread) {
        guard thread.epoch == ForkSafety.epoch else { return }  // a thread of the parent's pool
        state.withLock { s in
            thread.blocked -= 1
            guard thread.blocked == 0 else { return }
            s.blockedNow -= 1
            if thread.madeUpFor {
                thread.madeUpFor = false
                s.blocked -= 1
            }
        }
    }

    /// Whether the caller asks the loop for a look at the blocked threads (one is asked for at a time).
    private func scheduleCheck(_ s: inout State) -> Bool {
        guard !s.checkDue, s.threads < threadCap else { return false }
        s.checkDue = true
        return true
    }

    private func requestCheck() {
        let at = Clock.monotonicMilliseconds() &+ Self.blockedAfterMilliseconds
        guard let loop = IOLoop.shared else {  // no loop to keep the time: make up at once
            state.withLock { $0.checkDue = false }
            checkBlocked(now: .max)
            return
        }
        loop.at(at) { [self] in checkBlocked(now: Clock.monotonicMilliseconds()) }
    }

    /// On the I/O loop: threads blocked for `blockedAfterMilliseconds` are made up for by new ones while work
    /// waits; another look is asked for while a blocked thread may still become one.
    private func checkBlocked(now: Int64) {
        let (spawn, again) = state.withLock { s -> (Int, Bool) in
            s.checkDue = false
            var stillShort = false
            for thread in s.blockedThreads() where !thread.madeUpFor {
                if now &- thread.blockedSince >= Self.blockedAfterMilliseconds {
                    thread.madeUpFor = true
                    s.blocked += 1
                } else {
                    stillShort = true
                }
            }
            var spawn = 0
            while s.unbound.count > spawn, s.idle.isEmpty, s.threads - s.blocked < threadLimit, s.threads < threadCap {
                s.threads += 1
                spawn += 1
            }
            let again = stillShort && !s.unbound.isEmpty && scheduleCheck(&s)
            return (spawn, again)
        }
        for _ in 0..<spawn { startThread() }
        if again { requestCheck() }
    }

    /// Who takes the shared queue's work: an idle thread, or a new one while fewer than `threadLimit` are
    /// unblocked (and fewer than `threadCap` in all).
    private func offerUnbound(_ s: inout State) -> (PoolThread?, Bool) {
        guard !s.unbound.isEmpty else { return (nil, false) }
        if let idle = s.idle.popLast() {
            idle.idle = false
            return (idle, false)
        }
        guard s.threads - s.blocked < threadLimit, s.threads < threadCap else { return (nil, false) }
        s.threads += 1
        return (nil, true)
    }

    private func takeIdle(_ thread: PoolThread, _ s: inout State) -> PoolThread? {
        guard thread.idle else { return nil }
        thread.idle = false
        s.idle.removeAll { $0 === thread }
        return thread
    }

    /// Host code runs on this thread's stack (Fiber.onThreadStack): 1 MiB, as WorkerThread gives.
    private func startThread() {
        let thread = PoolThread()
        if !WorkerThread.start(named: "jump-work", { [self] in work(thread) }) {
            // No thread to be had: the ready fibers wait for a pool thread that exists (the next enqueue or
            // blocking section tries again for one). Never run here: this may be a fiber or the I/O loop.
            state.withLock { $0.threads -= 1 }
        }
    }

    private func work(_ me: PoolThread) {
        jumpi_pool_thread_set(Unmanaged.passUnretained(me).toOpaque())
        defer { jumpi_pool_thread_set(nil) }
        state.withLock { $0.all.append(me) }
        while me.epoch == ForkSafety.epoch {  // a forked child's copy of this thread leaves the child's pool be
            let next = state.withLock { s -> Fiber? in
                if let fiber = me.ready.pop() ?? s.unbound.pop() { return fiber }
                me.idle = true
                s.idle.append(me)
                return nil
            }
            if let fiber = next {
                run(fiber, on: me)
                continue
            }
            if me.wakeup.wait(milliseconds: Self.idleSeconds * 1000) { continue }
            jumpi_fiber_trim_stacks()  // the stacks a burst left: kept while work came, given back once idle
            let exit = state.withLock { s -> Bool in
                // Still idle (nobody took it meanwhile), and no fiber that must come back here is out there.
                guard me.idle, me.pinnedHere == 0, me.ready.isEmpty else { return false }
                me.idle = false
                me.alive = false
                s.idle.removeAll { $0 === me }
                s.all.removeAll { $0 === me }
                s.threads -= 1
                return true
            }
            if exit { return }
        }
    }

    /// Runs a fiber until it finishes or parks; steps it asks to run on the thread's stack run here (and pin
    /// it to this thread), and it goes on here after them.
    private func run(_ fiber: Fiber, on me: PoolThread) {
        state.withLock { _ in fiber.home = me }
        while !fiber.resume() {
            guard let next = fiber.afterSwitch else { return }
            fiber.afterSwitch = nil
            switch next {
            case .park(let arrange):
                arrange(Waker(fiber, self))
                return
            case .runHere(let body):
                state.withLock { _ in
                    if !fiber.pinned {
                        fiber.pinned = true
                        me.pinnedHere += 1
                    }
                }
                Self.blocking { body() }
            }
        }
        state.withLock { _ in
            if fiber.pinned { me.pinnedHere -= 1 }
            fiber.home = nil
        }
    }

    // fork(): in the child the pool threads are gone, and so are the fibers' other ends (the I/O loop, the
    // threads that would wake them). The child's InFlightRequests completes their operations as cancelled;
    // the fibers are dropped, never resumed, and the pool starts empty.
    public func forkPrepare() { state.lockForFork() }
    public func forkParent() { state.unlockAfterFork() }
    public func forkChild() {
        state.withValueWhileHeld { s in
            // Left as they are, never released: releasing their captures here could run a deinit that takes
            // a lock a parent's thread held at the fork.
            _ = Unmanaged.passRetained(Abandoned(s.unbound, s.all))
            s = State()
        }
        jumpi_pool_thread_set(nil)
        state.unlockAfterFork()
    }
}

/// One jump-work thread. Its fields are guarded by the pool's lock, but `wakeup`.
final class PoolThread: @unchecked Sendable {
    /// Fibers of this thread that are ready to go on.
    var ready = FIFO<Fiber>()
    let wakeup = Semaphore()
    var idle = false
    /// Nesting depth of blocking sections on this thread, since when, and whether the pool made up for it.
    var blocked = 0
    var blockedSince: Int64 = 0
    var madeUpFor = false
    /// Unfinished fibers pinned here: the thread does not end while there are any.
    var pinnedHere = 0
    var alive = true
    let epoch = ForkSafety.epoch
}

/// Fibers and threads a forked child keeps but never runs.
private final class Abandoned {
    let fibers: FIFO<Fiber>
    let threads: [PoolThread]
    init(_ fibers: FIFO<Fiber>, _ threads: [PoolThread]) {
        self.fibers = fibers
        self.threads = threads
    }
}
