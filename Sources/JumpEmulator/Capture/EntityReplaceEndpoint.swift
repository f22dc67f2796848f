/// `POST /entity.replace` (protocol.md §3.3.10): overwrites the value at `attribute_name` with
/// `attributes` (or `value`). Object members not given become null; a plural is replaced wholesale
/// and its elements (nested plurals' too) get new ids, so elements sent with an `id` are refused
/// (320). The same schema and access checks as `entity.update`, all or nothing.
struct EntityReplaceEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let signedIn = try await emulator.authenticate(call)
        let path = try AttributePath.parse(call.params["attribute_name"])
        let value = try EntityUpdateEndpoint.readValue(call.params)
        let schema = signedIn.app.schema
        try await emulator.checkWriteAccess(signedIn) { WrittenPaths.replace(value, at: path, schema: schema) }

        var passwordHash: String?
        if let password = RecordUpdater.passwordText(in: value, at: path) {
            passwordHash = await emulator.passwords.hash(password)
        }
        let written = try await emulator.writeRecord(
            userId: signedIn.user.id ?? 0, schema: schema, preparedPasswordHash: passwordHash
        ) { updater, record in
            try updater.replace(record, at: path, with: value)
        }
        guard EntityUpdateEndpoint.includeRecord(call.params) else { return ["stat": "ok"] }
        return ["stat": "ok", "result": try Emulator.includedRecord(written, at: path, schema: schema)]
    }
}
