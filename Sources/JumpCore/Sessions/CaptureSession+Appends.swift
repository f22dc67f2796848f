import JumpRuntime

/// An append is applied once. An entity.update that appends elements is not idempotent: sent again after the
/// server applied it and its answer was lost (a dropped connection, a killed process), it would add the
/// elements twice. So each append is saved as pending before it is sent, and the next sync, in this process
/// or after a restart, first looks for its elements on the server (/entity of the plural): what it finds
/// there counts as acknowledged, and only what it does not find is sent.
extension CaptureSession {
    /// Before an append is sent: saved whole, so that it is known pending if the process dies meanwhile.
    func markAppendPending(_ request: SyncRequest, generation: UInt64) {
        guard request.kind == .append, let plural = request.plural else { return }
        state.withLock { s in
            guard s.generation == generation, let baseline = s.session?.record.baseline else { return }
            let known = (RecordTree.value(at: plural, in: baseline)?.arrayValue ?? []).compactMap { $0["id"]?.intValue }
            s.updateSession { session in
                session.pendingAppends.removeAll { $0.plural == plural }
                session.pendingAppends.append(PendingAppend(plural: plural, knownIDs: known, sent: request.sentElements))
            }
            persist(&s)
        }
    }

    /// The append was answered, or refused outright: no longer pending (the next save records it; until then
    /// a restart finds its elements acknowledged, or looks once more and finds nothing).
    static func settleAppend(_ s: inout CaptureState, _ request: SyncRequest) {
        guard request.kind == .append, let plural = request.plural else { return }
        s.updateSession { $0.pendingAppends.removeAll { $0.plural == plural } }
    }

    /// Whether the outcome of a failed append is unknown (it may have been applied): anything but a Capture
    /// error answer below HTTP 500.
    static func mayHaveBeenApplied(_ error: JumpError) -> Bool {
        let httpStatus = error.detail["server"]?["http_status"]?.intValue ?? 0
        let code = error.detail["server"]?["code"]?.intValue
        return code == nil || httpStatus >= 500 || code == 500 || code == 510
    }

    /// Before a sync plans its requests: each pending append whose elements still wait here is looked up on
    /// the server. Returns what it settled (changed paths, and element paths that took server ids).
    func reconcilePendingAppends(generation: UInt64, cancellation: Cancellation?) throws(JumpError)
        -> (changed: [String], renamed: [(String, String)]) {
        let pending = state.withLock { s -> [PendingAppend] in
            s.generation == generation ? s.session?.pendingAppends ?? [] : []
        }
        var changed: [String] = []
        var renamed: [(String, String)] = []
        for append in pending {
            var server: [JSON]?
            if state.withLock({ s in s.session.map { append.isWaiting(in: $0.record) } ?? false }) {
                let (answer, _) = try authorized(cancellation: cancellation) { token throws(JumpError) in
                    var p = FormParameters()
                    p.add("access_token", token)
                    p.add("attribute_name", append.plural.description)
                    return try capture.post("/entity", p, cancellation: cancellation)
                }
                guard case .array(let elements)? = answer["result"] else {
                    throw JumpError(.server, "the /entity answer for '\(append.plural)' has no plural in 'result'")
                }
                server = elements
            }
            try state.withLock { s throws(JumpError) in
                guard s.generation == generation else {
                    throw JumpError(.notSignedIn, "the session ended while the record was being synced")
                }
                _ = try s.withSession { session throws(JumpError) in
                    if let server, try session.settle(append, serverPlural: server, renamed: &renamed) {
                        changed.append(append.plural.description)
                    }
                    // Not found: the server does not have them, and the sync sends them.
                    session.pendingAppends.removeAll { $0.plural == append.plural }
                }
                persist(&s)
            }
        }
        return (changed, renamed)
    }
}

