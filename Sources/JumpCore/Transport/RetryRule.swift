import CCurl

/// Which failed attempts are worth sending again, and when (RetryingTransport).
enum RetryRule {
    /// Answers a proxy, a load balancer or an overloaded server gives for a while, not for good.
    static let transientStatuses: Set<Int> = [429, 500, 502, 503, 504]

    /// Failures before the request left: nothing reached the server, so even a write may go again.
    static let neverSentCodes: Set<UInt32> = [CURLE_COULDNT_RESOLVE_PROXY.rawValue, CURLE_COULDNT_RESOLVE_HOST.rawValue,
                                              CURLE_COULDNT_CONNECT.rawValue]
    /// The connection broke after the request (or part of it) went: the server may have acted on it.
    static let lostConnectionCodes: Set<UInt32> = [CURLE_GOT_NOTHING.rawValue, CURLE_SEND_ERROR.rawValue,
                                                   CURLE_RECV_ERROR.rawValue, CURLE_PARTIAL_FILE.rawValue,
                                                   CURLE_HTTP2.rawValue, CURLE_HTTP2_STREAM.rawValue]

    /// Why `error` may be retried for `request` (for the log line), or nil.
    static func reason(_ error: JumpError, of request: HTTPRequest) -> String? {
        guard error.status == .network, let code = error.detail["curl_code"]?.intValue,
              let curlCode = UInt32(exactly: code) else { return nil }
        if neverSentCodes.contains(curlCode) { return "not sent (curl code \(code))" }
        if request.replay == .idempotent, lostConnectionCodes.contains(curlCode) { return "connection lost (curl code \(code))" }
        return nil
    }

    /// Why `response` may be retried for `request`, or nil (it is the answer).
    static func reason(_ response: HTTPResponse, of request: HTTPRequest) -> String? {
        guard request.replay == .idempotent else { return nil }
        if transientStatuses.contains(response.status) { return "HTTP \(response.status)" }
        guard request.expectsJSON, (200..<300).contains(response.status), response.status != 204 else { return nil }
        let first = response.chunks.lazy.flatMap { $0 }.first { $0 > 0x20 }
        if first == nil { return "an empty answer (HTTP \(response.status))" }
        if first == UInt8(ascii: "<") || (response.contentType?.lowercased().contains("html") ?? false) {
            return "an HTML page instead of JSON (HTTP \(response.status))"
        }
        return nil
    }

    /// Milliseconds the server asked to wait (`Retry-After`: seconds, or an HTTP date measured against the
    /// answer's own `Date`, so this device's clock does not matter), or nil when it did not say.
    static func retryAfterMs(_ response: HTTPResponse, clock: ServerClock, url: String) -> Int? {
        func header(_ name: String) -> String? { response.headers.last { headerName($0.0, is: name) }?.1.trimmingSpaces() }
        guard let value = header("retry-after"), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return Int(value.prefix(7)).map { $0 * 1000 } ?? Int.max
        }
        guard let when = HTTPDate.parse(value) else { return nil }
        let now = header("date").flatMap(HTTPDate.parse) ?? clock.now(for: ServerClock.origin(of: url))
        return Int(clamping: max(0, when - now)) &* 1000
    }

    /// Capped exponential backoff with full jitter: anywhere from 0 to min(cap, base * 2^(retry-1)), so
    /// clients that failed together do not come back together.
    static func backoffMs(retry: Int) -> Int {
        let ceiling = min(maxBackoffMs, baseBackoffMs << min(max(retry - 1, 0), 16))
        return Int.random(in: 0...ceiling)
    }

    static let baseBackoffMs = 200
    static let maxBackoffMs = 5_000
}
