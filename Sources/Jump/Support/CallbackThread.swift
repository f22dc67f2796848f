import Glibc
import JumpCore
import Synchronization

/// A plain pthread owned by libjump that runs host callbacks one at a time, in order. Not a libdispatch
/// worker: a host runtime may end a foreign thread that calls into it while it shuts down (CPython before
/// 3.14 does), and libdispatch treats the loss of one of its workers as fatal. The thread exits after a
/// few idle seconds and is started again by the next job.
final class CallbackThread: Sendable {
    /// For callbacks that belong to no client (an async call that failed to start, a released userdata).
    static let shared = CallbackThread()

    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var threadRunning = false
    }

    private let queue = Mutex(Queue())
    private let wakeup = Semaphore()

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
            run(exitWhenIdle: true)
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
            let job = queue.withLock { q -> (@Sendable () -> Void)? in q.jobs.isEmpty ? nil : q.jobs.removeFirst() }
            job?()
        }
    }
}
