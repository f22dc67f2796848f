import Hummingbird

/// Builds HTTP responses carrying JSON.
///
/// Android's SDK only treats a body as JSON when `Content-Type` starts with `application/json`
/// (docs/protocol.md §2.2), so every JSON answer goes through here.
enum JSONResponse {
    static func make(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        respond(ByteBuffer(bytes: value.serializedBytes()), status: status)
    }

    /// A body that is sent as-is with the JSON content type (also used for deliberately broken bodies).
    static func raw(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        respond(ByteBuffer(string: text), status: status)
    }

    private static func respond(_ body: ByteBuffer, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
