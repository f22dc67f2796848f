import JumpRuntime

/// The Engage endpoints a client calls (docs/protocol.md §4): the configuration, the /signin/device result, the
/// native-token exchange and the token URL. Engage answers are parsed whatever their content type (§2.2).
struct EngageAPI: Sendable {
    let settings: EngageSettings
    let transport: any Transport

    enum ConfigAnswer: Sendable {
        case notModified
        case changed(EngageConfig)
    }

    /// GET mobile_config_and_baseurl with If-None-Match (§4.2).
    func fetchConfig(etag: String?, cancellation: Cancellation?) throws(JumpError) -> ConfigAnswer {
        guard let appID = settings.appID else {
            throw .invalidArgument("configuration key 'engageAppId' is required for social sign-in", argument: "engageAppId")
        }
        var query = FormParameters()
        query.add("appId", appID)
        query.add("device", settings.device)
        query.add("app_name", "libjump")
        query.add("version", "libjump")
        var request = HTTPRequest(method: "GET", url: settings.server.url("/openid/mobile_config_and_baseurl?" + query.encoded),
                                  headers: [("Accept", "application/json")])
        if let etag { request.headers.append(("If-None-Match", etag)) }
        request.replay = .idempotent
        request.expectsJSON = true
        let response = try transport.send(request, cancellation: cancellation)
        if response.status == 304 { return .notModified }
        let body = try ResponseDecoder.object(from: response, of: request)
        guard (200..<300).contains(response.status) else {
            throw EngageAPI.failure(body, status: response.status, what: "the Engage configuration fetch", notFound: .notFound)
        }
        let tag = response.headers.last { headerName($0.0, is: "etag") }?.1
        return .changed(try EngageConfig(document: .object(body), etag: tag))
    }

    /// GET the /signin/device URL the browser ended on, with auth_info (§4.5): the rpx_result.
    func deviceResult(url: String, provider: String, cancellation: Cancellation?) throws(JumpError) -> EngageAuth {
        let request = HTTPRequest(method: "GET", url: url + (url.contains("?") ? "&" : "?") + "auth_info=true",
                                  headers: [("Accept", "application/json")])
        let body = try ResponseDecoder.object(from: try transport.send(request, cancellation: cancellation), of: request)
        guard let result = body["rpx_result"], case .object = result else {
            throw JumpError(.server, "the /signin/device answer has no rpx_result")
        }
        guard result["stat"]?.stringValue == "ok" else {
            throw EngageAPI.authenticationFailure(result["error"]?.stringValue ?? "authentication failed")
        }
        guard let token = result["token"]?.stringValue, !token.isEmpty else {
            throw JumpError(.server, "the /signin/device answer has no token")
        }
        return EngageAuth(provider: result["provider"]?.stringValue ?? provider, token: token,
                          deviceToken: result["device_token"]?.stringValue,
                          profile: result["auth_info"]?["profile"] ?? [:])
    }

    /// POST <baseurl>/signin/oauth_token (§4.6): a provider SDK's token -> an Engage token.
    func exchangeNativeToken(config: EngageConfig, provider: String, token: String, tokenSecret: String?,
                             cancellation: Cancellation?) throws(JumpError) -> String {
        var body = FormParameters()
        body.add("token", token)
        body.add("provider", provider)
        body.add("token_secret", tokenSecret)
        let request = HTTPRequest(
            method: "POST",
            url: config.baseURL + "/signin/oauth_token?providername=" + FormParameters.escape(provider, keepBrackets: false),
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Array(body.encoded.utf8))
        let answer = try ResponseDecoder.object(from: try transport.send(request, cancellation: cancellation), of: request)
        if answer["stat"]?.stringValue == "ok", let engageToken = answer["token"]?.stringValue, !engageToken.isEmpty {
            return engageToken
        }
        let err = answer["err"]
        let message = err?["msg"]?.stringValue ?? answer["error"]?.stringValue ?? "the provider token was refused"
        let code = err?["code"]?.intValue
        let detail: [String: JSON] = ["engage_error": ["code": code.map(JSON.int) ?? .null, "msg": .string(message)]]
        if code == 0 || code == 1 {
            let argument = message.contains("token_secret") ? "token_secret" : message.contains("provider") ? "provider" : "token"
            var withArgument = detail
            withArgument["argument"] = .string(argument)
            throw JumpError(.invalidArgument, "Engage refused the \(provider) token: \(message)", detail: withArgument)
        }
        throw JumpError(.badCredentials, "Engage refused the \(provider) token: \(message)", detail: detail)
    }

