import Hummingbird

/// Reading request bodies, bounded so an oversized body is refused, never buffered whole.
enum RequestBodies {
    static func text(_ request: Request, context: EmulatorRequestContext) async throws -> String {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        return String(buffer: buffer)
    }

    /// The Capture parameters of a request: query string and form body merged (the body wins),
    /// each also kept apart (a signature covers the body only; some endpoints read only the body).
    /// A body is read as a form unless it says it is something else (JSON, multipart).
    static func captureCall(_ request: Request, context: EmulatorRequestContext) async throws -> CaptureCall {
        let body = try await text(request, context: context)
        let contentType = (request.headers[.contentType] ?? "").lowercased()
        let isForm = !contentType.contains("json") && !contentType.contains("multipart")
        let formBody = isForm ? body : nil
        return CaptureCall(
            params: FormParams(query: request.uri.query, body: formBody),
            authorizationHeader: request.headers[.authorization], path: request.uri.path,
            dateHeader: request.headers[.date], body: FormParams(query: nil, body: formBody),
            query: FormParams(query: request.uri.query, body: nil))
    }
}
