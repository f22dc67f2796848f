/// One request of a sync, and what it settles once the server accepts it.
public struct SyncRequest: Sendable, Equatable {
    public enum Kind: Sendable {
        case update
        /// New elements added at the end of a plural: an entity.update of the plural's parent with only
        /// them, which the server appends, so the elements already there keep their ids and a concurrent
        /// writer's additions stay.
        case append
        case replace
        case delete

        public var endpoint: String {
            switch self {
            case .update, .append: return "entity.update"
            case .replace: return "entity.replace"
            case .delete: return "entity.delete"
            }
        }
    }

    public let kind: Kind
    /// attribute_name (the root is sent without one).
    public let path: RecordPath
    /// What is sent: the changed attributes (update, append) or the elements without ids (replace).
    public let attributes: JSON?
    /// replace and append: the elements with their current ids, matched in order with the ids of the result.
    let sentElements: [JSON]
    /// append: the plural the elements go to (`path` is its parent).
    var plural: RecordPath? = nil
    /// The edited paths this request syncs.
    public let changed: [String]

}

/// The fewest requests that carry a record's edits (see jump_client_sync in jump.h). Only the touched parts
/// of the record are visited.
struct SyncPlanner {
    let baseline: JSON
    let current: JSON
    let schema: RecordSchema?

    func plan(_ touched: TouchTree) -> [SyncRequest] {
        var requests: [SyncRequest] = []
        var update: [String: JSON] = [:]
        var changed: [String] = []
        planObject(.root, baseline, current, touched, element: false, update: &update, changed: &changed, requests: &requests)
        if !update.isEmpty {
            requests.insert(SyncRequest(kind: .update, path: .root, attributes: .object(update), sentElements: [],
                                        changed: changed), at: 0)
        }
        return requests
    }

    private func planObject(_ path: RecordPath, _ old: JSON?, _ new: JSON?, _ node: TouchTree, element: Bool,
                            update: inout [String: JSON], changed: inout [String], requests: inout [SyncRequest]) {
        let keys: [String]
        if node.whole {
            var all = Set(old?.objectValue?.keys.map { $0 } ?? [])
            all.formUnion(new?.objectValue?.keys.map { $0 } ?? [])
            keys = all.sorted()
        } else {
            keys = node.children.keys.sorted()
        }
        for key in keys {
            if element && key == "id" { continue }
            if !element && path.isRoot && UserRecord.isReserved(key) { continue }
            let here = path.appending(key)
            let before = old?[key], after = new?[key]
            let child = node.whole ? TouchTree(whole: true) : (node.children[key] ?? TouchTree())
            if isPlural(here, before, after) {
                planPlural(here, before?.arrayValue ?? [], after?.arrayValue ?? [], child, requests: &requests)
            } else if case .object? = before, case .object? = after, !isJSONValue(here) {
                var nested: [String: JSON] = [:]
                planObject(here, before, after, child, element: false, update: &nested, changed: &changed, requests: &requests)
                if !nested.isEmpty { update[key] = .object(nested) }
            } else if before != after {
                update[key] = after ?? .null
                changed.append(here.description)
            }
        }
    }

    private func planPlural(_ path: RecordPath, _ old: [JSON], _ new: [JSON], _ node: TouchTree, requests: inout [SyncRequest]) {
        guard node.whole else {
            for key in node.children.keys.sorted() {
                guard let child = node.children[key], let id = Int64(key.dropFirst()),
                      let before = TouchTree.element(id, of: .array(old)), let after = TouchTree.element(id, of: .array(new))
                else { continue }
                planElement(path.element(id), before, after, child, requests: &requests)
            }
            return
        }
        if old == new { return }
        if new.isEmpty {
            requests.append(SyncRequest(kind: .delete, path: path, attributes: nil, sentElements: [], changed: [path.description]))
            return
        }
        let oldIDs = old.compactMap { $0["id"]?.intValue }
        let oldSet = Set(oldIDs)
        // The elements the server has (their id is in the baseline) come first; new ones may only follow.
        let serverCount = new.prefix { $0["id"]?.intValue.map(oldSet.contains) ?? false }.count
        let serverIDs = new[..<serverCount].compactMap { $0["id"]?.intValue }
        let added = Array(new[serverCount...])
        let serverSet = Set(serverIDs)
        let appendsOnly = added.allSatisfy { !($0["id"]?.intValue.map(oldSet.contains) ?? false) }
            && serverSet.count == serverIDs.count && oldIDs.filter { serverSet.contains($0) } == serverIDs
        guard appendsOnly, serverCount > 0 || old.isEmpty else {
            // A reorder, or an element put before the server's: only a replace says that (new ids for all).
            // So does a plural none of whose elements stay: one request instead of a delete for each.
            requests.append(SyncRequest(kind: .replace, path: path, attributes: RecordTree.strippingIDs(.array(new)),
                                        sentElements: new, changed: [path.description]))
            return
        }
        let newSet = serverSet
        for id in oldIDs where !newSet.contains(id) {
            let element = path.element(id)
            requests.append(SyncRequest(kind: .delete, path: element, attributes: nil, sentElements: [],
                                        changed: [element.description]))
        }
        for after in new[..<serverCount] {
            guard let id = after["id"]?.intValue, let before = TouchTree.element(id, of: .array(old)), before != after else { continue }
            planElement(path.element(id), before, after, TouchTree(whole: true), requests: &requests)
        }
        if !added.isEmpty, let name = path.components.last?.name {
            var append = SyncRequest(kind: .append, path: path.parent,
                                     attributes: .object([name: RecordTree.strippingIDs(.array(added))]),
                                     sentElements: added, changed: [path.description])
            append.plural = path
            requests.append(append)
        }
    }