extension Session {
    /// Settles `append` against the server's elements of its plural: when the server has the sent elements,
    /// they are acknowledged as if its answer had come, and the append is no longer pending. true then.
    mutating func settle(_ append: PendingAppend, serverPlural: [JSON],
                         renamed: inout [(String, String)]) throws(JumpError) -> Bool {
        guard let found = append.appliedElements(in: serverPlural) else { return false }
        for op in try record.acknowledgements(ofLost: append, found: found, renamed: &renamed) { record.apply(op) }
        pendingAppends.removeAll { $0.plural == append.plural }
        return true
    }

    /// A fetched record settles the pending appends whose elements it holds (before it is rebased on, so
    /// that they are acknowledged, not taken for edits made on both sides); appends whose elements no longer
    /// wait here are dropped.
    mutating func settlePendingAppends(onFetched server: JSON) throws(JumpError) {
        var renamed: [(String, String)] = []
        for append in pendingAppends {
            guard append.isWaiting(in: record) else {
                pendingAppends.removeAll { $0.plural == append.plural }
                continue
            }
            if case .array(let plural)? = RecordTree.value(at: append.plural, in: server) {
                _ = try settle(append, serverPlural: plural, renamed: &renamed)
            }
        }
    }
}

extension PendingAppend {
    /// Some of its elements are still in the record with the local ids they were sent with (not acknowledged
    /// since, nor removed).
    func isWaiting(in record: UserRecord) -> Bool {
        guard case .array(let items)? = RecordTree.value(at: plural, in: record.current) else { return false }
        let localIDs = Set(sent.compactMap { $0["id"]?.intValue })
        return items.contains { $0["id"]?.intValue.map(localIDs.contains) ?? false }
    }

    /// The server's copies of the sent elements, when the server has them all, in order, among the elements
    /// it did not have when they were sent (the append is one request: applied whole or not at all).
    func appliedElements(in server: [JSON]) -> [JSON]? {
        let known = Set(knownIDs)
        let fresh = server.filter { !($0["id"]?.intValue.map(known.contains) ?? false) }
        guard !sent.isEmpty, fresh.count >= sent.count else { return nil }
        for start in 0...(fresh.count - sent.count) {
            let run = fresh[start..<(start + sent.count)]
            if zip(run, sent).allSatisfy({ RecordTree.carries($0, $1) }) { return Array(run) }
        }
        return nil
    }
}

extension UserRecord {
    /// What finding a lost append's elements on the server changes: as if the server had answered, or, when a
    /// fetch brought the server's copies in meanwhile, the local copies go (they are the same elements twice).
    func acknowledgements(ofLost append: PendingAppend, found: [JSON],
                          renamed: inout [(String, String)]) throws(JumpError) -> [RecordOp] {
        let baselineIDs = Set((RecordTree.value(at: append.plural, in: baseline)?.arrayValue ?? []).compactMap { $0["id"]?.intValue })
        if found.contains(where: { $0["id"]?.intValue.map(baselineIDs.contains) ?? false }) {
            // The local copy of each element takes the server's id, or goes where the record has the server's
            // copy already.
            var ops: [RecordOp] = []
            for (sent, server) in zip(append.sent, found) {
                guard let local = sent["id"]?.intValue, let id = server["id"]?.intValue,
                      RecordTree.value(at: append.plural.element(local), in: current) != nil else { continue }
                if RecordTree.value(at: append.plural.element(id), in: current) != nil {
                    ops.append(.remove(append.plural.element(local)))
                } else {
                    ops.append(.renumber(append.plural, [RecordOp.Renumbering(plural: append.plural, old: local, new: id)]))
                    renamed.append((append.plural.element(local).description, append.plural.element(id).description))
                }
            }
            return ops
        }
        var request = SyncRequest(kind: .append, path: append.plural.parent, attributes: nil, sentElements: append.sent,
                                  changed: [append.plural.description])
        request.plural = append.plural
        guard let name = append.plural.components.last?.name else { return [] }
        return try acknowledgements(of: request, result: .object([name: .array(found)]), renamed: &renamed)
    }
}
