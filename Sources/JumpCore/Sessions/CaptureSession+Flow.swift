import JumpRuntime

extension CaptureSession {
    /// Seconds to wait before trying to download the flow again after a failed attempt (offline apps
    /// should not pay a timeout on every call).
    static let flowRetrySeconds: Int64 = 300

    /// The flow for this client: downloaded once per run, falling back to the cached copy.
    public func flow(cancellation: Cancellation? = nil) throws(JumpError) -> Flow {
        let ready = state.withLock { s -> Flow? in
            guard let flow = s.flow else { return nil }
            if s.flowDownloaded { return flow }
            if let at = s.flowAttemptedAt, Clock.now() - at < CaptureSession.flowRetrySeconds { return flow }
            return nil
        }
        if let ready { return ready }
        return try loadFlow(force: false, cancellation: cancellation)
    }

    /// Downloads the flow (docs/protocol.md §9.1) and caches it; on failure uses the cached copy if there is one.
    @discardableResult
    public func loadFlow(force: Bool = true, cancellation: Cancellation? = nil) throws(JumpError) -> Flow {
        try flowGate.withLock { _ throws(JumpError) -> Flow in
            if !force, let flow = state.withLock({ $0.flowDownloaded ? $0.flow : nil }) { return flow }
            guard let url = settings.flowURL else {
                throw .invalidArgument("no flow is configured: set captureAppId and captureFlowName", argument: "captureFlowName")
            }
            state.withLock { $0.flowAttemptedAt = Clock.now() }
            do throws(JumpError) {
                let (flow, bytes) = try download(url, cancellation: cancellation)
                state.withLock { s in
                    s.flow = flow
                    s.flowDownloaded = true
                }
                flowCache.save(bytes)
                return flow
            } catch {
                if error.status == .cancelled { throw error }
                if let cached = state.withLock({ $0.flow }) ?? flowCache.load(Flow.init(document:)) {
                    Log.warning("using the cached flow \(cached.version): \(error.message)")
                    state.withLock { $0.flow = cached }
                    return cached
                }
                throw error
            }
        }
    }

    private func download(_ url: String, cancellation: Cancellation?) throws(JumpError) -> (Flow, [UInt8]) {
        var request = HTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")])
        request.replay = .idempotent
        request.expectsJSON = true
        let response = try transport.send(request, cancellation: cancellation)
        if response.status == 404 {
            throw JumpError(.notFound, "no flow at \(request.redactedURL) (HTTP 404): check captureAppId, captureFlowName, captureFlowVersion and captureLocale")
        }
        let answer = response.body
        if (200..<300).contains(response.status), let shared = SharedFlows.parsed(answer: answer) {
            return (shared.flow, shared.bytes)
        }
        let object = try ResponseDecoder.object(from: response, of: request)
        guard (200..<300).contains(response.status) else {
            throw JumpError(.server, "GET \(request.redactedURL) answered HTTP \(response.status)",
                            detail: ["server": .object(object.filter { CaptureErrors.bodyFields.contains($0.key) })])
        }
        let flow = try Flow(document: .object(object))
        let bytes = Jansson.serializedBytes(flow.document)
        SharedFlows.remember(.init(answer: answer, flow: flow, bytes: bytes))
        return (flow, bytes)
    }
}
