import GRDB

/// `/emulator/engage/activities` (what clients shared) and `/emulator/engage/share_errors` (failures
/// queued for the next sharing answers of a provider).
struct AdminEngageSharing: Sendable {
    let emulator: Emulator

    /// `{"activities":[{"provider","identifier","kind","activity","status","created",...}]}`, oldest first.
    func activities() async throws -> JSONValue {
        let rows = try await emulator.store.read { db in try EngageActivityRow.order(Column("id")).fetchAll(db) }
        return ["activities": .array(rows.map(\.json))]
    }

    func clearActivities() async throws -> JSONValue {
        try await emulator.store.write { db in _ = try EngageActivityRow.deleteAll(db) }
        return ["activities": []]
    }

    /// `{"provider","code","msg","count"?:1}`: the next `count` activity/set_status answers for that
    /// provider are `{"stat":"fail","err":{"code","msg"}}`. Answers the queue.
    func addShareError(_ request: AdminRequest) async throws -> JSONValue {
        let provider = try request.requiredString("provider")
        guard let code = try request.int("code") else { throw AdminError.badRequest("code is required (an integer)") }
        let msg = try request.requiredString("msg")
        let count = try request.int("count") ?? 1
        guard (1...10_000).contains(count) else { throw AdminError.badRequest("count must be 1...10000") }
        try await emulator.store.write { db in
            var row = EngageShareErrorRow(id: nil, provider: provider, code: code, msg: msg, remaining: count)
            try row.insert(db)
        }
        return try await shareErrors()
    }

    func shareErrors() async throws -> JSONValue {
        let rows = try await emulator.store.read { db in try EngageShareErrorRow.order(Column("id")).fetchAll(db) }
        return ["share_errors": .array(rows.map(\.json))]
    }

    func clearShareErrors() async throws -> JSONValue {
        try await emulator.store.write { db in _ = try EngageShareErrorRow.deleteAll(db) }
        return ["share_errors": []]
    }
}
