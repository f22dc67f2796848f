/// `POST /entity.replace` (docs/protocol.md §8.5): overwrites the value at `attribute_name` with
/// `attributes` (or `value`). Object members not given become null; a plural is replaced wholesale
/// and its elements (nested plurals' too) get new ids, so elements sent with an `id` are refused
/// (320). The same schema and access checks as `entity.update`, all or nothing, and the same callers
/// (`EntityCaller`).
struct EntityReplaceEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        try await emulator.writeEntity(call, mode: .replace)
    }
}
