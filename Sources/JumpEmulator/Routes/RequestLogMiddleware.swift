import Hummingbird
import Logging

/// One stderr line per request: method, path and status. Never the query string or body, which
/// can carry tokens, passwords and secrets.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = EmulatorRequestContext
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            let response = try await next(request, context)
            logger.info("\(request.method) \(request.uri.path) \(response.status.code)")
            return response
        } catch let error as any HTTPResponseError {
            logger.info("\(request.method) \(request.uri.path) \(error.status.code)")
            throw error
        } catch {
            logger.info("\(request.method) \(request.uri.path) 500")
            throw error
        }
    }
}
