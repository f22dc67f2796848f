/// `POST /entityType` with `type_name=user`: the app's schema in Capture's shape. The app is the
/// one of `client_id`, else the one of the access token, else the default app. When the app has a
/// `write_with_token` access schema, `access_schema` lists its paths (an emulator extra).
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
        var answer: [String: JSONValue] = ["stat": "ok", "schema": app.schema.json]
        // An emulator extra for SDKs: what the app's access tokens may write, when it is limited.
        if let access = try await emulator.accessSchema(clientId: app.clientId, type: .writeWithToken) {
            answer["access_schema"] = ["write_with_token": .array(access.paths.map(JSONValue.string))]
        }
        return .object(answer)
    }
}
