import CCurl
import Glibc
import JumpRuntime

/// Whether this libcurl's curl_global_init may run while other threads use libcurl (CURL_VERSION_THREADSAFE,
/// 7.84 and later); if not, it runs when the first client is created, as libcurl asks.
private let curlInitIsThreadSafe = jumpi_curl_init_is_thread_safe() != 0

/// HTTP through libcurl. Each request runs on an easy handle driven by its own multi handle: the multi's
/// connection cache keeps connections alive between requests (idle pairs are pooled), and its poll loop
/// lets a cancellation stop a request within `pollMilliseconds`.
public final class CurlTransport: Transport {
    static let pollMilliseconds: Int32 = 100

    private let connectTimeoutMs: Int
    private let requestTimeoutMs: Int
    /// A response body larger than this is refused while it arrives (config maxResponseBytes): a hostile or
    /// broken server must not make the host hold and parse hundreds of megabytes.
    private let maxResponseBytes: Int
    private let userAgent: String
    /// Proxy, trusted roots and pinned keys (NetworkSettings).
    private let network: NetworkSettings
    private let idle = Lock<[EasyHandle]>([])

    /// `maxResponseBytes` nil: the maxResponseBytes key's default.
    public init(connectTimeoutMs: Int, requestTimeoutMs: Int, maxResponseBytes: Int? = nil,
                userAgent: String = LibraryVersion.userAgent, network: NetworkSettings = NetworkSettings()) {
        if !curlInitIsThreadSafe { _ = curlGlobalInit }
        self.userAgent = userAgent
        self.connectTimeoutMs = connectTimeoutMs
        self.requestTimeoutMs = requestTimeoutMs
        self.maxResponseBytes = maxResponseBytes ?? Int(ConfigKey.maxResponseBytes.defaultInt)
        self.network = network
    }

    deinit {
        for handle in idle.withLock({ $0 }) where handle.epoch == ForkSafety.epoch { handle.cleanup() }
    }

    public func send(_ request: HTTPRequest, cancellation: Cancellation?) throws(JumpError) -> HTTPResponse {
        try cancellation?.check()
        SecretScrubber.rememberQuerySecrets(of: request.url)
        for (name, value) in request.headers {
            try HeaderGrammar.check(name: name, value: value)
            if HeaderGrammar.carriesCredential(name) { SecretScrubber.remember(HeaderGrammar.credential(in: value)) }
        }
        guard let handle = takeHandle() else { throw JumpError.internal("libcurl could not create a handle") }
        let started = Clock.monotonicMilliseconds()
        let result = perform(request, on: handle, cancellation: cancellation)
        let elapsed = Clock.monotonicMilliseconds() - started
        switch result {
        case .success(var response):
            response.deadline = started + Int64(timeoutMs(of: request))
            returnHandle(handle)
            Log.debug("\(request.method) \(request.redactedURL) -> \(response.status) in \(elapsed) ms")
            return response
        case .failure(let error):
            // A failed handle may hold a broken connection: drop it rather than pool it.
            handle.cleanup()
            Log.info("\(request.method) \(request.redactedURL) failed in \(elapsed) ms: \(error.message)")
            throw error
        }
    }

