import JumpRuntime

/// What one sync sent.
public struct SyncResult: Sendable, Equatable {
    public let changed: [String]
    public let requests: Int
    /// Element paths whose ids the server assigned (old path, new path), in order.
    public let renamed: [(String, String)]

    public static func == (a: SyncResult, b: SyncResult) -> Bool {
        a.changed == b.changed && a.requests == b.requests && a.renamed.elementsEqual(b.renamed, by: ==)
    }

}

extension CaptureSession {
    /// Fetches the record (/entity) and re-applies unsynced local edits on top of it. Where an edited value
    /// also changed on the server, the local value is kept and JUMP_E_CONFLICT lists those paths.
    public func fetchRecord(cancellation: Cancellation? = nil) throws(JumpError) {
        let (answer, generation) = try authorized(cancellation: cancellation) { token throws(JumpError) in
            var p = FormParameters()
            p.add("access_token", token)
            return try capture.post("/entity", p, cancellation: cancellation)
        }
        guard let server = answer["result"], case .object = server else {
            throw JumpError(.server, "the /entity response has no record in 'result'")
        }
        let (uuid, conflicts) = try state.withLock { s throws(JumpError) -> (String?, [UserRecord.Conflict]) in
            guard s.generation == generation else {
                throw JumpError(.notSignedIn, "the session ended while the record was being fetched")
            }
            let outcome = try s.withSession { session throws(JumpError) in
                try session.settlePendingAppends(onFetched: server)
                let conflicts = session.record.rebase(onServer: server, ownWrites: session.unansweredValues)
                session.unansweredValues = [:]  // the server's record says what became of them
                return (session.record.uuid, conflicts)
            }
            guard let outcome else { throw JumpError(.notSignedIn, "the session ended while the record was being fetched") }
            persist(&s)
            return outcome
        }
        emit(.recordFetched(uuid: uuid))
        if !conflicts.isEmpty {
            throw JumpError(.conflict, "the record was fetched, but \(conflicts.count) edited value(s) also changed on the "
                            + "server (\(conflicts.map(\.path.description).joined(separator: ", "))): the local values were "
                            + "kept; revert them to take the server's, or sync to send them",
                            detail: ["conflicts": .array(conflicts.map(\.json))])
        }
    }

    /// Sends the unsynced edits with the fewest requests (SyncPlanner). After each request the server
    /// accepted, the baseline moves forward by it and that is journaled, so a failure part-way leaves
    /// exactly the rest unsynced.
    public func sync(cancellation: Cancellation? = nil) throws(JumpError) -> SyncResult {
        try syncGate.withLock { _ throws(JumpError) -> SyncResult in
            let started = try state.withLock { s throws(JumpError) in
                _ = try requireSession(s)
                return s.generation
            }
            // Appends sent earlier whose answers never came: found on the server, they are not sent again.
            var (changed, renamed) = try reconcilePendingAppends(generation: started, cancellation: cancellation)
            let (requests, generation, planUUID, planned) = try state.withLock { s throws(JumpError) in
                let session = try requireSession(s)
                return (session.record.plan(schema: s.schema), s.generation, session.record.uuid, session.record.current)
            }
            guard generation == started else { throw JumpError(.notSignedIn, "the session ended while the record was being synced") }
            if requests.isEmpty {
                if !changed.isEmpty { emit(.recordSynced(uuid: planUUID, changed: changed)) }
                return SyncResult(changed: changed, requests: 0, renamed: renamed)
            }
            var sent = 0
            var uuid: String?
            for (index, request) in requests.enumerated() {
                do throws(JumpError) {
                    let (id, names) = try sendSettled(request, generation: generation, sent: &sent, cancellation: cancellation)
                    uuid = id
                    changed += request.changed
                    renamed += names
                } catch {
                    if !CaptureSession.mayHaveBeenApplied(error) {
                        state.withLock { s in if s.generation == generation { CaptureSession.settleAppend(&s, request) } }
                    } else {
                        noteUnanswered(request, sentFrom: planned, generation: generation)
                    }
                    var failure = error
                    failure.detail["synced"] = .array(changed.map(JSON.string))
                    failure.detail["pending"] = .array(requests[index...].flatMap(\.changed).map(JSON.string))
                    failure.detail["requests"] = .int(Int64(sent))
                    if !changed.isEmpty { emit(.recordSynced(uuid: uuid, changed: changed)) }
                    throw failure
                }
            }
            emit(.recordSynced(uuid: uuid, changed: changed))
            return SyncResult(changed: changed, requests: sent, renamed: renamed)
        }
    }

