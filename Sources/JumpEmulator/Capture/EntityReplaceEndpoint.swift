/// `POST /entity.replace` (docs/protocol.md §8.5): overwrites the value at `attribute_name` with
/// `attributes` (or `value`). Object members not given become null; a plural is replaced wholesale
/// and its elements (nested plurals' too) get new ids, so elements sent with an `id` are refused
/// (320). The same schema and access checks as `entity.update`, all or nothing, and the same callers
/// (`EntityCaller`).
struct EntityReplaceEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let caller = try await emulator.entityCaller(call)
        let call = caller.call
        let path = try AttributePath.parse(call.params["attribute_name"])
        let value = try EntityUpdateEndpoint.readValue(call.params)
        let schema = caller.app.schema
        try await emulator.checkWriteAccess(caller) { WrittenPaths.replace(value, at: path, schema: schema) }

        var passwordHash: String?
        if let password = RecordUpdater.passwordText(in: value, at: path) {
            passwordHash = await emulator.passwords.hash(password)
        }
        let written = try await emulator.writeRecord(
            userId: caller.userId, schema: schema, preparedPasswordHash: passwordHash
        ) { updater, record in
            try updater.replace(record, at: path, with: value)
        }
        guard EntityUpdateEndpoint.includeRecord(call.params) else { return ["stat": "ok"] }
        return ["stat": "ok", "result": try Emulator.includedRecord(written, at: path, schema: schema)]
    }
}