    private func planElement(_ path: RecordPath, _ old: JSON, _ new: JSON, _ node: TouchTree, requests: inout [SyncRequest]) {
        var update: [String: JSON] = [:]
        var changed: [String] = []
        var nested: [SyncRequest] = []
        planObject(path, old, new, node, element: true, update: &update, changed: &changed, requests: &nested)
        if !update.isEmpty {
            requests.append(SyncRequest(kind: .update, path: path, attributes: .object(update), sentElements: [], changed: changed))
        }
        requests += nested
    }

    /// A json attribute is one value to Capture: entity.update replaces it whole (an object's members are
    /// merged), so a change inside it sends all of it. Known from the schema only: without one it looks like
    /// an object, and its members are sent as an object's.
    private func isJSONValue(_ path: RecordPath) -> Bool {
        schema?.attribute(at: path)?.type == "json"
    }

    private func isPlural(_ path: RecordPath, _ old: JSON?, _ new: JSON?) -> Bool {
        if let schema, let attribute = schema.attribute(at: path) { return attribute.isPlural }
        if case .array? = new { return RecordTree.looksPlural(new) }
        if case .array? = old { return RecordTree.looksPlural(old) }
        return false
    }
}

extension UserRecord {
    func plan(schema: RecordSchema?) -> [SyncRequest] {
        SyncPlanner(baseline: baseline, current: current, schema: schema).plan(touched)
    }

    /// What the server's acceptance of `request` changes, as operations to apply and journal. `result` is
    /// the response's `result` (entity.replace with include_record: the elements with their new ids).
    /// Called with the record as it is now (the app may have edited it while the request was out).
    func acknowledgements(of request: SyncRequest, result: JSON?,
                          renamed: inout [(String, String)]) throws(JumpError) -> [RecordOp] {
        switch request.kind {
        case .update:
            return [.acknowledgeMerge(request.path, request.attributes?.objectValue ?? [:])]
        case .append:
            // The result is the parent as the server has it now: the appended elements are the plural's last.
            guard let plural = request.plural, let name = plural.components.last?.name,
                  case .array(let all)? = result?[name], all.count >= request.sentElements.count else {
                throw JumpError(.server, "entity.update of '\(request.path)' did not answer the appended elements (include_record)")
            }
            let elements = Array(all.suffix(request.sentElements.count))
            var pairs: [RecordOp.Renumbering] = []
            UserRecord.renumber(request.sentElements, elements, plural: plural, oldPlural: plural, into: &pairs, renamed: &renamed)
            let known = RecordTree.value(at: plural, in: baseline)?.arrayValue ?? []
            if RecordTree.value(at: plural, in: current) == .array(known + request.sentElements) {
                return [.adopt(plural, .array(known + elements))]
            }
            return [.acknowledge(plural, .array(known + elements)), .renumber(plural, pairs)]
        case .delete:
            return [request.path.isElement ? .acknowledgeRemoval(request.path) : .acknowledge(request.path, .array([]))]
        case .replace:
            guard case .array(let elements)? = result, elements.count == request.sentElements.count else {
                throw JumpError(.server, "entity.replace of '\(request.path)' did not answer the new elements (include_record)")
            }
            var pairs: [RecordOp.Renumbering] = []
            UserRecord.renumber(request.sentElements, elements, plural: request.path, oldPlural: request.path, into: &pairs, renamed: &renamed)
            if RecordTree.value(at: request.path, in: current) == .array(request.sentElements) {
                return [.adopt(request.path, .array(elements))]
            }
            return [.acknowledge(request.path, .array(elements)), .renumber(request.path, pairs)]
        }
    }

    private static func renumber(_ sent: [JSON], _ result: [JSON], plural: RecordPath, oldPlural: RecordPath,
                                 into pairs: inout [RecordOp.Renumbering], renamed: inout [(String, String)]) {
        for (before, after) in zip(sent, result) {
            guard let old = before["id"]?.intValue, let new = after["id"]?.intValue else { continue }
            pairs.append(RecordOp.Renumbering(plural: plural, old: old, new: new))
            if old != new { renamed.append((oldPlural.element(old).description, plural.element(new).description)) }
            for (key, value) in before.objectValue ?? [:] {
                guard case .array(let nestedSent) = value, RecordTree.looksPlural(value),
                      case .array(let nestedResult)? = after[key] else { continue }
                renumber(nestedSent, nestedResult, plural: plural.element(new).appending(key),
                         oldPlural: oldPlural.element(old).appending(key), into: &pairs, renamed: &renamed)
            }
        }
    }
}
