/// `POST /entity` (protocol.md §3.3.9): reads the signed-in user's record, or the value at
/// `attribute_name`. `type_name` is accepted and ignored: there is one entity type per app.
struct EntityEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let signedIn = try await emulator.authenticate(call)
        let path = try AttributePath.parse(call.params["attribute_name"])
        let schema = signedIn.app.schema
        let record = RecordShaper(schema: schema).shape(
            emulator.records.attributes(of: signedIn.user), reserved: signedIn.user.reserved)
        let result = try RecordReader(schema: schema).value(at: path, in: record)
        return .object(["stat": "ok", "result": result])
    }
}
