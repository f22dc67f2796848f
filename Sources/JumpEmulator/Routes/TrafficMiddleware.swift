import Foundation
import Hummingbird

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
        case .lostAnswer:
            _ = try await next(request, context)
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: .badGateway, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.htmlPage)))
        }
    }
}
