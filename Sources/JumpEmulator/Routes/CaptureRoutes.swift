import Hummingbird
import Logging

/// The Capture endpoints, at the paths the SDKs call (protocol.md §3.3), plus the ready probe.
struct CaptureRoutes: Sendable {
    let emulator: Emulator
    let logger: Logger

    func register(on router: Router<EmulatorRequestContext>) {
        router.get("/") { _, _ in
            JSONResponse.make(["jumpEmulator": ["ready": true, "version": .string(EmulatorOptions.version)]])
        }
        post("/oauth/auth_native_traditional", on: router, SignInEndpoint(emulator: emulator).handle)
        post("/oauth/register_native_traditional", on: router, RegistrationEndpoint(emulator: emulator).handle)
        post("/oauth/auth_native", on: router, AuthNativeEndpoint(emulator: emulator).handle)
        post("/oauth/register_native", on: router, RegisterNativeEndpoint(emulator: emulator).handle)
        post("/oauth/link_account_native", on: router, LinkAccountEndpoint(emulator: emulator).handle)
        post("/oauth/unlink_account_native", on: router, UnlinkAccountEndpoint(emulator: emulator).handle)
        post("/oauth/refresh_access_token", on: router, RefreshEndpoint(emulator: emulator).handle)
        post("/oauth/update_profile_native", on: router, UpdateProfileEndpoint(emulator: emulator).handle)
        post("/oauth/forgot_password_native", on: router,
             MailedCodeEndpoint(emulator: emulator, kind: .passwordReset).handle)
        post("/oauth/verify_email_native", on: router, MailedCodeEndpoint(emulator: emulator, kind: .verification).handle)
        post("/oauth/token", on: router, TokenEndpoint(emulator: emulator).handle)
        post("/entity", on: router, EntityEndpoint(emulator: emulator).handle)
        post("/entity.update", on: router, EntityUpdateEndpoint(emulator: emulator).handle)
        post("/entity.replace", on: router, EntityReplaceEndpoint(emulator: emulator).handle)
        post("/entity.delete", on: router, EntityDeleteEndpoint(emulator: emulator).handle)
        post("/entityType", on: router, EntityTypeEndpoint(emulator: emulator).handle)
        let accessSchemas = AccessSchemaEndpoints(emulator: emulator)
        post("/entityType.setAccessSchema", on: router, accessSchemas.set)
        post("/entityType.getAccessSchema", on: router, accessSchemas.get)
    }

    private func post(
        _ path: RouterPath, on router: Router<EmulatorRequestContext>,
        _ handler: @escaping @Sendable (CaptureCall) async throws -> JSONValue
    ) {
        let logger = self.logger
        router.post(path) { request, context in
            try await Self.respond(request, context: context, logger: logger, handler)
        }
    }

    /// Capture answers API errors with HTTP 200 and a `stat:"error"` body; only a failure of the
    /// emulator itself is an HTTP 500.
    static func respond(
        _ request: Request, context: EmulatorRequestContext, logger: Logger,
        _ handler: @Sendable (CaptureCall) async throws -> JSONValue
    ) async throws -> Response {
        do {
            let call = try await RequestBodies.captureCall(request, context: context)
            return JSONResponse.make(try await handler(call))
        } catch let error as CaptureError {
            return JSONResponse.make(error.json, status: HTTPResponse.Status(code: error.httpStatus))
        } catch let error as any HTTPResponseError {
            throw error  // e.g. 413 for an oversized body; ErrorBodyMiddleware words it
        } catch {
            // Not the request's fault: say so without leaking internals (which might hold data).
            logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
            return JSONResponse.make(CaptureError.unexpected("the emulator failed to handle the request").json,
                                     status: .internalServerError)
        }
    }
}
