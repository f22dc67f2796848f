import Hummingbird
import Logging

/// The sign-in-token API at the paths the Junction SDKs and a team's backend call
/// (docs/protocol.md §12.3, §12.4, §12.7, §12.9): `/v1/token`, `/v1/revoke`, `/v1/jwks` and `/v2/user...`.
/// Errors are `{"detail":{"error_type","message"}}` (see `DetailError`).
struct SignInTokenRoutes: Sendable {
    let emulator: Emulator
    let logger: Logger

    typealias Handler = @Sendable (Request, EmulatorRequestContext) async throws -> JSONValue

    func register(on router: Router<EmulatorRequestContext>) {
        let emulator = self.emulator
        let grants = TokenGrantEndpoint(emulator: emulator)
        let revoke = RevokeEndpoint(emulator: emulator)
        let users = TokenUserEndpoints(emulator: emulator)
        let profiles = ProfileEndpoints(emulator: emulator)

        route(router, .get, "/v1/jwks") { _, _ in try emulator.signingKey.jwks() }
        route(router, .post, "/v1/token") { request, context in
            try await grants.handle(try await Self.form(request, context))
        }
        route(router, .post, "/v1/revoke") { request, context in
            try await revoke.handle(try await Self.form(request, context))
        }

        route(router, .post, "/v2/user") { request, context in try await users.create(request, context) }
        route(router, .get, "/v2/user/:user_id") { request, context in
            try await users.get(request, userId: try Self.userId(context))
        }
        route(router, .delete, "/v2/user/:user_id") { request, context in
            try await users.delete(request, userId: try Self.userId(context))
        }
        route(router, .post, "/v2/user/:user_id/sign_in_token") { request, context in
            try await users.signInToken(request, userId: try Self.userId(context))
        }
        route(router, .post, "/v2/user/:user_id/revoke_tokens") { request, context in
            try await users.revokeTokens(request, userId: try Self.userId(context))
        }
        route(router, .get, "/v2/user/:user_id/profile") { request, context in
            try await profiles.get(request, userId: try Self.userId(context))
        }
        route(router, .put, "/v2/user/:user_id/profile") { request, context in
            try await profiles.put(request, context, userId: try Self.userId(context))
        }
    }

    private func route(
        _ router: Router<EmulatorRequestContext>, _ method: HTTPRequest.Method, _ path: String,
        _ handler: @escaping Handler
    ) {
        let logger = self.logger
        router.on(RouterPath(path), method: method) { request, context in
            try await Self.respond(request, context: context, logger: logger, handler)
        }
    }

    static func respond(
        _ request: Request, context: EmulatorRequestContext, logger: Logger, _ handler: Handler
    ) async throws -> Response {
        do {
            return JSONResponse.make(try await handler(request, context))
        } catch let error as DetailError {
            return error.response
        } catch let error as any HTTPResponseError {
            throw error  // e.g. 413 for an oversized body; ErrorBodyMiddleware words it
        } catch {
            logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
            return DetailError(status: .internalServerError, errorType: "internal_error",
                               message: "the emulator failed to handle the request").response
        }
    }

    /// A form body (the token endpoints are `application/x-www-form-urlencoded`); query parameters
    /// count too, the body wins.
    static func form(_ request: Request, _ context: EmulatorRequestContext) async throws -> FormParams {
        FormParams(query: request.uri.query, body: try await RequestBodies.text(request, context: context))
    }

    private static func userId(_ context: EmulatorRequestContext) throws -> String {
        guard let value = context.parameters.get("user_id"), !value.isEmpty else {
            throw DetailError.invalidRequest("missing user_id in the path")
        }
        return value
    }

    /// Paths whose errors take the `{"detail":...}` shape (ErrorBodyMiddleware asks).
    static func usesDetailErrors(_ path: String) -> Bool {
        path.hasPrefix("/v1/") || path.hasPrefix("/v2/") || path == "/weblogin/me"
    }
}
