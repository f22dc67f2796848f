import Hummingbird

/// `GET /widget_data/flows/{capture_app_id}/{flow}/{version|HEAD}/{locale}.json` (docs/protocol.md §9.1).
struct FlowRoutes: Sendable {
    let emulator: Emulator

    func register(on router: Router<EmulatorRequestContext>) {
        let emulator = self.emulator
        router.get("/widget_data/flows/:app/:flow/:version/:file") { _, context in
            let parameters = context.parameters
            guard let appId = parameters.get("app"), let flowName = parameters.get("flow"),
                let version = parameters.get("version"), let file = parameters.get("file"), file.hasSuffix(".json")
            else {
                return Self.notFound("no such flow file")
            }
            let locale = String(file.dropLast(".json".count))
            guard let app = try await emulator.apps.app(captureAppId: appId, flowName: flowName) else {
                return Self.notFound("no flow \(flowName) for app \(appId)")
            }
            guard version == "HEAD" || version == app.row.flowVersion else {
                return Self.notFound("flow \(flowName) has no version \(version)")
            }
            guard let document = app.flowDocument(locale: locale) else {
                return Self.notFound("flow \(flowName) has no locale \(locale)")
            }
            return JSONResponse.make(document)
        }
    }

    static func notFound(_ description: String) -> Response {
        JSONResponse.make(
            ["stat": "error", "code": 404, "error": "not_found", "error_description": .string(description)],
            status: .notFound)
    }
}
