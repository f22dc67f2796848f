/// A client's allowance of retries, a token bucket as the AWS SDKs' "standard" retry mode keeps one: a retry
/// takes `retryCost` tokens, an answer that needed none gives one back. While a server is down every request
/// fails and nothing refills, so an outage costs at most `capacity / retryCost` extra requests however many
/// calls the app makes, and retries come back by themselves once answers do.
final class RetryBudget: Sendable {
    static let capacity = 500
    static let retryCost = 5
    static let successRefund = 1

    private let tokens = Lock(RetryBudget.capacity)

    /// Takes the cost of one retry; false (nothing taken) when the budget cannot pay it.
    func withdraw() -> Bool {
        tokens.withLock { left in
            guard left >= Self.retryCost else { return false }
            left -= Self.retryCost
            return true
        }
    }

    func refund() {
        tokens.withLock { $0 = min(Self.capacity, $0 + Self.successRefund) }
    }

    var available: Int { tokens.withLock { $0 } }
}
