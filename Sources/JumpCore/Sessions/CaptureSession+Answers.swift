import Glibc

/// The questions a host asks from its own thread (jump_client_state, the record's values and element
/// counts) are answered from memory and never wait for a save: the state lock may be held across host
/// storage callbacks, fsync and another process's store lock (docs/design-io.md, "Answers from memory").
/// A save publishes the state as it was when the save began; a question asked meanwhile reads that, which
/// is the truth until the save ends (the change being saved is not acknowledged yet).
extension CaptureSession {
    /// Runs a save, an erase or a journal write of `s`, with `s` as it is now readable by `answer` until it
    /// ends. Nested saves keep the outermost one's state (the change it saves is not made until it ends).
    func whileSaving<Result, Failure: Error>(_ s: inout CaptureState,
                                             _ body: (inout CaptureState) throws(Failure) -> Result) throws(Failure) -> Result {
        stateDuringSave.withLock { published in
            published.depth += 1
            if published.depth == 1 { published.state = s }
        }
        defer {
            // Dropped before the lock is released, so that the next edit changes the record in place
            // rather than copying what a reader could still see.
            stateDuringSave.withLock { published in
                published.depth -= 1
                if published.depth == 0 { published.state = nil }
            }
        }
        return try body(&s)
    }

    /// Reads the state at once: under the lock when it is free, else as a save in progress published it.
    /// Only a lock held for memory work (never long) is waited for.
    func answer<Result, Failure: Error>(_ body: (CaptureState) throws(Failure) -> Result) throws(Failure) -> Result {
        let giveUpAt = Clock.monotonicMilliseconds() &+ Self.answerSpinMilliseconds
        while true {
            if let result = try state.withLockIfFree({ s throws(Failure) in try body(s) }) { return result }
            if let saving = stateDuringSave.withLock({ $0.state }) { return try body(saving) }
            if Clock.monotonicMilliseconds() >= giveUpAt { break }
            usleep(100)
        }
        return try state.withLock { s throws(Failure) in try body(s) }
    }

    /// How long `answer` looks for a free lock or a published state before it waits its turn.
    static let answerSpinMilliseconds: Int64 = 5

    /// The record of session `generation`, read without waiting for a save (see `answer`).
    func readRecord<T: Sendable>(generation: UInt64, _ body: (UserRecord, RecordSchema?) throws(JumpError) -> T) throws(JumpError) -> T {
        try answer { s throws(JumpError) -> T in
            guard s.generation == generation, let session = s.session else {
                throw JumpError(.notSignedIn, "this record belongs to a session that has ended")
            }
            return try body(session.record, s.schema)
        }
    }
}

/// The state a save in progress published (CaptureSession.whileSaving), and how deep the saves are nested.
struct PublishedState: Sendable {
    var state: CaptureState?
    var depth = 0
}
