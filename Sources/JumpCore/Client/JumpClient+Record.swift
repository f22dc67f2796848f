/// What one sync sent.
public struct SyncResult: Sendable, Equatable {
    public let changed: [String]
    public let requests: Int

    public var json: JSON { ["changed": .array(changed.map(JSON.string)), "requests": .int(Int64(requests))] }
}

extension JumpClient {
    /// Fetches the record (/entity) and re-applies unsynced local edits on top of it.
    public func fetchRecord(cancellation: Cancellation? = nil) throws(JumpError) {
        let (answer, generation) = try authorized(cancellation: cancellation) { token throws(JumpError) in
            var p = FormParameters()
            p.add("access_token", token)
            return try capture.post("/entity", p, cancellation: cancellation)
        }
        guard let server = answer["result"], case .object = server else {
            throw JumpError(.server, "the /entity response has no record in 'result'")
        }
        let uuid = try state.withLock { s throws(JumpError) -> String? in
            guard s.generation == generation, var session = s.session else {
                throw JumpError(.notSignedIn, "the session ended while the record was being fetched")
            }
            session.record.rebase(onServer: server)
            s.session = session
            persist(&s)
            return session.record.uuid
        }
        emit(.recordFetched(uuid: uuid))
    }

    /// Sends the unsynced changes as one entity.update at the root holding only what changed. The baseline
    /// moves forward by exactly what was sent, and only once the server said ok.
    public func sync(cancellation: Cancellation? = nil) throws(JumpError) -> SyncResult {
        try syncGate.withLock { _ throws(JumpError) -> SyncResult in
            let changes = try state.withLock { s throws(JumpError) in try requireSession(s).record.changes }
            if changes.isEmpty { return SyncResult(changed: [], requests: 0) }
            let attributes = Jansson.serialize(.object(changes.update))
            let (_, generation) = try authorized(cancellation: cancellation) { token throws(JumpError) in
                var p = FormParameters()
                p.add("access_token", token)
                p.add("attributes", attributes)
                return try capture.post("/entity.update", p, cancellation: cancellation)
            }
            let uuid = try state.withLock { s throws(JumpError) -> String? in
                guard s.generation == generation, var session = s.session else {
                    throw JumpError(.notSignedIn, "the session ended while the record was being synced")
                }
                session.record.acknowledge(changes.update)
                s.session = session
                persist(&s)
                return session.record.uuid
            }
            emit(.recordSynced(uuid: uuid, changed: changes.paths))
            return SyncResult(changed: changes.paths, requests: 1)
        }
    }

    /// A view of the signed-in user's record, valid for this session only.
    public func recordView() throws(JumpError) -> RecordView {
        let generation = try state.withLock { s throws(JumpError) -> UInt64 in
            _ = try requireSession(s)
            return s.generation
        }
        return RecordView(client: self, generation: generation)
    }

    /// Runs `body` on the record of session `generation`, saving it when `body` changed it.
    func withRecord<T>(generation: UInt64, _ body: (inout UserRecord) throws(JumpError) -> T) throws(JumpError) -> T {
        try state.withLock { s throws(JumpError) -> T in
            guard s.generation == generation, var session = s.session else {
                throw JumpError(.notSignedIn, "this record belongs to a session that has ended")
            }
            let before = session.record
            let result = try body(&session.record)
            if session.record != before {
                s.session = session
                persist(&s)
            }
            return result
        }
    }
}

/// The signed-in user's record as the app edits it. Edits are saved with the session at once, so they
/// survive a restart before they are synced.
public struct RecordView: Sendable {
    let client: JumpClient
    let generation: UInt64

    public func value(at path: String) throws(JumpError) -> JSON {
        let parsed = try RecordPath(path)
        return try client.withRecord(generation: generation) { record throws(JumpError) in try record.value(at: parsed) }
    }

    public func set(_ path: String, to value: JSON) throws(JumpError) {
        let parsed = try RecordPath(path)
        try client.withRecord(generation: generation) { record throws(JumpError) in try record.set(parsed, to: value) }
    }

    public func changes() throws(JumpError) -> RecordChanges {
        try client.withRecord(generation: generation) { record throws(JumpError) in record.changes }
    }

    public func discardChanges() throws(JumpError) {
        try client.withRecord(generation: generation) { record throws(JumpError) in record.discardChanges() }
    }
}
