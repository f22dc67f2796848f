import JumpRuntime

/// One access-token refresh in progress; every caller that needs it waits for the same outcome. Each
/// session keeps its own flight (and generation); the single-flight steps below are shared by all of them.
final class RefreshFlight: Sendable {
    private let outcome = OneShot<Result<String, JumpError>>()
    private let epoch = ForkSafety.epoch

    /// Begun by a thread of the parent process: in this forked child nobody will finish it, so the next
    /// caller leads a new one instead of waiting.
    var isAbandoned: Bool { epoch != ForkSafety.epoch }

    func finish(_ result: Result<String, JumpError>) { outcome.set(result) }

    /// The leader's outcome, or JUMP_E_TIMEOUT after `milliseconds` (leaderBoundMs: a leader that is itself
    /// stuck never holds its followers for longer).
    func wait(milliseconds: Int) throws(JumpError) -> String {
        let (deadline, isCall) = CallDeadline.bound(Clock.monotonicMilliseconds() &+ Int64(max(1, milliseconds)))
        guard let result = outcome.wait(until: deadline) else {
            if isCall { throw CallDeadline.exceeded(waitingFor: "the token refresh in progress") }
            throw JumpError(.timeout, "waited longer than the token refresh in progress may take (\(milliseconds) ms)",
                            detail: ["reason": "busy"])
        }
        return try result.get()
    }

    /// How long a follower waits for its leader: as long as the leader may take, which is a wait for the
    /// store's lock, the request with its retries, and the lock again, each bounded by the request timeout.
    static func leaderBoundMs(requestTimeoutMs: Int) -> Int {
        let (bound, overflow) = requestTimeoutMs.multipliedReportingOverflow(by: 3)
        return overflow ? Int.max / 2 : bound + 1_000
    }

    /// What a caller that needs a fresh token does, decided under its session's lock: the token it would
    /// replace was replaced already (`done`), a refresh is running (`wait` for it), or it starts one
    /// (`lead`, with what the refresh needs).
    enum Step<Lead> {
        case done(String)
        case wait(RefreshFlight)
        case lead(RefreshFlight, Lead)
    }

    /// Carries out the step `decide` takes (under the session's lock; the flight runs outside it): the leader
    /// refreshes and shares the outcome. A refresh its leader's own deadline (operationTimeoutMs) cut short
    /// says nothing about the refresh: its followers, still on time, decide again, and one of them leads.
    static func run<Lead>(_ decide: () throws(JumpError) -> Step<Lead>, waitMilliseconds: Int,
                          perform: (Lead) -> Result<String, JumpError>) throws(JumpError) -> String {
        while true {
            switch try decide() {
            case .done(let fresh):
                return fresh
            case .wait(let flight):
                do throws(JumpError) {
                    return try flight.wait(milliseconds: waitMilliseconds)
                } catch {
                    guard error.detail["reason"]?.stringValue == leaderOutOfTime else { throw error }
                }
            case .lead(let flight, let lead):
                let outcome = perform(lead)
                flight.finish(outcome.mapError { error in
                    guard error.detail["reason"]?.stringValue == "operation_timeout" else { return error }
                    return JumpError(.timeout, "the refresh waited for ended at its leader's deadline",
                                     detail: ["reason": .string(leaderOutOfTime)])
                })
                return try outcome.get()
            }
        }
    }

    /// What followers hear when the leader's deadline, not the refresh, ended the flight.
    private static let leaderOutOfTime = "leader_deadline"
}
