import Glibc
import JumpRuntime

/// A session's state (a client's Capture session, its sign-in-token credential): a ParkingLock, since saves
/// happen under it and may take seconds (host storage callbacks, fsync, another process's store lock), plus
/// answers from memory for the questions a host asks from its own thread (docs/design-io.md, "A client's
/// state"). A save publishes the state as it found it (`whileSaving`), which is the truth until the save
/// ends: the change being saved is not acknowledged yet. When the lock passes to a waiter, the state the
/// last holder left is published until that waiter's thread runs it. A reader (`answer`) takes the lock when
/// it is free and reads what is published when it is not.
public final class SessionStateLock<Value: Sendable>: Sendable {
    private struct Published {
        var value: Value?
        /// How deep the saves in progress are nested (the outermost one's state is kept).
        var depth = 0
    }

    private let lock: ParkingLock<Value>
    private let published: Lock<Published>
    /// Whether `published` holds a value: the common release (nothing published) takes no second mutex.
    private let anythingPublished: AtomicFlag

    /// How long `answer` looks for a free lock or a published state before it waits its turn: a hold for
    /// memory work only, never long.
    static var answerSpinMilliseconds: Int64 { 5 }

    public init(_ value: Value) {
        let published = Lock(Published())
        let anythingPublished = AtomicFlag()
        self.published = published
        self.anythingPublished = anythingPublished
        // Passed to a waiter, the lock stays held until that waiter's thread runs it (which may be busy in a
        // host callback for seconds): what the last holder left is published meanwhile. Free, nothing is, so
        // that the next change is made in place rather than copying what a reader could still see.
        lock = ParkingLock(value, handedOver: { value in
            published.withLock { p in
                guard p.depth == 0 else { return }
                p.value = copy value
                anythingPublished.isSet = true
            }
        }, freed: {
            guard anythingPublished.isSet else { return }
            published.withLock { p in
                guard p.depth == 0 else { return }
                p.value = nil
                anythingPublished.isSet = false
            }
        })
    }

    /// Runs `body` holding the lock; a wait parks (ParkingLock).
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.withLock(body)
    }

    /// Runs a save, an erase or a journal write of `s` (held under this lock), with `s` as it is now readable
    /// by `answer` until it ends. `mayBlock` false (a store in memory): nothing to publish, as nothing is slow.
    public func whileSaving<Result, Failure: Error>(_ s: inout Value, mayBlock: Bool = true,
                                                     _ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        guard mayBlock else { return try body(&s) }
        published.withLock { p in
            p.depth += 1
            if p.depth == 1 {
                p.value = s
                anythingPublished.isSet = true
            }
        }
        defer {
            published.withLock { p in
                p.depth -= 1
                if p.depth == 0 {
                    p.value = nil
                    anythingPublished.isSet = false
                }
            }
        }
        return try body(&s)
    }

    /// Reads the state at once, never behind a save: under the lock when it is free, else as published.
    /// `body` gets the state in place (no copy) and must not change it.
    @inline(__always)
    public func answer<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        if let result = try lock.withLockIfFree(body) { return result }
        return try answerWhileHeld(body)
    }

    private func answerWhileHeld<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        let giveUpAt = Clock.monotonicMilliseconds() &+ Self.answerSpinMilliseconds
        while true {
            if var saving = published.withLock({ $0.value }) { return try body(&saving) }
            if let result = try lock.withLockIfFree(body) { return result }
            if Clock.monotonicMilliseconds() >= giveUpAt { break }
            usleep(100)
        }
        return try lock.withLock(body)
    }
}
