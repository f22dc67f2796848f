import GRDB

/// The records of one app that a filter matches, in `id` order, as clients see them (shaped).
/// The emulator holds test-sized data sets, so it reads every record of the app and filters in
/// memory, rather than translating filters into SQL over the stored JSON.
extension Emulator {
    func records(of app: AppConfig, matching filter: RecordFilter?) async throws -> [JSONValue] {
        let clientId = app.clientId
        let rows = try await store.read { db in try UserRow.all(clientId: clientId, in: db) }
        let shaper = RecordShaper(schema: app.schema)
        var matched: [JSONValue] = []
        for row in rows {
            let record = shaper.shape(records.attributes(of: row), reserved: row.reserved)
            if filter?.matches(record) ?? true { matched.append(record) }
        }
        return matched
    }

    /// The `filter` parameter bound to the app's schema; nil when absent or blank (every record).
    static func recordFilter(_ call: CaptureCall, schema: Schema) throws(CaptureError) -> RecordFilter? {
        guard let text = call.params.nonEmpty("filter") else { return nil }
        do {
            return try RecordFilter(text, schema: schema)
        } catch {
            throw error.captureError(argument: "filter")
        }
    }
}
