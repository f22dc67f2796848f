/// The signed-in user's record: `baseline` is what the server last acknowledged, `current` what the app
/// sees, `touched` where they may differ. Every change is a RecordOp, applied here and journaled by the
/// client, so the saved record replays to exactly this one. The baseline only moves forward by what the
/// server accepted: pending edits are never lost and never sent twice.
public struct UserRecord: Sendable, Equatable {
    public private(set) var baseline: JSON
    public private(set) var current: JSON
    private(set) var touched = TouchTree()
    /// The id the next locally created plural element gets (negative, so it never clashes with the server's).
    private(set) var nextLocalID: Int64 = -1
    /// Bumped at every change: callers tell a change without comparing records.
    private(set) var revision: UInt64 = 0

    public static func == (a: UserRecord, b: UserRecord) -> Bool {
        a.baseline == b.baseline && a.current == b.current && a.touched == b.touched && a.nextLocalID == b.nextLocalID
    }

    /// The attributes the server keeps (never sent, never set by the app); a switch, not a Set: every edit
    /// asks, and comparing a few short names costs less than hashing one.
    static func isReserved(_ name: String) -> Bool {
        switch name {
        case "id", "uuid", "created", "lastUpdated": return true
        default: return false
        }
    }

    public init(server: JSON) {
        baseline = server
        current = server
    }

    /// A record saved as its acknowledged state plus the edits that make the current one.
    init(baseline: JSON, edits: [RecordOp], nextLocalID: Int64) {
        self.baseline = baseline
        current = baseline
        self.nextLocalID = min(nextLocalID, -1)
        for edit in edits { apply(edit) }
    }

    /// A record saved by libjump 0.1 (baseline and current): the edits are found by comparing them once.
    init(baseline: JSON, current: JSON) {
        self.baseline = baseline
        self.current = current
        UserRecord.markDifferences(baseline, current, at: .root, in: &touched)
    }

    public var uuid: String? { current["uuid"]?.stringValue }
    public var email: String? { current["email"]?.stringValue }

    public func value(at path: RecordPath) throws(JumpError) -> JSON {
        guard let value = RecordTree.value(at: path, in: current) else { throw UserRecord.noAttribute(path.description) }
        return value
    }

    /// The value of top-level attribute `name` (whose path is `path`).
    func topLevelValue(_ name: String, path: String) throws(JumpError) -> JSON {
        guard case .object(let members) = current, let value = members[name] else { throw UserRecord.noAttribute(path) }
        return value
    }

    static func noAttribute(_ path: String) -> JumpError {
        JumpError(.notFound, "the record has no attribute '\(path)'", detail: ["argument": .string(path)])
    }

    /// The edits to save with the record: a set of each edited path to its current value.
    var snapshotEdits: [RecordOp] {
        touched.leaves().compactMap { path in RecordTree.value(at: path, in: current).map { RecordOp.set(path, $0) } }
    }

    public var hasEdits: Bool { !touched.isEmpty }

    // MARK: - Applying operations (edits, acknowledgements, replays)

    mutating func apply(_ op: RecordOp) {
        revision &+= 1
        switch op {
        case .set(let path, let value):
            let isNewElement = path.isElement && RecordTree.value(at: path, in: baseline) == nil
            RecordTree.put(value, at: path, in: &current)
            touched.mark(isNewElement ? (path.pluralOfElement ?? path) : path)
            noteLocalIDs(in: value, at: path)
        case .remove(let path):
            RecordTree.removeElement(at: path, in: &current)
            touched.mark(path.pluralOfElement ?? path)
        case .revert(let path):
            let scope = wholeEditCovering(path) ?? path
            if let original = RecordTree.value(at: scope, in: baseline) {
                RecordTree.put(original, at: scope, in: &current)
            } else if scope.isElement {
                RecordTree.removeElement(at: scope, in: &current)
            }
            touched.unmark(scope)
        case .acknowledge(let path, let value):
            RecordTree.put(value, at: path, in: &baseline)
            touched.prune(baseline: baseline, current: current)
        case .acknowledgeMerge(let path, let update):
            RecordTree.merge(update, at: path, in: &baseline)
            touched.prune(baseline: baseline, current: current)
        case .acknowledgeRemoval(let path):
            RecordTree.removeElement(at: path, in: &baseline)
            touched.prune(baseline: baseline, current: current)
        case .adopt(let path, let value):
            RecordTree.put(value, at: path, in: &baseline)
            RecordTree.put(value, at: path, in: &current)
            touched.unmark(path)
            touched.prune(baseline: baseline, current: current)
        case .renumber(_, let pairs):
            for pair in pairs {
                _ = try? RecordTree.modify(&current, pair.plural.components[...]) { node throws(JumpError) in
                    guard case .array(var items) = node, let index = RecordTree.elementIndex(items, id: pair.old),
                          case .object(var members) = items[index] else { return }
                    node = .null
                    members["id"] = .int(pair.new)
                    items[index] = .object(members)
                    node = .array(items)
                }
            }
            touched.prune(baseline: baseline, current: current)
        }
    }