    /// POST token=<token> to the app's token URL (§4.7); any HTTP status is an answer for the app to read.
    func postToTokenURL(_ url: String, token: String, cancellation: Cancellation?) throws(JumpError) -> TokenURLResponse {
        var body = FormParameters()
        body.add("token", token)
        var request = HTTPRequest(method: "POST", url: url,
                                  headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                  body: Array(body.encoded.utf8))
        request.followRedirects = false
        let response = try transport.send(request, cancellation: cancellation)
        return TokenURLResponse(
            response: JumpClient.AuthorizedResponse(status: response.status, headers: response.headers, body: response.body),
            cookies: response.headers.filter { headerName($0.0, is: "set-cookie") }.compactMap { SetCookie.parse($0.1) })
    }

    /// The rpx_result / redirect error strings the reference SDKs recognise (§4.5).
    static func authenticationFailure(_ message: String) -> JumpError {
        let lower = message.lowercased()
        if lower == "canceled" || lower == "cancelled" {
            return JumpError(.cancelled, "the user cancelled the sign-in on the provider", detail: ["reason": "user_canceled"])
        }
        let badInput = message == "Discovery failed for the OpenID you entered" || message == "Your OpenID must be a URL"
            || message.hasSuffix("you entered does not appear to be an OpenID") || message == "Please enter your OpenID"
        if badInput {
            return JumpError(.validation, "the OpenID input was refused: \(message)",
                             detail: ["invalid_fields": ["input": [.string(message)]], "engage_error": ["msg": .string(message)]])
        }
        return JumpError(.badCredentials, "the provider sign-in failed: \(message)", detail: ["engage_error": ["msg": .string(message)]])
    }

    /// An Engage {"stat":"fail","err":{"code","msg"}} answer (or anything else) as an error.
    static func failure(_ body: [String: JSON], status: Int, what: String, notFound: JumpStatus = .server) -> JumpError {
        let err = body["err"]
        let message = err?["msg"]?.stringValue ?? "HTTP \(status)"
        let detail: [String: JSON] = [
            "engage_error": ["code": err?["code"] ?? .null, "msg": .string(message)],
            "server": ["http_status": .int(Int64(status))],
        ]
        return JumpError(status == 404 ? notFound : .server, "\(what) failed: \(message)", detail: detail)
    }
}

/// A Set-Cookie line -> {"name","value","domain","path"} (attributes other than those are not needed).
enum SetCookie {
    static func parse(_ line: String) -> JSON? {
        let parts = line.split(separator: ";").map { String($0).trimmingSpaces() }
        guard let first = parts.first, let equals = first.firstIndex(of: "=") else { return nil }
        let name = String(first[..<equals])
        guard !name.isEmpty else { return nil }
        var cookie: [String: JSON] = ["name": .string(name), "value": .string(String(first[first.index(after: equals)...])),
                                      "domain": .null, "path": .null]
        for attribute in parts.dropFirst() {
            let pair = attribute.split(separator: "=", maxSplits: 1).map(String.init)
            guard let key = pair.first?.lowercased(), pair.count == 2 else { continue }
            if key == "domain" || key == "path" { cookie[key] = .string(pair[1]) }
        }
        return .object(cookie)
    }
}
