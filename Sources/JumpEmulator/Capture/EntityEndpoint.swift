/// `POST /entity` (docs/protocol.md §8.3): reads the signed-in user's record, or the value at
/// `attribute_name`. With the API client's credentials, the record named by `uuid` or `id`
/// (`EntityCaller`). `type_name` is ignored with a token: there is one entity type per app.
struct EntityEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let caller = try await emulator.entityCaller(call)
        let path = try AttributePath.parse(caller.call.params["attribute_name"])
        let schema = caller.app.schema
        let record = RecordShaper(schema: schema).shape(
            emulator.records.attributes(of: caller.user), reserved: caller.user.reserved)
        let result = try RecordReader(schema: schema).value(at: path, in: record)
        return .object(["stat": "ok", "result": result])
    }
}
