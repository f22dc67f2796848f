import Hummingbird
import Logging

/// The Capture endpoints, at the paths the SDKs call (docs/protocol.md §6, §8), plus the ready probe.
struct CaptureRoutes: Sendable {
    let emulator: Emulator
    let logger: Logger

    func register(on router: Router<EmulatorRequestContext>) {
        router.get("/") { _, _ in
            JSONResponse.make(["jumpEmulator": ["ready": true, "version": .string(EmulatorOptions.version)]])
        }
        // Sign-in and registration read the POST body only (ParameterLocation); auth_native keeps
        // the query string, which the iOS token URL uses (docs/protocol.md §2.4).
        post("/oauth/auth_native_traditional", on: router, reading: .body, SignInEndpoint(emulator: emulator).handle)
        post("/oauth/register_native_traditional", on: router, reading: .body,
             RegistrationEndpoint(emulator: emulator).handle)
        post("/oauth/auth_native", on: router, AuthNativeEndpoint(emulator: emulator).handle)
        post("/oauth/register_native", on: router, reading: .body, RegisterNativeEndpoint(emulator: emulator).handle)
        post("/oauth/link_account_native", on: router, LinkAccountEndpoint(emulator: emulator).handle)
        post("/oauth/unlink_account_native", on: router, UnlinkAccountEndpoint(emulator: emulator).handle)
        post("/oauth/refresh_access_token", on: router, RefreshEndpoint(emulator: emulator).handle)
        post("/oauth/update_profile_native", on: router, UpdateProfileEndpoint(emulator: emulator).handle)
        post("/oauth/forgot_password_native", on: router,
             MailedCodeEndpoint(emulator: emulator, kind: .passwordReset).handle)
        post("/oauth/verify_email_native", on: router, MailedCodeEndpoint(emulator: emulator, kind: .verification).handle)
        // Server-side (owner) calls are proven by the client secret: body only.
        post("/oauth/token", on: router, reading: .body, TokenEndpoint(emulator: emulator).handle)
        // These take a user's access token (query or body, as before) or the owner's credentials;
        // with the latter they switch to the body only (EntityCaller).
        post("/entity", on: router, EntityEndpoint(emulator: emulator).handle)
        post("/entity.update", on: router, EntityUpdateEndpoint(emulator: emulator).handle)
        post("/entity.replace", on: router, EntityReplaceEndpoint(emulator: emulator).handle)
        post("/entity.delete", on: router, EntityDeleteEndpoint(emulator: emulator).handle)
        post("/entityType", on: router, EntityTypeEndpoint(emulator: emulator).handle)
        post("/entity.count", on: router, reading: .body, EntityCountEndpoint(emulator: emulator).handle)
        post("/entity.find", on: router, reading: .body, EntityFindEndpoint(emulator: emulator).handle)
        post("/entity.create", on: router, reading: .body, EntityCreateEndpoint(emulator: emulator).handle)
        let accessSchemas = AccessSchemaEndpoints(emulator: emulator)
        post("/entityType.setAccessSchema", on: router, reading: .body, accessSchemas.set)
        post("/entityType.getAccessSchema", on: router, reading: .body, accessSchemas.get)
    }

    private func post(
        _ path: RouterPath, on router: Router<EmulatorRequestContext>,
        reading location: ParameterLocation = .queryOrBody,
        _ handler: @escaping @Sendable (CaptureCall) async throws -> JSONValue
    ) {
        let logger = self.logger
        router.post(path) { request, context in
            try await Self.respond(request, context: context, logger: logger, location: location, handler)
        }
    }

    /// Capture answers API errors with HTTP 200 and a `stat:"error"` body; only a failure of the
    /// emulator itself is an HTTP 500.
    static func respond(
        _ request: Request, context: EmulatorRequestContext, logger: Logger,
        location: ParameterLocation = .queryOrBody, _ handler: @Sendable (CaptureCall) async throws -> JSONValue
    ) async throws -> Response {
        var call: CaptureCall?
        do {
            let read = location.apply(to: try await RequestBodies.captureCall(request, context: context))
            call = read
            return JSONResponse.make(try await handler(read))
        } catch var error as CaptureError {
            if let call { error = ParameterLocation.explain(error, for: call) }
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
