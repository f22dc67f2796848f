import HummingbirdBcrypt

/// Bcrypt password hashing at the configured cost.
///
/// Bcrypt is slow on purpose; it runs in a detached task so it never blocks the NIO event loop
/// that serves other requests.
struct PasswordHasher: Sendable {
    /// Bcrypt's cost must lie in 4...31.
    static let costRange: ClosedRange<Int> = 4...31

    let cost: UInt8

    init(cost: Int) {
        self.cost = UInt8(min(max(cost, Self.costRange.lowerBound), Self.costRange.upperBound))
    }

    func hash(_ password: String) async -> String {
        let cost = self.cost
        return await Task.detached { Bcrypt.hash(password, cost: cost) }.value
    }

    func verify(_ password: String, hash: String) async -> Bool {
        await Task.detached { Bcrypt.verify(password, hash: hash) }.value
    }
}
