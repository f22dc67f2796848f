import JumpRuntime

/// The sharing endpoints (docs/protocol.md §4.8): /api/v2/activity and set_status on the Engage server,
/// get_urls on the RP base URL, and record_activity. Their answers are returned as read, for the caller to
/// classify per provider.
extension EngageAPI {
    func shareActivity(_ activity: JSON, provider: String, deviceToken: String,
                       cancellation: Cancellation?) throws(JumpError) -> [String: JSON] {
        var p = FormParameters()
        p.add("activity", Jansson.serialize(activity))
        p.add("device_token", deviceToken)
        p.add("url_shortening", "true")
        p.add("provider", provider)
        p.add("device", settings.device)
        p.add("app_name", "libjump")
        return try postForm(settings.server.url("/api/v2/activity"), p, cancellation: cancellation)
    }

    func setStatus(_ status: String, provider: String, deviceToken: String,
                   cancellation: Cancellation?) throws(JumpError) -> [String: JSON] {
        var p = FormParameters()
        p.add("status", status)
        p.add("device_token", deviceToken)
        p.add("provider", provider)
        p.add("device", settings.device)
        p.add("app_name", "libjump")
        return try postForm(settings.server.url("/api/v2/set_status"), p, cancellation: cancellation)
    }

    /// {"activity":[..],"email":[..],"sms":[..]} -> get_urls' {"urls":{kind:{long:short}}}.
    func shortenURLs(_ urls: JSON, config: EngageConfig, cancellation: Cancellation?) throws(JumpError) -> JSON {
        var q = FormParameters()
        q.add("urls", Jansson.serialize(urls))
        q.add("app_name", "libjump")
        q.add("device", settings.device)
        let request = HTTPRequest(method: "GET", url: config.baseURL + "/openid/get_urls?" + q.encoded,
                                  headers: [("Accept", "application/json")])
        return .object(try ResponseDecoder.object(from: try transport.send(request, cancellation: cancellation), of: request))
    }

    /// Tells Engage an email or SMS share happened (for its analytics); the answer is not used.
    func recordActivity(method: String, cancellation: Cancellation?) throws(JumpError) {
        var p = FormParameters()
        p.add("method", method)
        p.add("device", settings.device)
        p.add("appId", settings.appID)
        _ = try postForm(settings.server.url("/social/record_activity"), p, cancellation: cancellation)
    }

    private func postForm(_ url: String, _ parameters: FormParameters, cancellation: Cancellation?) throws(JumpError) -> [String: JSON] {
        let request = HTTPRequest(
            method: "POST", url: url,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Array(parameters.encoded.utf8))
        return try ResponseDecoder.object(from: try transport.send(request, cancellation: cancellation), of: request)
    }
}
