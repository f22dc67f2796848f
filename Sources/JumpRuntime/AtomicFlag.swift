import Synchronization

/// A Bool shared between threads without a lock: one writer under its owner's lock, readers anywhere.
public final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool {
        get { value.load(ordering: .acquiring) }
        set { value.store(newValue, ordering: .releasing) }
    }
}
