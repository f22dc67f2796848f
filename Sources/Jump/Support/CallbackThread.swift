import Glibc
import JumpCore
import JumpRuntime

/// The one plain pthread, owned by libjump, that runs host callbacks one at a time, in order, for every
/// client without a dispatcher or queue mode: threads are a budget of the process, not of each client
/// (docs/conventions.md, "Threads"). Not a libdispatch worker: a host runtime may end a foreign thread that
/// calls into it while it shuts down (CPython before 3.14 does), and libdispatch treats the loss of one of
/// its workers as fatal. The thread exits after a few idle seconds and is started again by the next job.
final class CallbackThread: ForkParticipant {
    static let shared = ForkSafety.processWide(CallbackThread())

    /// Nothing a job holds is released under the lock (FIFO empties a slot as it pops it): a job's captures
    /// may end with a CallbackTarget whose deinit posts here again.
    private struct Queue {
        var jobs = FIFO<@Sendable () -> Void>()
        var threadRunning = false
    }

    private let queue = Lock(Queue())
    private let wakeup = Semaphore()

    private init() {}

    func post(_ job: @escaping @Sendable () -> Void) {
        let start = queue.withLock { q -> Bool in
            q.jobs.append(job)
            if q.threadRunning { return false }
            q.threadRunning = true
            return true
        }
        wakeup.signal()
        if start { spawn() }
    }

    private func spawn() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            WorkerThread.nameThisThread("jump-events")
            Unmanaged<CallbackThread>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had: run the jobs on this one rather than lose them.
            Unmanaged<CallbackThread>.fromOpaque(context).release()
            Fiber.onThreadStack { run(exitWhenIdle: true) }  // host callbacks: never on a fiber's stack
        }
    }

    private func run(exitWhenIdle: Bool = false) {
        while true {
            if !wakeup.wait(milliseconds: exitWhenIdle ? 0 : 3000) {
                let exit = queue.withLock { q -> Bool in
                    guard q.jobs.isEmpty else { return false }
                    q.threadRunning = false
                    return true
                }
                if exit { return }
                continue
            }
            queue.withLock { $0.jobs.pop() }?()
        }
    }

    // fork(): the queue is held across it. In the child the thread is gone (and may have been waiting on the
    // semaphore, whose condition variable would then wait for it): the semaphore starts anew, counting the
    // jobs still queued, and a new thread takes them.
    func forkPrepare() { queue.lockForFork() }
    func forkParent() { queue.unlockAfterFork() }
    func forkChild() {
        let pending = queue.withValueWhileHeld { q -> Int in
            q.threadRunning = !q.jobs.isEmpty
            return q.jobs.count
        }
        wakeup.resetAfterFork(count: UInt(pending))
        queue.unlockAfterFork()
        if pending > 0 { spawn() }
    }
}
