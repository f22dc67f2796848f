import CFiber

/// The deadline of the whole call in progress (operationTimeoutMs, docs/design-io.md): set where a C call
/// enters, kept with the fiber that runs it (or with the host's thread for a synchronous call), and drawn on
/// by every wait inside the call: gates, refresh flights, the store's lock, each HTTP attempt, retries and
/// their pauses. Each of those keeps its own bound as well; the earlier of the two ends the wait.
public enum CallDeadline {
    /// Runs `body` as a call that must end within `milliseconds` (0: no whole-call deadline). A call made
    /// inside another keeps the earlier deadline.
    public static func within<Result, Failure: Error>(milliseconds: Int,
                                                      _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try within(until: from(now: milliseconds), body)
    }

    /// Runs `body` as a call that must end by `deadline` (Clock.monotonicMilliseconds; nil: none): for a call
    /// whose time started before it runs (an `_async` call, from the moment the host made it).
    public static func within<Result, Failure: Error>(until deadline: Int64?,
                                                      _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let deadline else { return try body() }
        let outer = jumpi_call_deadline()
        jumpi_call_deadline_set(outer > 0 ? min(outer, deadline) : max(1, deadline))
        defer { jumpi_call_deadline_set(outer) }
        return try body()
    }

    /// The deadline a call made now with `milliseconds` gets (nil for 0: none).
    public static func from(now milliseconds: Int) -> Int64? {
        milliseconds > 0 ? Clock.monotonicMilliseconds() &+ Int64(milliseconds) : nil
    }

    /// The call's deadline (Clock.monotonicMilliseconds), nil when it has none.
    package static var current: Int64? {
        let deadline = jumpi_call_deadline()
        return deadline > 0 ? deadline : nil
    }

    /// A wait's own deadline, or the call's when that comes first (`isCall` then says so, for the message).
    package static func bound(_ own: Int64) -> (deadline: Int64, isCall: Bool) {
        guard let call = current, call < own else { return (own, false) }
        return (call, true)
    }
}
