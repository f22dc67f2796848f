import JumpRuntime

/// The Capture endpoints JumpCore calls: form-encoded POSTs answered with `stat`-tagged JSON objects.
struct CaptureAPI: Sendable {
    /// POSTs that are reads (the record, the schema), and the refresh, which Capture answers the same when
    /// the very same request comes again (docs/protocol.md §10.5): sent again after a transient failure.
    /// Every other Capture call changes something and goes again only when it never left.
    static let replayablePaths: Set<String> = ["/entity", "/entityType", "/oauth/refresh_access_token"]

    let base: ServerURL?
    let transport: any Transport

    func post(_ path: String, _ parameters: FormParameters, cancellation: Cancellation?) throws(JumpError) -> [String: JSON] {
        guard let base else {
            throw .invalidArgument("configuration key 'captureDomain' (and captureClientId) is required for Capture",
                                   argument: "captureDomain")
        }
        var request = HTTPRequest(
            method: "POST", url: base.url(path),
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Array(parameters.encoded.utf8))
        request.expectsJSON = true
        if CaptureAPI.replayablePaths.contains(path) { request.replay = .idempotent }
        do throws(JumpError) {
            let response = try transport.send(request, cancellation: cancellation)
            let status = response.status
            let body = try ResponseDecoder.object(from: consume response, of: request)
            if body["stat"]?.stringValue == "ok" { return body }
            if body["stat"] == nil && status >= 300 && body["code"] == nil {
                throw JumpError(.server, "POST \(request.redactedURL) answered HTTP \(status) without a Capture status",
                                detail: ["server": ["http_status": .int(Int64(status))]])
            }
            throw CaptureErrors.error(from: body, httpStatus: status, endpoint: "POST \(path)")
        } catch {
            // The answer may echo the request: its passwords are scrubbed here, its tokens everywhere.
            throw error.scrubbed(also: parameters.secretValues)
        }
    }
}