    /// Sends one request of a sync and applies its answer. A request whose answer was lost on a connection
    /// that died (JumpError.isOutcomeUnknown) is settled here, never guessed: an append by the pending-append
    /// check (found on the server, it counts as answered; not found, it was not applied and goes once more);
    /// an update without appends, or a replace, by sending it again, which the server answers the same.
    private func sendSettled(_ request: SyncRequest, generation: UInt64, sent: inout Int,
                             cancellation: Cancellation?) throws(JumpError) -> (String?, [(String, String)]) {
        do throws(JumpError) {
            return try send(request, generation: generation, sent: &sent, cancellation: cancellation)
        } catch where error.isOutcomeUnknown && request.kind != .delete {
            Log.info("the answer to \(request.kind.endpoint) was lost; settling its outcome")
            if request.kind == .append, let plural = request.plural {
                let (settled, names) = try reconcilePendingAppends(generation: generation, cancellation: cancellation)
                if settled.contains(plural.description) {
                    sent += 1
                    let uuid = state.withLock { s in s.session?.record.uuid }
                    return (uuid, names)
                }
            }
            return try send(request, generation: generation, sent: &sent, cancellation: cancellation)
        }
    }

    /// One request of a sync: marked pending first when it appends, then sent, then acknowledged and journaled.
    private func send(_ request: SyncRequest, generation: UInt64, sent: inout Int,
                      cancellation: Cancellation?) throws(JumpError) -> (String?, [(String, String)]) {
        markAppendPending(request, generation: generation)
        let (answer, tokenGeneration) = try authorized(cancellation: cancellation) { token throws(JumpError) in
            try capture.post("/" + request.kind.endpoint, CaptureSession.parameters(of: request, token: token),
                             cancellation: cancellation)
        }
        sent += 1
        guard tokenGeneration == generation else {
            throw JumpError(.notSignedIn, "the session ended while the record was being synced")
        }
        let result = answer["result"]
        return try state.withLock { s throws(JumpError) -> (String?, [(String, String)]) in
            guard s.generation == generation else {
                throw JumpError(.notSignedIn, "the session ended while the record was being synced")
            }
            var names: [(String, String)] = []
            var ops: [RecordOp] = []
            let id = try s.withSession { session throws(JumpError) -> String? in
                ops = try session.record.acknowledgements(of: request, result: result, renamed: &names)
                for op in ops { session.record.apply(op) }
                return session.record.uuid
            }
            CaptureSession.settleAppend(&s, request)
            s.updateSession { session in for path in request.changed { session.unansweredValues[path] = nil } }
            journal(&s, ops)
            return (id ?? nil, names)
        }
    }

    /// An update whose outcome is unknown: its values are remembered (and saved), so that the next fetch takes
    /// them for this client's own if the server holds them (UserRecord.rebase).
    private func noteUnanswered(_ request: SyncRequest, sentFrom planned: JSON, generation: UInt64) {
        guard request.kind == .update else { return }
        state.withLock { s in
            guard s.generation == generation else { return }
            s.updateSession { session in
                for changed in request.changed {
                    guard let path = try? RecordPath(changed) else { continue }
                    session.unansweredValues[changed] = RecordTree.value(at: path, in: planned) ?? .null
                }
            }
            persist(&s)
        }
    }

    static func parameters(of request: SyncRequest, token: String) -> FormParameters {
        var p = FormParameters()
        p.add("access_token", token)
        if !request.path.isRoot { p.add("attribute_name", request.path.description) }
        if let attributes = request.attributes { p.add("attributes", Jansson.serialize(attributes)) }
        if request.kind == .replace || request.kind == .append { p.add("include_record", "true") }
        return p
    }

    /// A view of the signed-in user's record, valid for this session only.
    public func recordView() throws(JumpError) -> RecordView {
        RecordView(client: self, generation: try signedInGeneration())
    }

    /// Runs `body` on the record of session `generation` (in place) with the schema in use.
    func withRecord<T: Sendable>(generation: UInt64, _ body: (inout UserRecord, RecordSchema?) throws(JumpError) -> T) throws(JumpError) -> T {
        try state.withLock { s throws(JumpError) -> T in try onRecord(&s, generation, body) }
    }

    /// Checks an edit, makes the operation it makes durable (journaled), then applies it: JUMP_OK on an
    /// edit means it survives a restart. `body` must not apply the operation (`applying: false`).
    func editRecord<T: Sendable>(generation: UInt64, _ body: (inout UserRecord, RecordSchema?) throws(JumpError) -> (RecordOp?, T)) throws(JumpError) -> T {
        try state.withLock { s throws(JumpError) -> T in
            let (op, result) = try onRecord(&s, generation, body)
            if let op { try commitEdit(&s, op) }
            return result
        }
    }

