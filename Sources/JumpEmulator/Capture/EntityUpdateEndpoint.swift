/// `POST /entity.update` (docs/protocol.md §8.4): merges `attributes` (or the older name `value`)
/// into the record at `attribute_name`, enforcing the schema and the client's `write_with_token`
/// access schema. All or nothing: the record is only stored when every check passed, in one
/// transaction with the uniqueness check. With the API client's credentials, on the record named by
/// `uuid` or `id`, and not limited by `write_with_token` (`EntityCaller`).
struct EntityUpdateEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        try await emulator.writeEntity(call, mode: .update)
    }

    /// The JSON to write: `attributes` (documented name) or `value` (Android's older name).
    static func readValue(_ params: FormParams) throws(CaptureError) -> JSONValue {
        let name = params.nonEmpty("attributes") != nil ? "attributes" : "value"
        guard let text = params.nonEmpty(name) else { throw CaptureError.missingArgument("attributes") }
        guard let value = JSONValue.parse(text) else {
            throw CaptureError.invalidArgument(name, "\(name) is not valid JSON")
        }
        return value
    }

    static func includeRecord(_ params: FormParams) -> Bool {
        ["true", "1", "yes"].contains((params["include_record"] ?? "").lowercased())
    }
}
