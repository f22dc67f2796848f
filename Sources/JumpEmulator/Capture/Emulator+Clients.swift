/// Checks shared by the Capture endpoints that identify an API client.
extension Emulator {
    /// The app of `client_id`: 100 when missing, 402 when it is not a known client.
    func requireApp(_ call: CaptureCall) async throws -> AppConfig {
        let clientId = try call.required("client_id")
        guard let app = try await apps.app(clientId: clientId) else { throw CaptureError.invalidClient() }
        return app
    }

    /// `requireApp`, then `checkFlowParameters`: the app of a call that posts a form of its flow.
    func requireFlowApp(_ call: CaptureCall) async throws -> AppConfig {
        let app = try await requireApp(call)
        try checkFlowParameters(call, app: app)
        return app
    }

    /// `flow` must name the app's flow and `flow_version` be its version (or HEAD) when they are sent,
    /// as a real server rejects a form posted against another flow.
    func checkFlowParameters(_ call: CaptureCall, app: AppConfig) throws(CaptureError) {
        if let flow = call.params.nonEmpty("flow"), flow != app.row.flowName {
            throw CaptureError.invalidArgument("flow", "unknown flow \(flow)")
        }
        if let version = call.params.nonEmpty("flow_version"), version != app.row.flowVersion, version != "HEAD" {
            throw CaptureError.invalidArgument("flow_version", "flow version \(version) is not the current version")
        }
    }
}
