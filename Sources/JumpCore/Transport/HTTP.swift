import JumpRuntime

/// One HTTP exchange, as the Capture and Engage clients need it (no streaming: bodies are small).
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// GETs follow redirects unless this is false (never with credentials: a redirect must not carry them
    /// to another host).
    public var followRedirects = true
    /// When a failed attempt may be sent again (RetryingTransport): by default only when it provably never
    /// reached the server, which is safe for any request.
    public var replay = Replay.ifNeverSent
    /// The answer must be JSON: an HTML page or an empty body in its place is a proxy's, and is retried like
    /// a 502 when the request is `idempotent`.
    public var expectsJSON = false
    /// The time left for this attempt (RetryingTransport keeps every attempt within one requestTimeoutMs);
    /// nil: the transport's own timeout.
    public var timeoutMs: Int?

    public enum Replay: Sendable {
        /// A write: sent again only when it never left (connection refused, host not found).
        case ifNeverSent
        /// A read, or a request the server answers the same when it comes twice (the refresh): also sent
        /// again after a transient answer (429, 500, 502, 503, 504) or a connection lost mid-way.
        case idempotent
    }

    /// A request with side effects: libcurl must never send it a second time on its own (WriteOnce), and a
    /// lost answer is an unknown outcome (JumpError.isOutcomeUnknown), settled by whoever sent it.
    public var sendsOnce: Bool { method != "GET" && method != "HEAD" && replay == .ifNeverSent }

    public init(method: String, url: String, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// scheme://host[:port]/path without the query string: safe for messages and logs.
    public var redactedURL: String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String?
    /// The body as it arrived, in pieces of at most `chunkBytes`: a large answer can be released piece by
    /// piece while it is parsed (ResponseDecoder), instead of living whole beside its parse tree.
    public var chunks: [[UInt8]]
    public static let chunkBytes = 256 << 10
    /// The body in one piece (a copy when it came in several).
    public var body: [UInt8] {
        get { chunks.count == 1 ? chunks[0] : Array(chunks.joined()) }
        set { chunks = [newValue] }
    }
    /// The final response's headers, in order (names as the server sent them).
    public var headers: [(String, String)] = []
    /// When the request's time is up (Clock.monotonicMilliseconds): reading the answer counts too, so a
    /// huge or slow-to-parse answer ends in JUMP_E_TIMEOUT, not minutes of CPU. nil: no deadline.
    public var deadline: Int64?

    public init(status: Int, contentType: String?, body: [UInt8]) {
        self.init(status: status, contentType: contentType, chunks: [body])
    }

    public init(status: Int, contentType: String?, chunks: [[UInt8]]) {
        self.status = status
        self.contentType = contentType
        self.chunks = chunks
    }
}

/// Whether a header's `name` is `lowercased` (header names are ASCII and have no case), without making a
/// lowercased copy of every name each answer brings.
func headerName(_ name: String, is lowercased: String) -> Bool {
    guard name.utf8.count == lowercased.utf8.count else { return false }
    return zip(name.utf8, lowercased.utf8).allSatisfy { a, b in (a >= 0x41 && a <= 0x5A ? a | 0x20 : a) == b }
}

/// How JumpCore reaches servers. Production: `CurlTransport`. Tests may substitute their own.
public protocol Transport: Sendable {
    func send(_ request: HTTPRequest, cancellation: Cancellation?) throws(JumpError) -> HTTPResponse
}
