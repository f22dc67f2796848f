/// `POST /entity.delete` (Android's ApidDelete): removes the plural element at `attribute_name`
/// (`/photos#5`), every element of a plural (`/photos`), or clears an object or value to null.
/// Reserved attributes are 234, required ones 362, a missing element 200 `attribute_name`.
struct EntityDeleteEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let signedIn = try await emulator.authenticate(call)
        let path = try AttributePath.parse(try call.required("attribute_name"))
        let schema = signedIn.app.schema
        try await emulator.checkWriteAccess(signedIn) { WrittenPaths.delete(at: path) }
        _ = try await emulator.writeRecord(userId: signedIn.user.id ?? 0, schema: schema) { updater, record in
            try updater.delete(record, at: path)
        }
        return ["stat": "ok"]
    }
}