    /// A request from a fiber goes through the process's I/O loop with a handle of the loop's pool; any
    /// other blocks its thread on a handle of this client's own.
    private func takeHandle() -> EasyHandle? {
        _ = curlGlobalInit
        if Fiber.mayPark, let loop = IOLoop.shared {
            if let easy = loop.idleHandles.withLock({ $0.popLast() }) { return EasyHandle(easy: easy, loop: loop) }
            return curl_easy_init().map { EasyHandle(easy: $0, loop: loop) }
        }
        if let pooled = idle.withLock({ $0.popLast() }) {
            if pooled.epoch == ForkSafety.epoch { return pooled }
            idle.withLock { $0.removeAll() }  // all made before the fork: left, not cleaned up
        }
        guard let easy = curl_easy_init() else { return nil }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            return nil
        }
        return EasyHandle(easy: easy, multi: multi)
    }

    private func returnHandle(_ handle: EasyHandle) {
        curl_easy_reset(handle.easy)
        let pooled = if let loop = handle.loop {
            loop.idleHandles.keep(handle.easy, upTo: IOLoop.idleHandlesKept)
        } else {
            idle.keep(handle, upTo: 8)
        }
        if !pooled { handle.cleanup() }
    }

    /// The request's own time left (a retry's), never more than requestTimeoutMs.
    private func timeoutMs(of request: HTTPRequest) -> Int {
        max(1, min(requestTimeoutMs, request.timeoutMs ?? requestTimeoutMs))
    }

    private func perform(_ request: HTTPRequest, on handle: EasyHandle,
                         cancellation: Cancellation?) -> Result<HTTPResponse, JumpError> {
        let curl = handle.easy
        let sink = ResponseSink(limit: maxResponseBytes)
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(headerList) }
        for (name, value) in request.headers {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        // Without this libcurl sends "Expect: 100-continue" for larger bodies and waits a round trip.
        headerList = curl_slist_append(headerList, "Expect:")

        var code = request.url.withCString { jumpi_curl_setopt_ptr(curl, CURLOPT_URL, $0) }
        guard code == CURLE_OK else {
            return .failure(.invalidArgument("'\(request.redactedURL)' is not a usable URL"))
        }
        _ = "http,https".withCString { jumpi_curl_setopt_ptr(curl, CURLOPT_PROTOCOLS_STR, $0) }
        // libcurl copies option strings, so the pointer need not outlive the call.
        _ = userAgent.withCString { jumpi_curl_setopt_ptr(curl, CURLOPT_USERAGENT, $0) }
        _ = jumpi_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = jumpi_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMs)
        _ = jumpi_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, timeoutMs(of: request))
        if let refused = applyNetwork(to: curl) { return .failure(refused) }
        _ = jumpi_curl_setopt_write(curl, CURLOPT_WRITEFUNCTION, writeCallback)
        _ = jumpi_curl_setopt_ptr(curl, CURLOPT_WRITEDATA, context.toOpaque())
        _ = jumpi_curl_setopt_write(curl, CURLOPT_HEADERFUNCTION, headerCallback)
        _ = jumpi_curl_setopt_ptr(curl, CURLOPT_HEADERDATA, context.toOpaque())
        _ = jumpi_curl_setopt_ptr(curl, CURLOPT_HTTPHEADER, headerList)
        _ = "".withCString { jumpi_curl_setopt_ptr(curl, CURLOPT_ACCEPT_ENCODING, $0) }
        if request.method == "GET" {
            _ = jumpi_curl_setopt_long(curl, CURLOPT_HTTPGET, 1)
            if request.followRedirects {
                _ = jumpi_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 1)
                _ = jumpi_curl_setopt_long(curl, CURLOPT_MAXREDIRS, 5)
            }
        } else {
            _ = jumpi_curl_setopt_long(curl, CURLOPT_POST, 1)
            _ = jumpi_curl_setopt_off(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            if request.method != "POST" {
                _ = request.method.withCString { jumpi_curl_setopt_ptr(curl, CURLOPT_CUSTOMREQUEST, $0) }
            }
            if request.sendsOnce { WriteOnce.prepare(curl, sink: sink, body: request.body, context: context.toOpaque()) }
        }

        if request.sendsOnce {
            code = drive(handle, request: request, cancellation: cancellation)
        } else {
            // COPYPOSTFIELDS would copy; the buffer outlives the transfer here, so lend it. libcurl rewinds
            // such a body by itself and sends it again when a reused connection turns out dead: fine for a
            // read or the refresh, never for a write (WriteOnce).
            let body = request.body.isEmpty ? [0] : request.body
            code = body.withUnsafeBufferPointer { buffer in
                if request.method != "GET" { _ = jumpi_curl_setopt_ptr(curl, CURLOPT_POSTFIELDS, buffer.baseAddress) }
                let performed = drive(handle, request: request, cancellation: cancellation)
                _ = jumpi_curl_setopt_ptr(curl, CURLOPT_POSTFIELDS, nil)
                return performed
            }
        }
        if code != CURLE_OK {
            var sent = 0
            _ = jumpi_curl_request_size(curl, &sent)
            return .failure(error(for: code, request: request, sink: sink, sent: sent > 0 || sink.uploaded > 0))
        }
        var status = 0
        _ = jumpi_curl_response_code(curl, &status)
        var contentType: UnsafeMutablePointer<CChar>? = nil
        _ = jumpi_curl_content_type(curl, &contentType)
        var response = HTTPResponse(status: status, contentType: contentType.map { String(cString: $0) }, chunks: sink.chunks)
        response.headers = sink.headers
        return .success(response)
    }

    /// The proxy, roots and pins of the client's configuration (unset keys leave libcurl's defaults). A
    /// setting this libcurl cannot enforce (pinning on a TLS backend without it, say) is refused, never
    /// dropped: a pin that is silently not checked fails open.
    private func applyNetwork(to curl: UnsafeMutableRawPointer) -> JumpError? {
        if let proxy = network.proxy {
            _ = proxy.withCString { jumpi_curl_setopt_ptr(curl, CURLOPT_PROXY, $0) }
            // A proxy given in the configuration takes every request: no_proxy in the environment does not
            // quietly send some around it.
            if !proxy.isEmpty { _ = "".withCString { jumpi_curl_setopt_ptr(curl, CURLOPT_NOPROXY, $0) } }
        }
        if let bundle = network.caBundle {
            // The same roots verify an https:// proxy: a private CA usually signs both.
            for option in [CURLOPT_CAINFO_BLOB, CURLOPT_PROXY_CAINFO_BLOB] {
                let code = bundle.withUnsafeBytes { jumpi_curl_setopt_blob(curl, option, $0.baseAddress, $0.count) }
                if code != CURLE_OK { return unsupported("caFile", code) }
            }
        }
        if let pins = network.pinnedPublicKeys {
            let code = pins.withCString { jumpi_curl_setopt_ptr(curl, CURLOPT_PINNEDPUBLICKEY, $0) }
            if code != CURLE_OK { return unsupported("pinnedPublicKeys", code) }
        }
        return nil
    }

    private func unsupported(_ key: String, _ code: CURLcode) -> JumpError {
        JumpError(.unsupported, "configuration key '\(key)' cannot be enforced by this libcurl (\(String(cString: curl_easy_strerror(code)))): "
                  + "refused rather than ignored", detail: ["argument": .string(key), "curl_code": .int(Int64(code.rawValue))])
    }

    /// Runs the transfer to its end: on the I/O loop for a handle of the loop's (the fiber parks until it is
    /// over), else here, polling so that a cancellation is seen within pollMilliseconds.
    private func drive(_ handle: EasyHandle, request: HTTPRequest, cancellation: Cancellation?) -> CURLcode {
        if let loop = handle.loop {
            return loop.perform(handle.easy, lookupHost: LookupHost.of(request.url, proxy: network.proxy),
                                timeoutMs: timeoutMs(of: request), cancellation: cancellation) ?? CURLE_FAILED_INIT
        }
        guard let multi = handle.multi else { return CURLE_FAILED_INIT }
        // A fiber that may not park (it holds a Lock) waits here with its thread: other fibers get one meanwhile.
        return FiberPool.blocking { driveHere(handle.easy, multi: multi, cancellation: cancellation) }
    }

    private func driveHere(_ easy: UnsafeMutableRawPointer, multi: UnsafeMutableRawPointer, cancellation: Cancellation?) -> CURLcode {
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else { return CURLE_FAILED_INIT }
        defer { curl_multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        while running > 0 {
            guard curl_multi_perform(multi, &running) == CURLM_OK else { return CURLE_FAILED_INIT }
            if running == 0 { break }
            if cancellation?.isCancelled == true { return CURLE_ABORTED_BY_CALLBACK }
            guard curl_multi_poll(multi, nil, 0, Self.pollMilliseconds, nil) == CURLM_OK else { return CURLE_FAILED_INIT }
        }
        var result = CURLE_FAILED_INIT
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
        }
        return result
    }

    private func error(for code: CURLcode, request: HTTPRequest, sink: ResponseSink, sent: Bool) -> JumpError {
        let reason = String(cString: curl_easy_strerror(code))
        let target = request.redactedURL
        if sink.tooLarge {
            return JumpError(.server, "the response from \(target) is larger than maxResponseBytes (\(maxResponseBytes) bytes): "
                             + "refused while it arrived", detail: ["max_response_bytes": .int(Int64(maxResponseBytes))])
        }
        switch code {
        case CURLE_ABORTED_BY_CALLBACK:
            return JumpError(.cancelled, "the request to \(target) was cancelled")
        case CURLE_OPERATION_TIMEDOUT:
            // A write that left may have been applied all the same. Not settled by another request: a server
            // too slow to answer is not sent more.
            if request.sendsOnce, sent {
                return JumpError(.timeout, "no answer from \(target) in time (\(reason)) after the request was sent: "
                                 + "whether the server applied it is not known, and it was not sent again",
                                 detail: ["reason": .string(JumpError.outcomeUnknownReason)])
            }
            return JumpError(.timeout, "no answer from \(target) in time (\(reason))")
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidArgument("'\(target)' is not a usable URL (\(reason))")
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return JumpError(.network, "\(target) presented a public key that is not among pinnedPublicKeys: refused (\(reason))",
                             detail: ["curl_code": .int(Int64(code.rawValue)), "reason": "pin_mismatch"])
        case CURLE_PEER_FAILED_VERIFICATION:
            return JumpError(.network, "the certificate of \(target) is not trusted (\(reason)); a private CA goes in caFile",
                             detail: ["curl_code": .int(Int64(code.rawValue)), "reason": "tls_untrusted"])
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE:
            return JumpError(.network, "no TLS connection to \(target): \(reason)",
                             detail: ["curl_code": .int(Int64(code.rawValue)), "reason": "tls_failed"])
        default:
            // A write that left and whose connection broke may have been applied; WriteOnce kept libcurl from
            // sending it again.
            if request.sendsOnce, sent, !RetryRule.neverSentCodes.contains(code.rawValue) {
                return JumpError(.network, "the connection to \(target) was lost after the request was sent (\(reason)): "
                                 + "whether the server applied it is not known, and it was not sent again",
                                 detail: ["curl_code": .int(Int64(code.rawValue)), "reason": .string(JumpError.outcomeUnknownReason)])
            }
            return JumpError(.network, "could not reach \(target): \(reason)", detail: ["curl_code": .int(Int64(code.rawValue))])
        }
    }
}

