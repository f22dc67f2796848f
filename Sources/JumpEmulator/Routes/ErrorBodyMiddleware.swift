import Hummingbird
import Logging

/// Gives every error a JSON body: Hummingbird's own errors (unknown path, body too large) would
/// otherwise come back empty, which clients cannot parse. Capture paths get Capture's error shape,
/// admin paths the admin shape, the sign-in-token API its `{"detail":...}` shape.
struct ErrorBodyMiddleware: RouterMiddleware {
    typealias Context = EmulatorRequestContext
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let status: HTTPResponse.Status
            if let httpError = error as? any HTTPResponseError {
                status = httpError.status
            } else {
                logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
                status = .internalServerError
            }
            let name = Self.errorName(status)
            let text = status == .notFound ? "no such endpoint: \(request.method) \(request.uri.path)" : status.reasonPhrase
            if AdminPaths.isAdmin(request.uri.path) {
                return AdminError(status: status, error: name, message: text).response
            }
            if SignInTokenRoutes.usesDetailErrors(request.uri.path) {
                return DetailError(status: status, errorType: name, message: text).response
            }
            return JSONResponse.make(
                ["stat": "error", "code": .int(Int64(status.code)), "error": .string(name),
                 "error_description": .string(text)],
                status: status)
        }
    }

    static func errorName(_ status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: return "not_found"
        case 405: return "method_not_allowed"
        case 413: return "request_too_large"
        case 400..<500: return "bad_request"
        default: return "unexpected_error"
        }
    }
}
