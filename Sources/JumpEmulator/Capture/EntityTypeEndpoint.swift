/// `POST /entityType` with `type_name=user`: the app's schema in Capture's shape. The app is the
/// one of `client_id`, else the one of the access token, else the default app.
struct EntityTypeEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let typeName = try call.required("type_name")
        let app: AppConfig
        if call.params.nonEmpty("client_id") != nil {
            app = try await emulator.requireApp(call)
        } else if call.accessToken != nil {
            app = try await emulator.authenticate(call).app
        } else if let fallback = try await emulator.apps.app(clientId: DefaultApp.clientId) {
            app = fallback
        } else {
            throw CaptureError.missingArgument("client_id")
        }
        guard typeName == app.schema.name else { throw CaptureError.unknownEntityType(typeName) }
        return ["stat": "ok", "schema": app.schema.json]
    }
}
