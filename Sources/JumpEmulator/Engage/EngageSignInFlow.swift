import Hummingbird

/// The fake identity provider's two steps: the start page (`GET /<provider>/start`, `/openid/start`,
/// `/saml2/sso/start`) and its form posts (`POST .../callback`). A flow ends with a 302 to the app's
/// token_url (`?token=` or `?error=`) or, without one, to `<base>/signin/device` (docs/protocol.md §4.5).
struct EngageSignInFlow: Sendable {
    let emulator: Emulator

    static let malformedTokenURL = "Missing and malformed token_url in query"

    /// What a start or callback request is about, once the app, provider and token_url are checked.
    private struct Context: Sendable {
        var app: EngageApp
        var provider: String
        var start: EngageStartParams
        var base: String
    }

    func start(_ request: Request, provider: String) async throws -> Response {
        let params = FormParams(query: request.uri.query, body: nil)
        let context: Context
        switch try await resolve(request, provider: provider, params: params) {
        case .failure(let page): return page.response
        case .success(let resolved): context = resolved
        }
        if let message = openIDInputError(context) { return end(.error(message), context) }
        return try await page(context, error: nil, status: .ok)
    }

    func callback(_ request: Request, context requestContext: EmulatorRequestContext, provider: String) async throws
        -> Response
    {
        let body = try await RequestBodies.text(request, context: requestContext)
        let params = FormParams(query: request.uri.query, body: body)
        let context: Context
        switch try await resolve(request, provider: provider, params: params) {
        case .failure(let page): return page.response
        case .success(let resolved): context = resolved
        }
        if params.nonEmpty("cancel") != nil { return end(.error("canceled"), context) }
        if let message = openIDInputError(context) { return end(.error(message), context) }

        let now = emulator.clock.now().timeIntervalSince1970
        let outcome: Result<EngageTokenRow, PageError>
        if let chosen = params.nonEmpty("identity_id") {
            outcome = try await emulator.store.write { db in
                guard let id = Int64(chosen), let identity = try EngageIdentities.find(id: id, in: db),
                    identity.provider == context.provider, EngageIdentities.isOffered(identity, to: context.app.id)
                else { return .failure(PageError("That test identity does not exist for this provider.")) }
                return .success(try EngageTokens.issue(
                    app: context.app, provider: context.provider, identifier: identity.identifier,
                    profile: identity.profile, withDeviceToken: true, now: now, in: db))
            }
        } else {
            let name = params.nonEmpty("display_name")?.trimmingCharacters(in: .whitespaces)
            let email = params.nonEmpty("email")?.trimmingCharacters(in: .whitespaces)
            guard name != nil || email != nil else {
                return try await page(context, error: "Enter a name or an email address.", status: .badRequest)
            }
            guard (name?.count ?? 0) <= 256, (email?.count ?? 0) <= 256 else {
                return try await page(context, error: "Names and email addresses are at most 256 characters.",
                                      status: .badRequest)
            }
            let draft = EngageIdentities.Draft(
                provider: context.provider, engageAppId: context.app.id,
                identifier: context.provider == EngageProviderCatalog.openIDProvider ? context.start.openIDIdentifier : nil,
                profile: EngageProfile(displayName: name, email: email),
                providerName: context.app.friendlyName(of: context.provider), samlProvider: context.start.samlProvider)
            outcome = try await emulator.store.write { db in
                let identity = try EngageIdentities.createOrReplace(draft, now: now, in: db)
                return .success(try EngageTokens.issue(
                    app: context.app, provider: context.provider, identifier: identity.identifier,
                    profile: identity.profile, withDeviceToken: true, now: now, in: db))
            }
        }
        switch outcome {
        case .success(let token): return end(.token(token.token), context)
        case .failure(let error): return try await page(context, error: error.message, status: .badRequest)
        }
    }

    private struct PageError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The app (applicationId, default app when absent), the provider and the token_url; a failure is the
    /// page to answer with (they cannot be reported back to the app).
    private func resolve(_ request: Request, provider: String, params: FormParams) async throws
        -> Result<Context, PageResponse>
    {
        let start = EngageStartParams(params: params)
        let app = try await emulator.store.read { db in try EngageApp.find(start.applicationId, in: db) }
        guard let app else {
            return .failure(PageResponse(EngageHTML.message("Unknown application", "No Engage application "
                + "\(start.applicationId) exists.", status: .notFound)))
        }
        guard app.offers(provider) else {
            return .failure(PageResponse(EngageHTML.message("Unknown provider", "The application "
                + "\(app.id) has no provider \(provider).", status: .notFound)))
        }
        if let tokenURL = start.tokenURL, !EngageURLs.isRedirectable(tokenURL) || !app.accepts(tokenURL: tokenURL) {
            return .failure(PageResponse(EngageHTML.message("Sign-in error", Self.malformedTokenURL, status: .badRequest)))
        }
        return .success(Context(app: app, provider: provider, start: start, base: EngageURLs.base(request, emulator: emulator)))
    }

    /// `Result` needs an `Error` failure; this carries the page.
    private struct PageResponse: Error {
        let response: Response
        init(_ response: Response) { self.response = response }
    }

    /// Engage checks the OpenID the user typed before showing anything (docs/protocol.md §4.5 lists the messages
    /// the SDKs recognise).
    private func openIDInputError(_ context: Context) -> String? {
        guard context.provider == EngageProviderCatalog.openIDProvider else { return nil }
        let identifier = context.start.openIDIdentifier
        if identifier.isEmpty { return "Please enter your OpenID" }
        let lower = identifier.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return "Your OpenID must be a URL" }
        return nil
    }

    private func page(_ context: Context, error: String?, status: HTTPResponse.Status) async throws -> Response {
        let identities = try await emulator.store.read { db in
            try EngageIdentities.list(provider: context.provider, engageAppId: context.app.id, in: db)
        }
        let page = EngageSignInPage(
            friendlyName: context.app.friendlyName(of: context.provider),
            callbackPath: Self.callbackPath(context.provider), identities: identities, hidden: context.start.hidden,
            forceReauth: context.start.forceReauth, error: error)
        return EngageHTML.response(page.html, status: status)
    }

    static func callbackPath(_ provider: String) -> String {
        switch provider {
        case EngageProviderCatalog.openIDProvider: return "/openid/callback"
        case EngageProviderCatalog.samlProvider: return "/saml2/sso/callback"
        default: return "/\(provider)/callback"
        }
    }

    private enum Ending {
        case token(String)
        /// A message the SDKs recognise (`canceled`, the OpenID input ones), as `error=`.
        case error(String)
    }

    /// The end of the flow: the token (or the error message) goes to token_url, else to /signin/device.
    private func end(_ ending: Ending, _ context: Context) -> Response {
        let pair: (String, String)
        switch ending {
        case .token(let token): pair = ("token", token)
        case .error(let message): pair = ("error", message)
        }
        if let tokenURL = context.start.tokenURL {
            return EngageURLs.redirect(to: EngageURLs.appending(tokenURL, [pair]))
        }
        // As Engage: the /signin/device ending carries the token only; `state` came in with the start URL
        // and only returns where the client put it itself (inside token_url).
        return EngageURLs.redirect(to: EngageURLs.appending(context.base + "/signin/device", [pair]))
    }
}
