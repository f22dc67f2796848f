import Synchronization

/// A flag an in-flight operation polls (the transport checks it while bytes move).
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .releasing) }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    func check() throws(JumpError) {
        if isCancelled { throw JumpError(.cancelled, "the operation was cancelled") }
    }
}
