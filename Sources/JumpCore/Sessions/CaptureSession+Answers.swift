/// The questions a host asks from its own thread (jump_client_state, the record's values and element
/// counts) are answered from memory and never wait for a save (SessionStateLock.answer).
extension CaptureSession {
    /// Runs a save, an erase or a journal write of `s` with `s` readable meanwhile (SessionStateLock).
    func whileSaving<Result, Failure: Error>(_ s: inout CaptureState,
                                             _ body: (inout CaptureState) throws(Failure) -> Result) throws(Failure) -> Result {
        try state.whileSaving(&s, body)
    }

    /// Reads the state at once, never behind a save (SessionStateLock.answer).
    func answer<Result, Failure: Error>(_ body: (CaptureState) throws(Failure) -> Result) throws(Failure) -> Result {
        try state.answer(body)
    }

    /// The record of session `generation`, read without waiting for a save.
    func readRecord<T: Sendable>(generation: UInt64, _ body: (UserRecord, RecordSchema?) throws(JumpError) -> T) throws(JumpError) -> T {
        try answer { s throws(JumpError) -> T in
            guard s.generation == generation, let session = s.session else {
                throw JumpError(.notSignedIn, "this record belongs to a session that has ended")
            }
            return try body(session.record, s.schema)
        }
    }
}
