import CCurl
import Glibc

/// A write goes out once. When a kept-alive connection turns out dead after a request went on it (the server
/// closed it as the request arrived, or after applying it), libcurl rewinds the body and sends the request
/// again on a new connection, unseen (RFC 9110 §9.2.2 forbids that for a request that is not idempotent).
/// It rewinds a body given with CURLOPT_POSTFIELDS by itself; a body read through CURLOPT_READFUNCTION only
/// through CURLOPT_SEEKFUNCTION. So a write's body is read through a callback and has no seek function: the
/// resend fails with CURLE_SEND_FAIL_REWIND instead, and the transport reports an unknown outcome
/// (CurlTransport.error(for:)). This costs nothing on a healthy connection (libcurl 7.88 has no
/// CURLOPT_FORBID_RETRY_ON_REUSE; a fresh connection per write would cost a handshake each). An empty body has
/// nothing to rewind, so libcurl would resend it freely: such a write gets a connection of its own.
enum WriteOnce {
    static func prepare(_ curl: UnsafeMutableRawPointer, sink: ResponseSink, body: [UInt8], context: UnsafeMutableRawPointer) {
        sink.upload = body
        sink.uploaded = 0
        _ = jumpi_curl_setopt_write(curl, CURLOPT_READFUNCTION, uploadCallback)
        _ = jumpi_curl_setopt_ptr(curl, CURLOPT_READDATA, context)
        if body.isEmpty { _ = jumpi_curl_setopt_long(curl, CURLOPT_FRESH_CONNECT, 1) }
    }
}

/// libcurl's read callback: the next piece of the body (ResponseSink.upload), 0 at its end.
private let uploadCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    buffer, size, count, context in
    let abort = 0x1000_0000  // CURL_READFUNC_ABORT
    guard let buffer, let context else { return abort }
    let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
    let (room, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, room >= 0, sink.uploaded <= sink.upload.count else { return abort }
    let length = min(room, sink.upload.count - sink.uploaded)
    guard length > 0 else { return 0 }
    sink.upload.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress { memcpy(buffer, base + sink.uploaded, length) }
    }
    sink.uploaded += length
    return length
}
