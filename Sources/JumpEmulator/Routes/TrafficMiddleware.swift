import Foundation
import Hummingbird
import NIOCore

/// Counts every non-admin request and applies queued faults to it (see `Faults.swift`).
/// Admin calls are never counted or faulted, so a test can always inspect and reset.
struct TrafficMiddleware: RouterMiddleware {
    typealias Context = EmulatorRequestContext
    let emulator: Emulator

    static let htmlPage = """
        <!DOCTYPE html>
        <html><head><title>502 Bad Gateway</title></head>
        <body><h1>502 Bad Gateway</h1><p>The upstream server did not answer (injected fault).</p></body></html>
        """

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard !AdminPaths.isAdmin(path) else { return try await next(request, context) }
        let method = request.method.rawValue
        emulator.counters.record(method: method, path: path)
        // Read the body here (bounded as everywhere) to count its bytes; the endpoint reads the
        // buffered copy.
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        emulator.counters.addBytes(body.readableBytes, method: method, path: path)
        guard let fault = emulator.faults.take(path: path) else { return try await next(request, context) }
        switch fault.kind {
        case .http500:
            return JSONResponse.make(
                ["stat": "error", "code": 500, "error": "unexpected_error",
                 "error_description": "injected fault: internal server error"],
                status: .internalServerError)
        case .html:
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: .badGateway, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.htmlPage)))
        case .garbage:
            return JSONResponse.raw("{\"stat\":\"ok\",")
        case .empty:
            return JSONResponse.raw("")
        case .captureError:
            return JSONResponse.make(CaptureError.injected(code: fault.code).json)
        case .delay:
            try await Task.sleep(for: .milliseconds(fault.delayMilliseconds))
            return try await next(request, context)
        case .http429, .http503:
            let tooMany = fault.kind == .http429
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            if let retryAfter = fault.retryAfter { headers[.retryAfter] = retryAfter }
            let body = tooMany
                ? #"{"error":"rate_limited","error_description":"injected fault: too many requests"}"#
                : #"{"error":"service_unavailable","error_description":"injected fault: service unavailable"}"#
            return Response(status: tooMany ? .tooManyRequests : .serviceUnavailable, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: body)))
        case .reset:
            // SO_LINGER 0: close() sends a RST at once, as a crashed server or a middlebox dropping the
            // connection does; the answer written after it goes nowhere.
            let channel = context.channel
            if let socket = channel as? any SocketOptionProvider {
                try? await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
            }
            try? await channel.close().get()
            return Response(status: .internalServerError)
        case .lostAnswer:
            _ = try await next(request, context)
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: .badGateway, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.htmlPage)))
        }
    }
}
