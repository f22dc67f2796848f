/// Checks shared by the endpoints only an API client's own credentials may call (`entity.find`,
/// `entity.count`, `entity.create`): Capture's `owner` clients, never an end user's token.
extension Emulator {
    /// The caller's app. A call that brings a user's access token and no client credentials is 403
    /// client_permission_error; otherwise the credentials are checked (`requireClientCredentials`).
    /// Then `type_name` must name the app's entity type (100 when missing, 222 when unknown).
    func requireOwner(_ call: CaptureCall) async throws -> AppConfig {
        if call.accessToken != nil, !call.presentsClientCredentials {
            throw CaptureError.ownerCredentialsRequired(call.path)
        }
        let app = try await requireClientCredentials(call)
        let typeName = try call.required("type_name")
        guard typeName == app.schema.name else { throw CaptureError.unknownEntityType(typeName) }
        return app
    }
}
