import JumpRuntime

/// Every request of a client passes here on its way to the wire (JumpClient wraps its transport): the
/// server's clock is learned from each answer's `Date` (ServerClock), and a failed attempt is sent again
/// when that is safe (RetryRule: reads and the refresh after a transient answer or a lost connection, any
/// request that never left), affordable (the process's RetryBudget for that server) and still on time: every attempt and
/// every pause fit in the call's deadline (operationTimeoutMs, CallDeadline) when it has one, else in one
/// requestTimeoutMs counted from the first attempt.
public final class RetryingTransport: Transport {
    let inner: any Transport
    let maxRetries: Int
    let requestTimeoutMs: Int
    public let clock: ServerClock

    /// An attempt with less time than this left is not started: it could only time out.
    static let minimumAttemptMs: Int64 = 100

    public init(_ inner: any Transport, maxRetries: Int, requestTimeoutMs: Int, clock: ServerClock = ServerClock()) {
        self.inner = inner
        self.maxRetries = max(0, maxRetries)
        self.requestTimeoutMs = requestTimeoutMs
        self.clock = clock
    }

    public func send(_ request: HTTPRequest, cancellation: Cancellation?) throws(JumpError) -> HTTPResponse {
        // With a whole-call deadline (operationTimeoutMs) the attempts and pauses draw on it, and each attempt
        // is still bounded by requestTimeoutMs; without one they all fit in one requestTimeoutMs, as always.
        let call = CallDeadline.current
        let deadline = call ?? Clock.monotonicMilliseconds() + Int64(requestTimeoutMs)
        let origin = ServerClock.origin(of: request.url)
        var retries = 0
        while true {
            var attempt = request
            let remaining = deadline - Clock.monotonicMilliseconds()
            if call != nil && remaining <= 0 {
                // Nothing was sent in this round: the caller learns the call ran out, not that a write is in doubt.
                throw CallDeadline.exceeded(waitingFor: "a request to be sent")
            }
            if retries > 0 || call != nil { attempt.timeoutMs = Int(max(1, min(remaining, Int64(requestTimeoutMs)))) }
            let outcome: Result<HTTPResponse, JumpError>
            do {
                let response = try inner.send(attempt, cancellation: cancellation)
                clock.learn(from: response.headers, origin: origin)
                outcome = .success(response)
            } catch {
                outcome = .failure(error)
            }
            var reason: String?
            var asked: Int?
            switch outcome {
            case .success(let response):
                reason = RetryRule.reason(response, of: request)
                if reason != nil { asked = RetryRule.retryAfterMs(response, clock: clock, url: request.url) }
            case .failure(let error):
                reason = RetryRule.reason(error, of: request)
            }
            guard let reason else {
                // Only an answer that worked refills the budget: an outage answering 4xx and 5xx to writes
                // (never retried) must not pay for the retries of its reads.
                if case .success(let response) = outcome, response.status < 400 { RetryBudget.refund(to: origin) }
                return try outcome.get()
            }
            guard retries < maxRetries else { return try outcome.get() }
            let pause = asked ?? RetryRule.backoffMs(retry: retries + 1)
            let left = deadline - Clock.monotonicMilliseconds()
            guard Int64(pause) + Self.minimumAttemptMs <= left else {
                Log.debug("\(request.method) \(request.redactedURL): \(reason); not retried, a pause of \(pause) ms "
                          + "would pass \(call == nil ? "requestTimeoutMs" : "operationTimeoutMs")")
                return try outcome.get()
            }
            guard RetryBudget.withdraw(for: origin) else {
                Log.debug("\(request.method) \(request.redactedURL): \(reason); not retried, this process's retry budget for the server is spent")
                return try outcome.get()
            }
            retries += 1
            Log.debug("\(request.method) \(request.redactedURL): \(reason); retry \(retries) of \(maxRetries) in \(pause) ms")
            try wait(milliseconds: pause, cancellation: cancellation)
        }
    }

    /// Parks the fiber (or sleeps the caller's own thread) in slices, so that a cancellation ends the wait soon.
    private func wait(milliseconds: Int, cancellation: Cancellation?) throws(JumpError) {
        let until = Clock.monotonicMilliseconds() + Int64(milliseconds)
        while true {
            try cancellation?.check()
            let left = until - Clock.monotonicMilliseconds()
            if left <= 0 { return }
            Fiber.pause(milliseconds: Int(min(left, cancellation == nil ? left : 100)))
        }
    }
}
