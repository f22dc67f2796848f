import CCurl
import Glibc

/// The process's one libcurl multi handle, driven by one libjump thread ("jump-io"): every request a fiber
/// sends waits here without holding a thread, and clients of the same server share its connections
/// (docs/design-io.md). Other threads hand it work under a lock and wake it with curl_multi_wakeup; only
/// the loop's thread touches the multi handle otherwise. A forked child gets a loop of its own at its first
/// request: the parent's is left as it is.
package final class IOLoop: @unchecked Sendable {  // `active` and `timers` are touched only by the loop's thread
    /// Connections per host, and kept in all: a quarter of the process's descriptor limit (soft), between 16
    /// and 1 024, so a host at the usual soft limit of 1 024 keeps three quarters of its descriptors (256 go to
    /// connections) and one that raised its limit gets a connection for each of up to 1 024 requests at once.
    /// Fewer make a burst slower on both ends (with 64, 1 000 clients' requests queued 16 deep on each). The
    /// lookups more connections would start are bounded by LookupGate, not by this.
    package static let maxConnections: Int = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 64 }
        return Int(min(1024, max(16, UInt64(limit.rlim_cur) / 4)))  // RLIM_INFINITY is the largest value
    }()
    /// Easy handles kept for reuse between requests (process-wide, whatever the number of clients).
    package static let idleHandlesKept = 32

    private static let current = ForkSafety.processWide(Lock<(epoch: UInt64, loop: IOLoop?)>((0, nil)))

    /// This process's loop, started at the first call; nil when libcurl or the system refuse one (the caller
    /// then blocks its own thread, as a synchronous call does).
    package static var shared: IOLoop? {
        let epoch = ForkSafety.epoch
        return current.withLock { c -> IOLoop? in
            if c.epoch != epoch || c.loop == nil { c = (epoch, IOLoop()) }
            return c.loop
        }
    }

    /// `result` and `leadsLookup` are the loop's; `result` is written before the waker runs.
    final class Transfer: @unchecked Sendable {
        let easy: UnsafeMutableRawPointer
        let cancellation: Cancellation?
        let waker: Waker
        /// The host name libcurl looks up for it (its caller's LookupHost), nil when none is needed.
        let lookupHost: String?
        /// When its time is up (Clock.monotonicMilliseconds): time spent waiting for a lookup counts.
        let deadline: Int64
        var leadsLookup = false
        var result = CURLE_FAILED_INIT

        init(easy: UnsafeMutableRawPointer, cancellation: Cancellation?, waker: Waker, lookupHost: String?, deadline: Int64) {
            self.easy = easy
            self.cancellation = cancellation
            self.waker = waker
            self.lookupHost = lookupHost
            self.deadline = deadline
        }
    }

    private struct Inbox {
        var adds: [Transfer] = []
        var cancels: [Transfer] = []
        var timers: [(deadline: Int64, fire: @Sendable () -> Void)] = []

        var isEmpty: Bool { adds.isEmpty && cancels.isEmpty && timers.isEmpty }
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Lock(Inbox())
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    private var timers: [(deadline: Int64, fire: @Sendable () -> Void)] = []
    private var lookups = LookupGate()
    package let idleHandles = Lock<[UnsafeMutableRawPointer]>([])

    private init?() {
        _ = curlGlobalInit
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        _ = jumpi_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, Self.maxConnections)
        _ = jumpi_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, Self.maxConnections)
        guard WorkerThread.start(named: "jump-io", { [self] in run() }) else {
            curl_multi_cleanup(multi)
            return nil
        }
    }

    /// From a fiber: sends the transfer set up on `easy` (within `timeoutMs`) and returns its result once it
    /// is over, the fiber parked meanwhile. nil outside a fiber (the caller drives the transfer itself).
    /// `lookupHost` is what libcurl looks up for it, as its DNS cache keys it (nil for none): the loop lets
    /// one transfer per host look up a name nobody has yet (LookupGate).
    package func perform(_ easy: UnsafeMutableRawPointer, lookupHost: String?, timeoutMs: Int,
                         cancellation: Cancellation?) -> CURLcode? {
        guard Fiber.mayPark else { return nil }
        // The observer is set and cleared by the fiber itself, around its park, so an observer of an earlier
        // request can never replace this one's. A cancellation before the transfer is queued is seen when
        // the loop adds it.
        let submitted = Lock<Transfer?>(nil)
        let epoch = ForkSafety.epoch
        cancellation?.whenCancelled { [self] in
            // In a forked child this loop is the parent's: its lock was not held across the fork for us.
            guard ForkSafety.epoch == epoch, let transfer = submitted.withLock({ $0 }) else { return }
            post { $0.cancels.append(transfer) }
        }
        defer { cancellation?.whenCancelled(nil) }
        var transfer: Transfer? = nil
        let deadline = Clock.monotonicMilliseconds() &+ Int64(timeoutMs)
        let parked = Fiber.park { [self] waker in
            let made = Transfer(easy: easy, cancellation: cancellation, waker: waker, lookupHost: lookupHost, deadline: deadline)
            transfer = made
            submitted.withLock { $0 = made }
            post { $0.adds.append(made) }
        }
        guard parked, let transfer else { return nil }
        return transfer.result
    }

    /// Wakes `waker` at `deadline` (Clock.monotonicMilliseconds), unless something else woke it first (a waker
    /// wakes once): the deadline of a wait.
    package func wake(_ waker: Waker, at deadline: Int64) {
        at(deadline) { waker.wake() }
    }

    /// Runs `action` on the loop's thread at `deadline` (Clock.monotonicMilliseconds): it must be quick and
    /// never block (the pool's check for blocked threads).
    package func at(_ deadline: Int64, _ action: @escaping @Sendable () -> Void) {
        post { $0.timers.append((deadline, action)) }
    }

    /// Hands the loop work. Only the first piece after the loop emptied its inbox wakes it: the others find
    /// it awake or about to be, so a burst of a thousand requests costs one wakeup, not a thousand.
    private func post(_ add: (inout Inbox) -> Void) {
        let wasEmpty = inbox.withLock { box -> Bool in
            let wasEmpty = box.isEmpty
            add(&box)
            return wasEmpty
        }
        if wasEmpty { curl_multi_wakeup(multi) }
    }

    /// Whether the caller is the loop's thread.
    package static var isLoopThread: Bool {
        let thread = loopThread.withLock { $0 }
        return thread != 0 && pthread_equal(thread, pthread_self()) != 0
    }
    private static let loopThread = ForkSafety.processWide(Lock<pthread_t>(0))

    private func run() {
        Self.loopThread.withLock { $0 = pthread_self() }
        while true {
            let work = inbox.withLock { box -> Inbox in
                defer { box = Inbox() }
                return box
            }
            timers.append(contentsOf: work.timers)
            for transfer in work.adds {
                if lookups.admit(transfer, now: Clock.monotonicMilliseconds()) {
                    start(transfer)
                } else {
                    timers.append((transfer.deadline, { [self] in expire(transfer) }))
                }
            }
            for transfer in work.cancels {
                if active[transfer.easy] === transfer {
                    active[transfer.easy] = nil
                    curl_multi_remove_handle(multi, transfer.easy)
                    finish(transfer, CURLE_ABORTED_BY_CALLBACK)
                } else if lookups.remove(transfer) {
                    finish(transfer, CURLE_ABORTED_BY_CALLBACK)
                }
            }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result  // read before the removal frees the message
                guard let transfer = active.removeValue(forKey: easy) else { continue }
                curl_multi_remove_handle(multi, easy)
                finish(transfer, code)
            }

            let now = Clock.monotonicMilliseconds()
            var next: Int64 = 60_000
            timers.removeAll { timer in
                if timer.deadline <= now {
                    timer.fire()
                    return true
                }
                next = min(next, timer.deadline - now)
                return false
            }
            // libcurl's own timeouts and retries are due within its timeout; a wakeup ends the wait early.
            var curlTimeout = -1
            _ = curl_multi_timeout(multi, &curlTimeout)
            if curlTimeout >= 0 { next = min(next, Int64(curlTimeout)) }
            _ = curl_multi_poll(multi, nil, 0, Int32(clamping: next), nil)
        }
    }

    /// Gives a transfer to libcurl, with the time it has left.
    private func start(_ transfer: Transfer) {
        let left = transfer.deadline &- Clock.monotonicMilliseconds()
        if transfer.cancellation?.isCancelled == true {
            finish(transfer, CURLE_ABORTED_BY_CALLBACK)
        } else if left <= 0 {
            finish(transfer, CURLE_OPERATION_TIMEDOUT)
        } else if jumpi_curl_setopt_long(transfer.easy, CURLOPT_TIMEOUT_MS, Int(left)) == CURLE_OK,
                  curl_multi_add_handle(multi, transfer.easy) == CURLM_OK {
            active[transfer.easy] = transfer
        } else {
            finish(transfer, CURLE_FAILED_INIT)
        }
    }

    /// A transfer waiting for its host's lookup ran out of time there.
    private func expire(_ transfer: Transfer) {
        if lookups.remove(transfer) { finish(transfer, CURLE_OPERATION_TIMEDOUT) }
    }

    private func finish(_ transfer: Transfer, _ code: CURLcode) {
        transfer.result = code
        let released = lookups.finished(transfer, code: code, now: Clock.monotonicMilliseconds())
        transfer.waker.wake()
        for next in released { start(next) }
    }
}
