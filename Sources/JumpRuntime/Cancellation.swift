import Synchronization

/// A flag an in-flight operation polls (the transport checks it while bytes move). A request on the I/O loop
/// registers an observer, so that a cancellation removes it from the loop at once.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    private let observer = Lock<ClosureBox<@Sendable () -> Void>?>(nil)

    public init() {}

    public func cancel() {
        flag.store(true, ordering: .releasing)
        observer.withLock { $0 }?.function()
    }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// `action` runs at the next cancel(), or now if it came already; nil removes it.
    package func whenCancelled(_ action: (@Sendable () -> Void)?) {
        observer.withLock { $0 = action.map(ClosureBox.init) }
        if let action, isCancelled { action() }
    }
}
