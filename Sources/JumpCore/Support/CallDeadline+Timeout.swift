import JumpRuntime

extension CallDeadline {
    /// What a wait ended by the call's deadline throws: JUMP_E_TIMEOUT, reason "operation_timeout".
    static func exceeded(waitingFor what: String) -> JumpError {
        JumpError(.timeout, "the call reached its deadline (operationTimeoutMs) while waiting for \(what)",
                  detail: ["reason": "operation_timeout"])
    }
}
