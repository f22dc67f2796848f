import JumpRuntime

/// Lets one operation at a time through a long step of a session (a sync, a flow load, a credential change),
/// which may hold it across network requests: a ParkingLock whose wait ends at the deadline the gate was
/// made with (the request timeout), or at the call's deadline (CallDeadline) if that comes first, in
/// JUMP_E_TIMEOUT, so no call can wait for ever behind another.
public final class Gate: Sendable {
    private let lock = ParkingLock(())
    /// How long an operation waits for its turn.
    private let waitMilliseconds: Int
    /// What the wait is for, in the timeout's message ("the record's sync").
    private let purpose: String

    public init(waitMilliseconds: Int = 30_000, purpose: String = "another operation") {
        self.waitMilliseconds = max(1, waitMilliseconds)
        self.purpose = purpose
    }

    /// Runs `body` with the gate closed to every other operation of this process.
    public func withLock<Result>(_ body: (inout Void) throws(JumpError) -> Result) throws(JumpError) -> Result {
        let (deadline, isCall) = CallDeadline.bound(Clock.monotonicMilliseconds() &+ Int64(waitMilliseconds))
        return try lock.withLock(deadline: deadline, cancellation: nil, ended: { [purpose] _ in
            isCall ? CallDeadline.exceeded(waitingFor: purpose) : timedOut()
        }, body)
    }

    private func timedOut() -> JumpError {
        JumpError(.timeout, "waited longer than the request timeout (\(waitMilliseconds) ms) for \(purpose) to finish",
                  detail: ["reason": "busy"])
    }
}
