import JumpRuntime

/// Library log lines, delivered to the host's log callback when one is installed. Callers pass only text
/// that holds no secret (URLs without query strings, status codes, durations).
public enum Log {
    public enum Level: String, Sendable { case debug, info, warning, error }

    public typealias Sink = @Sendable (Level, String) -> Void

    private static let sink = ForkSafety.processWide(Lock<ClosureBox<Sink>?>(nil))

    public static func setSink(_ newSink: Sink?) { sink.withLock { $0 = newSink.map(ClosureBox.init) } }

    static func debug(_ message: @autoclosure () -> String) { emit(.debug, message) }
    static func info(_ message: @autoclosure () -> String) { emit(.info, message) }
    static func warning(_ message: @autoclosure () -> String) { emit(.warning, message) }

    private static func emit(_ level: Level, _ message: () -> String) {
        guard let current = sink.withLock({ $0 })?.function else { return }
        current(level, SecretScrubber.scrub(message()))
    }
}
