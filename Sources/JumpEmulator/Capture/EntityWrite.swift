/// What `entity.update` and `entity.replace` share: the caller, the value, the access check, the
/// password hashing and the answer are the same; `mode` says whether the value is merged (update) or
/// overwrites (replace), which also decides the paths the `write_with_token` check sees.
extension Emulator {
    func writeEntity(_ call: CaptureCall, mode: RecordUpdater.Mode) async throws -> JSONValue {
        let caller = try await entityCaller(call)
        let call = caller.call
        let path = try AttributePath.parse(call.params["attribute_name"])
        let value = try EntityUpdateEndpoint.readValue(call.params)
        let schema = caller.app.schema
        try await checkWriteAccess(caller) {
            switch mode {
            case .update: return WrittenPaths.update(value, at: path, schema: schema)
            case .replace: return WrittenPaths.replace(value, at: path, schema: schema)
            }
        }

        // Hash a new password before the transaction: bcrypt is slow on purpose.
        var passwordHash: String?
        if let password = RecordUpdater.passwordText(in: value, at: path) {
            passwordHash = await passwords.hash(password)
        }
        let written = try await writeRecord(
            userId: caller.userId, schema: schema, preparedPasswordHash: passwordHash
        ) { updater, record in
            switch mode {
            case .update: return try updater.update(record, at: path, with: value)
            case .replace: return try updater.replace(record, at: path, with: value)
            }
        }
        guard EntityUpdateEndpoint.includeRecord(call.params) else { return ["stat": "ok"] }
        return ["stat": "ok", "result": try Emulator.includedRecord(written, at: path, schema: schema)]
    }
}
