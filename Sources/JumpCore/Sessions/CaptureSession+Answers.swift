/// The questions a host asks from its own thread (jump_client_state, the record's values and element
/// counts) are answered from memory and never wait for a save (SessionStateLock.answer).
extension CaptureSession {
    /// Runs a save, an erase or a journal write of `s` with `s` readable meanwhile (SessionStateLock).
    /// `journalLine`: an append to the journal, which seldom blocks (CaptureStorage.appendMayBlock).
    func whileSaving<Result, Failure: Error>(_ s: inout CaptureState, journalLine: Bool = false,
                                             _ body: (inout CaptureState) throws(Failure) -> Result) throws(Failure) -> Result {
        let mayBlock = journalLine ? storage.appendMayBlock(s.stored, for: s.session) : storage.savesMayBlock
        return try state.whileSaving(&s, mayBlock: mayBlock, body)
    }

    /// Reads the state at once, never behind a save (SessionStateLock.answer).
    @inline(__always)
    func answer<Result, Failure: Error>(_ body: (inout CaptureState) throws(Failure) -> Result) throws(Failure) -> Result {
        try state.answer(body)
    }

    /// The record of session `generation`, read without waiting for a save.
    func readRecord<T: Sendable>(generation: UInt64, _ body: (UserRecord, RecordSchema?) throws(JumpError) -> T) throws(JumpError) -> T {
        try answer { s throws(JumpError) -> T in
            let schema = s.schema
            // In place: the session is not copied for a read.
            guard s.generation == generation, let result = try s.withSession({ session throws(JumpError) in try body(session.record, schema) }) else {
                throw JumpError(.notSignedIn, "this record belongs to a session that has ended")
            }
            return result
        }
    }
}
