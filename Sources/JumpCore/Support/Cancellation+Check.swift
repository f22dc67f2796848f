import JumpRuntime

extension Cancellation {
    /// Throws JUMP_E_CANCELLED once the operation was cancelled: what a step checks between its waits.
    func check() throws(JumpError) {
        if isCancelled { throw JumpError(.cancelled, "the operation was cancelled") }
    }
}