/// A CURL* and what drives it: the CURLM* of its own (a blocking request), or the process's I/O loop (a
/// fiber's). They may cross threads (libcurl allows a handle to move between threads, used by one at a time).
private struct EasyHandle: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    let multi: UnsafeMutableRawPointer?
    let loop: IOLoop?
    /// Made before a fork(): its connections are shared with the other process, so neither reuses nor closes
    /// them here (closing a TLS connection writes to a socket the parent still uses); the handle is left.
    let epoch = ForkSafety.epoch

    init(easy: UnsafeMutableRawPointer, multi: UnsafeMutableRawPointer) {
        self.easy = easy
        self.multi = multi
        loop = nil
    }

    init(easy: UnsafeMutableRawPointer, loop: IOLoop) {
        self.easy = easy
        multi = nil
        self.loop = loop
    }

    func cleanup() {
        curl_easy_cleanup(easy)
        if let multi { curl_multi_cleanup(multi) }
    }
}

/// Collects the body in libcurl's write callback, and the headers of the final response.
final class ResponseSink {
    let limit: Int
    var chunks: [[UInt8]] = []
    var count = 0
    var tooLarge = false
    var headers: [(String, String)] = []
    var headerBytes = 0
    /// A write's body, handed to libcurl piece by piece (WriteOnce), and how much of it went.
    var upload: [UInt8] = []
    var uploaded = 0