    /// The nearest enclosing path edited as a whole (a plural whose elements changed), if any.
    private func wholeEditCovering(_ path: RecordPath) -> RecordPath? {
        var node = touched
        var walked = RecordPath.root
        for component in path.components {
            if node.whole { return walked }
            guard let child = node.children[component.name] else { return nil }
            node = child
            walked = walked.appending(component.name)
            if let id = component.elementID {
                if node.whole { return walked }
                guard let element = node.children[TouchTree.elementKey(id)] else { return nil }
                node = element
                walked = walked.element(id)
            }
        }
        return nil
    }

    private mutating func noteLocalIDs(in value: JSON, at path: RecordPath) {
        if let id = path.components.last?.elementID, id < 0 { nextLocalID = min(nextLocalID, UserRecord.below(id)) }
        switch value {
        case .object(let members):
            if let id = members["id"]?.intValue, id < 0 { nextLocalID = min(nextLocalID, UserRecord.below(id)) }
            for member in members.values { noteLocalIDs(in: member, at: .root) }
        case .array(let items):
            for item in items { noteLocalIDs(in: item, at: .root) }
        default:
            break
        }
    }

    /// The next local id after `id`, saturating: ids come from saved data and app values, and must never
    /// overflow (Int64.min stays Int64.min).
    static func below(_ id: Int64) -> Int64 { id == .min ? .min : id - 1 }

    /// Gives new elements (and the elements of plurals inside them) local ids.
    mutating func withLocalIDs(_ element: JSON, schema: RecordSchema.Attribute?) -> JSON {
        guard case .object(var members) = element else { return element }
        members["id"] = .int(nextLocalID)
        nextLocalID = UserRecord.below(nextLocalID)
        for key in members.keys.sorted() {
            guard case .array(let items)? = members[key] else { continue }
            let child = schema?.children[key]
            let plural = child.map(\.isPlural) ?? items.allSatisfy { $0.objectValue != nil }
            guard plural, !items.isEmpty else { continue }
            members[key] = .array(items.map { withLocalIDs(RecordTree.strippingElementID($0), schema: child) })
        }
        return .object(members)
    }

    // MARK: - Rebasing on a fresh copy from the server

    public struct Conflict: Sendable, Equatable {
        public let path: RecordPath
        public let local: JSON?
        public let server: JSON?
        public let base: JSON?

        public var json: JSON {
            ["path": .string(path.description), "local": local ?? .null, "server": server ?? .null, "base": base ?? .null]
        }
    }

    /// Takes `server` as the new baseline and re-applies the pending edits on top. Where the server changed
    /// an edited value too, the local value is kept and the conflict is returned. `ownWrites` (path -> value):
    /// values this client sent without hearing back; found on the server they are its own, not a conflict.
    mutating func rebase(onServer server: JSON, ownWrites: [String: JSON] = [:]) -> [Conflict] {
        var conflicts: [Conflict] = []
        var rebased = server
        var marks = TouchTree()
        for path in touched.leaves() {
            let local = RecordTree.value(at: path, in: current)
            let base = RecordTree.value(at: path, in: baseline)
            let remote = RecordTree.value(at: path, in: server)
            if local == base || local == remote { continue }
            // A plural whose new elements the server already holds under the ids it gave them: a sync whose
            // acknowledgement was lost (the process died, the journal could not be written). Acknowledged.
            if let local, let remote, RecordTree.looksPlural(local),
               RecordTree.strippingIDs(local) == RecordTree.strippingIDs(remote) { continue }
            if remote != base && (remote == nil || ownWrites[path.description] != remote) {
                conflicts.append(Conflict(path: path, local: local, server: remote, base: base))
            }
            // An edit inside an element the server no longer has cannot be kept (it is reported above).
            guard let local, UserRecord.serverElementsExist(on: path, in: server) else { continue }
            if RecordTree.put(local, at: path, in: &rebased) { marks.mark(path) }
        }
        baseline = server
        current = rebased
        touched = marks
        touched.prune(baseline: baseline, current: current)
        revision &+= 1
        return conflicts
    }

    private static func serverElementsExist(on path: RecordPath, in record: JSON) -> Bool {
        for (index, component) in path.components.enumerated() where (component.elementID ?? 0) > 0 {
            if RecordTree.value(at: RecordPath(components: Array(path.components.prefix(index + 1))), in: record) == nil {
                return false
            }
        }
        return true
    }

    // MARK: - Comparing a saved baseline and current once

    private static func markDifferences(_ old: JSON?, _ new: JSON?, at path: RecordPath, in tree: inout TouchTree) {
        if old == new { return }
        if case .object(let o)? = old, case .object(let n)? = new {
            for key in Set(o.keys).union(n.keys).sorted() {
                markDifferences(o[key], n[key], at: path.appending(key), in: &tree)
            }
            return
        }
        if RecordTree.looksPlural(old), RecordTree.looksPlural(new), case .array(let o)? = old, case .array(let n)? = new,
           o.map({ $0["id"]?.intValue }) == n.map({ $0["id"]?.intValue }) {
            for (before, after) in zip(o, n) {
                guard let id = after["id"]?.intValue else { continue }
                markDifferences(before, after, at: path.element(id), in: &tree)
            }
            return
        }
        tree.mark(path)
    }
}

extension RecordTree {
    static func strippingElementID(_ value: JSON) -> JSON {
        guard case .object(var members) = value else { return value }
        members.removeValue(forKey: "id")
        return .object(members)
    }
}
