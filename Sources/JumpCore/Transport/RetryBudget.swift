import JumpRuntime

/// The process's allowance of retries to each server (origin), a token bucket as the AWS SDKs' "standard"
/// retry mode and gRPC's retry throttling keep one: a retry takes `retryCost` tokens, an answer that worked
/// gives one back. While a server is down every request fails and nothing refills, so an outage costs at
/// most `capacity / retryCost` extra requests to that server however many clients and calls the app has,
/// and retries come back by themselves once answers do.
///
/// One bucket per origin for the whole process, not per client: a thousand clients of one server must not
/// multiply the bound by a thousand. A server whose bucket is full has no entry, so the table holds only
/// the origins an outage is costing.
enum RetryBudget {
    static let capacity = 500
    static let retryCost = 5
    static let successRefund = 1

    /// Tokens spent (capacity minus what is left), per origin; absent means none.
    private static let spent = ForkSafety.processWide(Lock<[String: Int]>([:]))

    /// Takes the cost of one retry to `origin`; false (nothing taken) when its budget cannot pay it.
    static func withdraw(for origin: String) -> Bool {
        spent.withLock { table in
            let used = table[origin, default: 0]
            guard capacity - used >= retryCost else { return false }
            table[origin] = used + retryCost
            return true
        }
    }

    static func refund(to origin: String) {
        spent.withLock { table in
            guard let used = table[origin] else { return }
            table[origin] = used > successRefund ? used - successRefund : nil
        }
    }
}