    init(limit: Int) { self.limit = limit }
}

/// One header line per call; a status line starts a new response (after a redirect or a 100), whose
/// headers replace the previous ones.
private let headerCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let context else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, total >= 0 else { return 0 }
    sink.headerBytes += total
    guard sink.headerBytes <= 1 << 20 else { return 0 }
    guard let data, total > 0 else { return total }
    // Read as bytes: this runs for every header line of every answer.
    data.withMemoryRebound(to: UInt8.self, capacity: total) { start in
        let line = UnsafeBufferPointer(start: start, count: total)
        if line.starts(with: "HTTP/".utf8) {
            sink.headers = []
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = trimmedText(line[..<colon])
            if !name.isEmpty { sink.headers.append((name, trimmedText(line[(colon + 1)...]))) }
        }
    }
    return total
}

/// `bytes` without the spaces, tabs and line ends around them (a header's optional whitespace and CRLF).
private func trimmedText(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
    var lower = bytes.startIndex, upper = bytes.endIndex
    while lower < upper, isSpace(bytes[lower]) { lower += 1 }
    while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
    return String(decoding: bytes[lower..<upper], as: UTF8.self)
}

private let writeCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let context else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, total >= 0 else { return 0 }
    guard total <= sink.limit - sink.count else {
        sink.tooLarge = true
        return 0
    }
    if let data, total > 0 {
        data.withMemoryRebound(to: UInt8.self, capacity: total) {
            let piece = UnsafeBufferPointer(start: $0, count: total)
            if let last = sink.chunks.indices.last, sink.chunks[last].count + total <= HTTPResponse.chunkBytes {
                sink.chunks[last].append(contentsOf: piece)  // in place
            } else {
                sink.chunks.append(Array(piece))
            }
        }
        sink.count += total
    }
    return total
}
