/// Counts non-admin requests by `METHOD /path`, and adds up their body sizes, so tests can assert
/// how many calls an SDK made (one refresh for many concurrent callers, retries after a fault, ...)
/// and how much it sent (a partial update instead of the whole record).
final class RequestCounters: Sendable {
    private struct Tally {
        var counts: [String: Int] = [:]
        var bytes: [String: Int] = [:]
    }

    private let tally = Locked(Tally())

    func record(method: String, path: String) {
        tally.withLock { $0.counts["\(method) \(path)", default: 0] += 1 }
    }

    func addBytes(_ count: Int, method: String, path: String) {
        tally.withLock { $0.bytes["\(method) \(path)", default: 0] += count }
    }

    var snapshot: [String: Int] {
        tally.current.counts
    }

    var bytesSnapshot: [String: Int] {
        tally.current.bytes
    }

    func clear() {
        tally.withLock { $0 = Tally() }
    }
}