    /// The record of session `generation`, under the state lock, or JUMP_E_NOT_SIGNED_IN once it ended.
    private func onRecord<T>(_ s: inout CaptureState, _ generation: UInt64,
                             _ body: (inout UserRecord, RecordSchema?) throws(JumpError) -> T) throws(JumpError) -> T {
        let schema = s.schema
        guard s.generation == generation,
              let result = try s.withSession({ session throws(JumpError) in try body(&session.record, schema) }) else {
            throw JumpError(.notSignedIn, "this record belongs to a session that has ended")
        }
        return result
    }
}

/// The signed-in user's record as the app reads and edits it (see jump_record in jump.h).
public struct RecordView: Sendable {
    let client: CaptureSession
    let generation: UInt64

    public func value(at path: String) throws(JumpError) -> JSON {
        // The common read, a top-level attribute ("/givenName"), is looked up by its name: no path to build.
        if let name = RecordPath.topLevelName(path) {
            return try client.readRecord(generation: generation) { record, _ throws(JumpError) in
                try record.topLevelValue(name, path: path)
            }
        }
        let parsed = try RecordPath(path)
        return try client.readRecord(generation: generation) { record, _ throws(JumpError) in try record.value(at: parsed) }
    }

    public func set(_ path: String, to value: JSON) throws(JumpError) {
        let parsed = try RecordPath(path)
        try client.editRecord(generation: generation) { record, schema throws(JumpError) in
            (try record.set(parsed, to: value, schema: schema, applying: false), ())
        }
    }

    public func clear(_ path: String) throws(JumpError) {
        let parsed = try RecordPath(path)
        try client.editRecord(generation: generation) { record, schema throws(JumpError) in
            (try record.clear(parsed, schema: schema, applying: false), ())
        }
    }

    /// Appends an element; returns its path ("/photos#-1").
    public func append(_ element: JSON, to plural: String) throws(JumpError) -> String {
        let parsed = try RecordPath(plural)
        return try client.editRecord(generation: generation) { record, schema throws(JumpError) in
            let (op, path) = try record.append(element, to: parsed, schema: schema, applying: false)
            return (op, path.description)
        }
    }

    public func remove(_ element: String) throws(JumpError) {
        let parsed = try RecordPath(element)
        try client.editRecord(generation: generation) { record, schema throws(JumpError) in
            (try record.remove(parsed, schema: schema, applying: false), ())
        }
    }

    public func replacePlural(_ plural: String, with elements: JSON) throws(JumpError) {
        let parsed = try RecordPath(plural)
        guard case .array(let items) = elements else {
            throw .invalidArgument("the elements are a JSON array, not \(elements.typeName)", argument: "elements")
        }
        try client.editRecord(generation: generation) { record, schema throws(JumpError) in
            (try record.replacePlural(parsed, with: items, schema: schema, applying: false), ())
        }
    }

    /// The paths of a plural's elements, in order.
    public func elementPaths(_ plural: String) throws(JumpError) -> [String] {
        let parsed = try RecordPath(plural)
        return try client.readRecord(generation: generation) { record, _ throws(JumpError) -> [String] in
            guard case .array(let items) = try record.value(at: parsed), !parsed.isRoot, !parsed.isElement else {
                throw .invalidArgument("'\(parsed)' is not a plural", argument: parsed.description)
            }
            return items.compactMap { $0["id"]?.intValue.map { parsed.element($0).description } }
        }
    }

    public func elementCount(_ plural: String) throws(JumpError) -> Int {
        let parsed = try RecordPath(plural)
        return try client.readRecord(generation: generation) { record, _ throws(JumpError) -> Int in
            guard case .array(let items) = try record.value(at: parsed), !parsed.isRoot, !parsed.isElement else {
                throw .invalidArgument("'\(parsed)' is not a plural", argument: parsed.description)
            }
            return items.count
        }
    }

    public func revert(_ path: String) throws(JumpError) {
        let parsed = try RecordPath(path)
        try client.editRecord(generation: generation) { record, _ throws(JumpError) in (record.revert(parsed, applying: false), ()) }
    }

    /// What a sync would send now.
    public func changes() throws(JumpError) -> RecordChanges {
        try client.readRecord(generation: generation) { record, schema throws(JumpError) -> RecordChanges in
            RecordChanges(requests: record.plan(schema: schema))
        }
    }

    public func discardChanges() throws(JumpError) {
        try client.editRecord(generation: generation) { record, _ throws(JumpError) in (record.revert(.root, applying: false), ()) }
    }
}

/// The requests a sync would send, and the paths they change.
public struct RecordChanges: Sendable, Equatable {
    public let requests: [SyncRequest]

    public var changed: [String] { requests.flatMap(\.changed) }

    /// The attributes of the record root's entity.update (empty when the root is unchanged).
    public var rootUpdate: JSON { requests.first { $0.kind == .update && $0.path.isRoot }?.attributes ?? .object([:]) }
}
