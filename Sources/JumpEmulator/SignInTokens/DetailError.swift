import Hummingbird

/// An error of the Junction-style API (`/v1/token`, `/v1/revoke`, `/v2/...`, `/weblogin/me`):
/// `{"detail":{"error_type":"<name>","message":"<text>",...}}` with a 4xx status. The SDKs key their
/// behaviour on `detail.error_type` (docs/protocol.md §12.3, §12.4), so every failure names one.
struct DetailError: Error, Sendable {
    var status: HTTPResponse.Status
    var errorType: String
    var message: String
    var extras: [String: JSONValue] = [:]
    /// Adds `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3) to a refused bearer token.
    var challengesBearer = false

    var response: Response {
        var detail = extras
        detail["error_type"] = .string(errorType)
        detail["message"] = .string(message)
        var response = JSONResponse.make(["detail": .object(detail)], status: status)
        if challengesBearer {
            response.headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\""
        }
        return response
    }

    /// A bad or missing form field, grant or body (HTTP 400).
    static func invalidRequest(_ message: String) -> DetailError {
        DetailError(status: .badRequest, errorType: "invalid_request", message: message)
    }

    /// A sign-in token the exchange refuses, or a refresh for a deleted user (HTTP 400): the SDKs
    /// read it as "invalid sign-in token" on exchange and "user no longer valid" on refresh.
    static func invalidToken(_ message: String) -> DetailError {
        DetailError(status: .badRequest, errorType: "invalid_token", message: message)
    }

    /// A refresh token that can never work again (HTTP 400): the SDKs ask for a new sign-in token.
    static func reauthenticationRequired(_ message: String) -> DetailError {
        DetailError(status: .badRequest, errorType: "reauthentication_required", message: message)
    }

    /// A missing, unknown, expired or revoked access token on a resource call (HTTP 401).
    static func unauthorizedBearer(_ message: String) -> DetailError {
        DetailError(status: .unauthorized, errorType: "invalid_token", message: message, challengesBearer: true)
    }

    static func invalidAPIKey() -> DetailError {
        DetailError(status: .unauthorized, errorType: "invalid_api_key", message: "the API key is not a team's key")
    }

    static func forbidden(_ message: String) -> DetailError {
        DetailError(status: .forbidden, errorType: "forbidden", message: message)
    }

    static func notFound(_ message: String) -> DetailError {
        DetailError(status: .notFound, errorType: "not_found", message: message)
    }
}
