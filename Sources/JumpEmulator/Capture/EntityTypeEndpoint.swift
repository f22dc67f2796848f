/// `POST /entityType` with `type_name=user`: the app's schema in Capture's shape. As Capture, it wants
/// credentials: a signed-in user's access token, or the API client's id and secret (parameters or HTTP
/// Basic) or a janrain signature, with every parameter then read from the POST body only; a client id
/// alone is refused. When the app has a `write_with_token` access schema, `access_schema` lists its
/// paths (an emulator extra).
struct EntityTypeEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app: AppConfig
        let typeName: String
        if call.accessToken != nil {
            typeName = try call.required("type_name")
            app = try await emulator.authenticate(call).app
        } else {
            let ownerCall = call.bodyOnly()
            do {
                typeName = try ownerCall.required("type_name")
                app = try await emulator.requireClientCredentials(ownerCall)
            } catch let error as CaptureError {
                throw ParameterLocation.explain(error, for: ownerCall)
            }
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
