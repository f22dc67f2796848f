import Hummingbird
import Logging

/// The Engage endpoints (docs/protocol.md §4), on the same host and port as Capture: the app configuration,
/// the fake identity provider's pages, the sign-in results, auth_info and sharing. See docs/emulator.md.
struct EngageRoutes: Sendable {
    let emulator: Emulator
    let logger: Logger

    typealias JSONHandler = @Sendable (FormParams, _ base: String) async throws -> JSONValue

    func register(on router: Router<EmulatorRequestContext>) {
        let emulator = self.emulator
        let logger = self.logger
        router.get("/openid/mobile_config_and_baseurl") { request, _ in
            try await Self.config(request, emulator: emulator)
        }

        let flow = EngageSignInFlow(emulator: emulator)
        // A path parameter does not catch what a literal segment already routes (the router does not
        // backtrack), so the OpenID pages get their own routes beside `/openid/mobile_config_and_baseurl`.
        let starts: [(RouterPath, @Sendable (EmulatorRequestContext) -> String?)] = [
            ("/openid/start", { _ in EngageProviderCatalog.openIDProvider }),
            ("/saml2/sso/start", { _ in EngageProviderCatalog.samlProvider }),
            ("/:provider/start", { $0.parameters.get("provider") }),
        ]
        for (path, provider) in starts {
            router.get(path) { request, context in
                try await Self.page(request, logger: logger) {
                    guard let name = provider(context) else { return Self.unknownPage }
                    return try await flow.start(request, provider: name)
                }
            }
        }
        let callbacks: [(RouterPath, @Sendable (EmulatorRequestContext) -> String?)] = [
            ("/openid/callback", { _ in EngageProviderCatalog.openIDProvider }),
            ("/saml2/sso/callback", { _ in EngageProviderCatalog.samlProvider }),
            ("/:provider/callback", { $0.parameters.get("provider") }),
        ]
        for (path, provider) in callbacks {
            router.post(path) { request, context in
                try await Self.page(request, logger: logger) {
                    guard let name = provider(context) else { return Self.unknownPage }
                    return try await flow.callback(request, context: context, provider: name)
                }
            }
        }

        let device = EngageDeviceEndpoint(emulator: emulator)
        json(.get, "/signin/device", on: router) { params, _ in try await device.handle(params) }
        let native = EngageNativeTokenEndpoint(emulator: emulator)
        json(.post, "/signin/oauth_token", on: router) { params, _ in try await native.handle(params) }
        let authInfo = EngageAuthInfoEndpoint(emulator: emulator)
        for method in [HTTPRequest.Method.post, .get] {
            json(method, "/api/v2/auth_info", on: router) { params, _ in try await authInfo.handle(params) }
        }

        let sharing = EngageSharingEndpoints(emulator: emulator)
        json(.post, "/api/v2/activity", on: router) { params, _ in try await sharing.share(.activity, params) }
        json(.post, "/api/v2/set_status", on: router) { params, _ in try await sharing.share(.status, params) }
        for method in [HTTPRequest.Method.post, .get] {
            json(method, "/social/record_activity", on: router) { params, _ in try await sharing.recordActivity(params) }
            json(method, "/openid/get_urls", on: router) { params, base in try await sharing.getURLs(params, base: base) }
        }
        router.get("/s/:number") { _, context in
            let number = context.parameters.get("number").flatMap { Int64($0) }
            let found = try await emulator.store.read { db in try number.flatMap { try EngageShortURLs.find($0, in: db) } }
            guard let found else {
                return JSONResponse.make(EngageFailure.dataNotFound.json, status: .notFound)
            }
            return EngageURLs.redirect(to: found.longUrl)
        }
    }

    /// A JSON endpoint: query and form body merged (the body wins), HTTP 200 unless the emulator itself
    /// failed.
    private func json(
        _ method: HTTPRequest.Method, _ path: RouterPath, on router: Router<EmulatorRequestContext>,
        _ handler: @escaping JSONHandler
    ) {
        let emulator = self.emulator
        let logger = self.logger
        router.on(path, method: method) { request, context in
            do {
                let call = try await RequestBodies.captureCall(request, context: context)
                return JSONResponse.make(try await handler(call.params, EngageURLs.base(request, emulator: emulator)))
            } catch let error as any HTTPResponseError {
                throw error  // e.g. 413 for an oversized body; ErrorBodyMiddleware words it
            } catch {
                logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
                return JSONResponse.make(EngageFailure(code: -1, msg: "the emulator failed to handle the request").json,
                                         status: .internalServerError)
            }
        }
    }

    private static func page(
        _ request: Request, logger: Logger, _ body: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await body()
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
            return EngageHTML.message("Sign-in error", "The emulator failed to handle the request.",
                                      status: .internalServerError)
        }
    }

    private static var unknownPage: Response {
        EngageHTML.message("Unknown provider", "No such provider.", status: .notFound)
    }

    /// 404 for an unknown app; 304 when `If-None-Match` holds the current tag. Revalidation is the point
    /// of the tag, so the answer is `no-cache` rather than the `no-store` of other JSON answers.
    private static func config(_ request: Request, emulator: Emulator) async throws -> Response {
        let params = FormParams(query: request.uri.query, body: nil)
        let appId = params.nonEmpty("appId") ?? ""
        let app = try await emulator.store.read { db in try EngageApp.find(appId, in: db) }
        guard let app else { return JSONResponse.make(EngageFailure.unknownApplication.json, status: .notFound) }
        let document = EngageConfigDocument(app: app, base: EngageURLs.base(request, emulator: emulator))
        var headers = HTTPFields()
        headers[.eTag] = document.etag
        headers[.cacheControl] = "no-cache"
        if document.matches(ifNoneMatch: request.headers[.ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: document.body)))
    }
}
