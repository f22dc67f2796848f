import JumpRuntime

/// Authorized requests (issue 5): one way to call an API with whichever credential the client holds, kept
/// fresh as the SDK calls are. The credential only ever goes to its own server.
extension JumpClient {
    public struct AuthorizedResponse: Sendable {
        public let status: Int
        public let headers: [(String, String)]
        public let body: [UInt8]
    }

    /// Whether the client holds a credential besides a web-login token.
    private var hasCredential: Bool {
        tokens.holdsCredential || capture.isSignedIn
    }

    /// The access token of the credential a token call is about (CredentialChoice): the sign-in-token
    /// session's when there is one, else the Capture session's (an API key has none).
    public func currentAccessToken(cancellation: Cancellation? = nil) throws(JumpError) -> String {
        if try tokens.held() == .signInToken { return try tokens.tokenAccessToken(cancellation: cancellation) }
        return try capture.accessToken(cancellation: cancellation)
    }

    /// Refreshes that credential's access token now, whatever its age.
    public func refreshCurrentAccessToken() throws(JumpError) {
        if try tokens.held() == .signInToken { try tokens.refreshTokenSession() } else { try capture.refreshAccessToken() }
    }

    private enum Credential {
        case webBearer(String, base: String)
        case bearer(String, base: String, refreshable: String?)
        case captureBearer(String, base: String)
        case apiKey(String, base: String)
    }

    /// An authorized request whose shape was checked (method, body, headers), before any credential is read:
    /// the _async export checks it on the caller's thread, so a bad argument is refused at the call.
    public struct CheckedRequest: Sendable {
        let verb: String
        let url: String
        let headers: [(String, String)]
        let body: [UInt8]
    }

    /// Checks what `authorizedRequest` would send: a known method, no body on GET, well-formed headers and none
    /// of the headers libjump sets from the credential.
    public func checkRequest(method: String, url: String, headers: [(String, String)],
                             body: [UInt8]) throws(JumpError) -> CheckedRequest {
        let verb = method.uppercased()
        guard ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(verb) else {
            throw .invalidArgument("method '\(method)' is not one of GET, POST, PUT, PATCH, DELETE", argument: "method")
        }
        if verb == "GET" && !body.isEmpty {
            throw .invalidArgument("a GET request has no body", argument: "body")
        }
        for (name, value) in headers { try HeaderGrammar.check(name: name, value: value) }
        for (name, _) in headers where ["authorization", settings.tokens.apiKeyHeader.lowercased(), "cookie"].contains(name.lowercased()) {
            throw .invalidArgument("header '\(name)' is set by libjump from the client's credential", argument: "headers")
        }
        return CheckedRequest(verb: verb, url: url, headers: headers, body: body)
    }

    /// Sends `method url` with the credential attached: the sign-in-token session's bearer token, else the
    /// API key, else the Capture session's access token. A relative url ("/v2/...") is resolved against that
    /// credential's server; an absolute one must be on it. A 401 refreshes once and replays once.
    public func authorizedRequest(method: String, url: String, headers: [(String, String)], body: [UInt8],
                                  cancellation: Cancellation? = nil) throws(JumpError) -> AuthorizedResponse {
        try authorizedRequest(try checkRequest(method: method, url: url, headers: headers, body: body),
                              cancellation: cancellation)
    }

    /// `authorizedRequest(method:url:headers:body:)` of a request already checked.
    public func authorizedRequest(_ request: CheckedRequest, cancellation: Cancellation? = nil) throws(JumpError) -> AuthorizedResponse {
        let (verb, url, headers, body) = (request.verb, request.url, request.headers, request.body)
        // A web-login token goes to its own origin only, and is used for URLs there.
        if let web = webLogin.withLock({ $0 }),
           url.lowercased().hasPrefix(web.origin.lowercased()) || (url.hasPrefix("/") && !hasCredential) {
            return try send(verb, url, headers, body, .webBearer(web.token, base: web.origin), cancellation: cancellation)
        }
        // One account for the request and its replay: a switch meanwhile must not send it again as another user.
        let session = capture
        let credential = try currentCredential(of: session, cancellation: cancellation)
        let response = try send(verb, url, headers, body, credential, cancellation: cancellation)
        guard response.status == 401 else { return response }
        switch credential {
        case .bearer(_, _, let refreshToken?): try tokens.refreshTokenSession(replacing: refreshToken)
        case .captureBearer(let token, _): _ = try session.refresh(replacing: token)
        default: return response
        }
        return try send(verb, url, headers, body, try currentCredential(of: session, cancellation: cancellation),
                        cancellation: cancellation)
    }

    private func currentCredential(of session: CaptureSession, cancellation: Cancellation?) throws(JumpError) -> Credential {
        switch try CredentialChoice.choose(tokens: tokens, capture: session) {
        case .signInToken:
            let access = try tokens.tokenAccessToken(cancellation: cancellation)
            guard case .token(let grant)? = try tokens.currentTokens().credential else {
                throw JumpError(.notSignedIn, "the session ended while its access token was being read")
            }
            return .bearer(access, base: tokens.apiBase(for: grant.environment), refreshable: tokens.currentRefreshToken)
        case .apiKey(let key):
            return .apiKey(key.apiKey, base: tokens.apiBase(for: key.environment))
        case .capture:
            guard let base = settings.capture.base?.base else {
                throw JumpError(.notSignedIn, "the client holds no credential (sign in, or use an API key)")
            }
            return .captureBearer(try session.accessToken(cancellation: cancellation), base: base)
        }
    }

    private func send(_ method: String, _ url: String, _ headers: [(String, String)], _ body: [UInt8],
                      _ credential: Credential, cancellation: Cancellation?) throws(JumpError) -> AuthorizedResponse {
        let base: String
        var all = headers
        switch credential {
        case .bearer(let token, let b, _), .captureBearer(let token, let b), .webBearer(let token, let b):
            base = b
            all.append(("Authorization", "Bearer " + token))
        case .apiKey(let key, let b):
            base = b
            all.append((settings.tokens.apiKeyHeader, key))
        }
        let target = try JumpClient.resolve(url, on: base)
        var request = HTTPRequest(method: method, url: target, headers: all, body: body)
        request.followRedirects = false
        // A GET reads: sent again after a transient failure. Any other method is the app's write.
        if method == "GET" { request.replay = .idempotent }
        let response = try transport.send(request, cancellation: cancellation)
        return AuthorizedResponse(status: response.status, headers: response.headers, body: response.body)
    }

    /// "/path" -> base + path; an absolute URL must be on base's scheme, host and port (a credential is never
    /// sent to another server).
    static func resolve(_ url: String, on base: String) throws(JumpError) -> String {
        if url.hasPrefix("/") && !url.hasPrefix("//") { return base + url }
        let origin = JumpClient.origin(of: base)
        guard url.lowercased().hasPrefix(origin.lowercased()),
              url.count == origin.count || ["/", "?", "#"].contains(url[url.index(url.startIndex, offsetBy: origin.count)]) else {
            throw .invalidArgument("'\(String(url.prefix { $0 != "?" }))' is not on \(origin): libjump sends the credential "
                                   + "only to its own server", argument: "url")
        }
        return url
    }

    /// scheme://host[:port] of a base URL.
    static func origin(of base: String) -> String {
        guard let schemeEnd = base.firstRange(of: "://") else { return base }
        let rest = base[schemeEnd.upperBound...]
        return String(base[..<schemeEnd.upperBound]) + String(rest.prefix { $0 != "/" })
    }
}
