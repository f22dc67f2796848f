/// `POST /entity.count`: `type_name`, optional `filter` (see `FilterParser`) → `{"stat":"ok",
/// "total_count":N}`, the number of the app's records the filter matches. API client credentials only.
struct EntityCountEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireOwner(call)
        let filter = try Emulator.recordFilter(call, schema: app.schema)
        let count = try await emulator.records(of: app, matching: filter).count
        return ["stat": "ok", "total_count": .int(Int64(count))]
    }
}
