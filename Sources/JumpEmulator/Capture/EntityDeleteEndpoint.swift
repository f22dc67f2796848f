import GRDB

/// `POST /entity.delete` (Android's ApidDelete): removes the plural element at `attribute_name`
/// (`/photos#5`), every element of a plural (`/photos`), or clears an object or value to null.
/// Reserved attributes are 234, required ones 362, a missing element 200 `attribute_name`.
///
/// With the API client's credentials and `uuid` or `id` (`EntityCaller`), the same on that record;
/// without `attribute_name` the whole record goes (its sessions and codes with it), as Capture's
/// owner clients can do. A token cannot delete the whole record: `attribute_name` is required then.
struct EntityDeleteEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let caller = try await emulator.entityCaller(call)
        let call = caller.call
        if case .owner = caller.credential, call.params.nonEmpty("attribute_name") == nil {
            try await deleteRecord(caller)
            return ["stat": "ok"]
        }
        let path = try AttributePath.parse(try call.required("attribute_name"))
        let schema = caller.app.schema
        try await emulator.checkWriteAccess(caller) { WrittenPaths.delete(at: path) }
        _ = try await emulator.writeRecord(userId: caller.userId, schema: schema) { updater, record in
            try updater.delete(record, at: path)
        }
        return ["stat": "ok"]
    }

    private func deleteRecord(_ caller: EntityCaller) async throws {
        let userId = caller.userId
        let deleted = try await emulator.store.write { db in
            try UserRow.deleteOne(db, key: userId)
        }
        // Deleted meanwhile by another call: the record is not found, as it would be a moment later.
        guard deleted else { throw CaptureError.recordNotFound("id \(userId)") }
    }
}
