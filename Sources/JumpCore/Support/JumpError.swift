/// Every failure of JumpCore: a stable status, a message safe to show or log (never a secret), and the
/// machine-readable detail an app needs to recover (server error, invalid fields, merge token, ...).
public struct JumpError: Error, Sendable, Equatable {
    public var status: JumpStatus
    public var message: String
    /// Extra detail members (server, invalid_fields, argument, merge_token, ...).
    public var detail: [String: JSON]

    public init(_ status: JumpStatus, _ message: String, detail: [String: JSON] = [:]) {
        self.status = status
        self.message = message
        self.detail = detail
    }

    /// The detail document of jump_error_last() and of async completions.
    public var json: JSON {
        // Messages and details carry server-provided text: no secret libjump sent may reach the app in it.
        // The tokens the app must hand back to go on (jump.h) are there on purpose.
        var o: [String: JSON] = [:]
        for (key, value) in detail { o[key] = JumpError.handBackKeys.contains(key) ? value : SecretScrubber.scrub(value) }
        o["status"] = .int(Int64(status.rawValue))
        o["status_name"] = .string(status.name)
        o["message"] = .string(SecretScrubber.scrub(message))
        return .object(o)
    }

    static let handBackKeys: Set<String> = ["merge_token", "social_registration_token"]

    public static func invalidArgument(_ message: String, argument: String? = nil) -> JumpError {
        JumpError(.invalidArgument, message, detail: argument.map { ["argument": .string($0)] } ?? [:])
    }

    public static func `internal`(_ message: String) -> JumpError { JumpError(.internal, message) }
}

extension JumpError {
    /// detail.reason of a write whose connection was lost, or whose time ran out, after it was sent: the
    /// server may or may not have applied it (jump.h, "Writes and their outcome").
    public static let outcomeUnknownReason = "outcome_unknown"

    /// A write was sent and its connection lost: whether the server applied it is not known, and the server
    /// is there to ask. (A write that timed out carries the same reason with JUMP_E_TIMEOUT, and is not
    /// settled: a server too slow to answer is not sent more.)
    public var isOutcomeUnknown: Bool {
        status == .network && detail["reason"]?.stringValue == JumpError.outcomeUnknownReason
    }
}
