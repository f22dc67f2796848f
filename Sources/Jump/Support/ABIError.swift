import JumpCore

/// JumpError under a shorter name for the ABI layer.
typealias ABIError = JumpError
