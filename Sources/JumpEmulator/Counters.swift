/// Counts non-admin requests by `METHOD /path`, so tests can assert how many calls an SDK made
/// (one refresh for many concurrent callers, retries after a fault, ...).
final class RequestCounters: Sendable {
    private let counts = Locked<[String: Int]>([:])

    func record(method: String, path: String) {
        counts.withLock { $0["\(method) \(path)", default: 0] += 1 }
    }

    var snapshot: [String: Int] {
        counts.current
    }

    func clear() {
        counts.withLock { $0.removeAll() }
    }
}
