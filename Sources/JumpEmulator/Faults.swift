import Foundation

/// Faults queued through `/emulator/faults`, each consumed by the next matching non-admin request.
/// They let SDK tests see a server error, a proxy's HTML page, a truncated or empty body, a slow answer,
/// a rate limit or an overloaded server (with `Retry-After`), or a connection reset, on demand.
struct Fault: Sendable, Equatable {
    enum Kind: String, Sendable, CaseIterable {
        case http500 = "http_500"
        case html
        case garbage
        case empty
        case delay
        /// HTTP 200 with a Capture error body of any code (`code`), so SDKs can test their handling.
        case captureError = "capture_error"
        /// The request is carried out, then its answer is lost on the way back (a proxy's 502 page): what a
        /// dropped connection after the server applied a change looks like to a client.
        case lostAnswer = "lost_answer"
        /// HTTP 429 Too Many Requests (a rate limiter in front of the server), with `Retry-After` when given.
        case http429 = "http_429"
        /// HTTP 503 Service Unavailable (an overloaded server or a load balancer), with `Retry-After` when given.
        case http503 = "http_503"
        /// The connection is reset (TCP RST) once the request has arrived, with no answer at all.
        case reset
    }

    var kind: Kind
    /// How many more requests it applies to.
    var remaining: Int
    /// Only requests to exactly this path; nil matches every non-admin path.
    var path: String?
    var delayMilliseconds: Int
    /// The Capture error code of a `capture_error` fault.
    var code: Int = 500
    /// The `Retry-After` value of an `http_429` or `http_503` fault, as sent: seconds or an HTTP date.
    var retryAfter: String? = nil

    var json: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kind.rawValue), "count": .int(Int64(remaining))]
        members["path"] = path.map(JSONValue.string) ?? .null
        if kind == .delay { members["delay_ms"] = .int(Int64(delayMilliseconds)) }
        if kind == .captureError { members["code"] = .int(Int64(code)) }
        if let retryAfter { members["retry_after"] = .string(retryAfter) }
        return .object(members)
    }
}

final class FaultQueue: Sendable {
    private let faults = Locked<[Fault]>([])

    func add(_ fault: Fault) {
        faults.withLock { $0.append(fault) }
    }

    /// Takes one use of the first fault that applies to `path`, oldest first.
    func take(path: String) -> Fault? {
        faults.withLock { queue in
            guard let index = queue.firstIndex(where: { $0.path == nil || $0.path == path }) else { return nil }
            let fault = queue[index]
            queue[index].remaining -= 1
            if queue[index].remaining <= 0 { queue.remove(at: index) }
            return fault
        }
    }

    var pending: [Fault] {
        faults.current
    }

    func clear() {
        faults.withLock { $0.removeAll() }
    }
}
