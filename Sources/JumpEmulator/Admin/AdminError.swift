import Hummingbird

/// An admin API error: `{"error":"<name>","message":"<text>"}` with a 4xx (or 5xx) status.
struct AdminError: Error, Sendable {
    var status: HTTPResponse.Status
    var error: String
    var message: String
    var extras: [String: JSONValue] = [:]

    var response: Response {
        var body = extras
        body["error"] = .string(error)
        body["message"] = .string(message)
        return JSONResponse.make(.object(body), status: status)
    }

    static func badRequest(_ message: String) -> AdminError {
        AdminError(status: .badRequest, error: "bad_request", message: message)
    }

    static func notFound(_ message: String) -> AdminError {
        AdminError(status: .notFound, error: "not_found", message: message)
    }

    static func conflict(_ error: String, _ message: String) -> AdminError {
        AdminError(status: .conflict, error: error, message: message)
    }

    /// A record the schema refuses, with the Capture error that says why.
    static func invalidRecord(_ captureError: CaptureError) -> AdminError {
        let status: HTTPResponse.Status = captureError.code == 361 ? .conflict : .badRequest
        let name = captureError.code == 361 ? "unique_violation" : "invalid_record"
        return AdminError(status: status, error: name, message: captureError.description,
                          extras: ["capture_error": captureError.json])
    }
}
