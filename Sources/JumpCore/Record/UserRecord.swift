/// The signed-in user's record: `baseline` is what the server last acknowledged, `current` what the app
/// sees. The pending changes are their difference, so they are never lost or sent twice: the baseline only
/// moves forward by what the server accepted.
public struct UserRecord: Sendable, Equatable {
    public private(set) var baseline: JSON
    public private(set) var current: JSON

    static let reservedAttributes: Set<String> = ["id", "uuid", "created", "lastUpdated"]

    public init(server: JSON) {
        baseline = server
        current = server
    }

    init(baseline: JSON, current: JSON) {
        self.baseline = baseline
        self.current = current
    }

    public var uuid: String? { current["uuid"]?.stringValue }
    public var email: String? { current["email"]?.stringValue }

    public func value(at path: RecordPath) throws(JumpError) -> JSON {
        var node = current
        for component in path.components {
            guard case .object(let members) = node, let child = members[component.name] else {
                throw JumpError(.notFound, "the record has no attribute '\(path)'", detail: ["argument": .string(path.description)])
            }
            node = child
            if let id = component.elementID {
                guard let element = node.arrayValue?.first(where: { $0["id"]?.intValue == id }) else {
                    throw JumpError(.notFound, "the record has no element '\(component.name)#\(id)' (path '\(path)')",
                                    detail: ["argument": .string(path.description)])
                }
                node = element
            }
        }
        return node
    }

    /// Sets a non-plural attribute that exists in the record.
    public mutating func set(_ path: RecordPath, to value: JSON) throws(JumpError) {
        let where_ = path.description
        guard let last = path.components.last else {
            throw .invalidArgument("the whole record cannot be replaced; set its attributes", argument: where_)
        }
        if path.components.contains(where: { $0.elementID != nil }) {
            throw .invalidArgument("'\(where_)' is inside a plural element; plurals are not edited as values", argument: where_)
        }
        if path.components.count == 1, UserRecord.reservedAttributes.contains(last.name) {
            throw .invalidArgument("'\(where_)' is a reserved attribute and cannot be changed", argument: where_)
        }
        let existing: JSON
        do {
            existing = try self.value(at: path)
        } catch {
            throw .invalidArgument("the record has no attribute '\(where_)'", argument: where_)
        }
        if case .array = existing {
            throw .invalidArgument("'\(where_)' is a plural; plurals cannot be set as a value", argument: where_)
        }
        if case .array = value {
            throw .invalidArgument("'\(where_)' cannot be set to an array (plurals are not values)", argument: where_)
        }
        if case .object = existing, !(value.objectValue != nil) {
            throw .invalidArgument("'\(where_)' is an object; set its members instead", argument: where_)
        }
        if case .object(let newMembers) = value, case .object(let oldMembers) = existing,
           let unknown = newMembers.keys.sorted().first(where: { oldMembers[$0] == nil }) {
            throw .invalidArgument("the record has no attribute '\(where_)/\(unknown)'", argument: "\(where_)/\(unknown)")
        }
        current = UserRecord.replacing(path.components.map(\.name)[...], in: current, with: value)
    }

    public var changes: RecordChanges { RecordChanges(baseline: baseline, current: current) }

    /// The server accepted `update` (an entity.update at the root): move the baseline forward by it.
    mutating func acknowledge(_ update: [String: JSON]) {
        baseline = UserRecord.merging(update, into: baseline)
    }

    mutating func discardChanges() { current = baseline }

    /// A fresh copy from the server, with the pending local edits re-applied on top.
    mutating func rebase(onServer server: JSON) {
        let pending = changes.update
        baseline = server
        current = UserRecord.merging(pending, into: server)
    }

    static func replacing(_ keys: ArraySlice<String>, in node: JSON, with value: JSON) -> JSON {
        guard let key = keys.first, case .object(var members) = node else { return value }
        members[key] = replacing(keys.dropFirst(), in: members[key] ?? .null, with: value)
        return .object(members)
    }

    static func merging(_ update: [String: JSON], into node: JSON) -> JSON {
        guard case .object(var members) = node else { return .object(update) }
        for (key, value) in update {
            if case .object(let nested) = value, case .object? = members[key] {
                members[key] = merging(nested, into: members[key] ?? .null)
            } else {
                members[key] = value
            }
        }
        return .object(members)
    }
}

/// The difference between the acknowledged record and the edited one, as entity.update will send it.
public struct RecordChanges: Sendable, Equatable {
    /// Changed attribute paths, e.g. ["/aboutMe", "/primaryAddress/city"].
    public let paths: [String]
    /// The nested attributes object of one root `entity.update` (only what changed).
    public let update: [String: JSON]

    init(baseline: JSON, current: JSON) {
        var paths: [String] = []
        update = RecordChanges.diff(baseline.objectValue ?? [:], current.objectValue ?? [:], prefix: "", paths: &paths)
        self.paths = paths
    }

    public var isEmpty: Bool { update.isEmpty }

    public var json: JSON {
        .object(["changed": .array(paths.map(JSON.string)), "update": .object(update)])
    }

    private static func diff(_ old: [String: JSON], _ new: [String: JSON], prefix: String,
                             paths: inout [String]) -> [String: JSON] {
        var out: [String: JSON] = [:]
        for key in new.keys.sorted() {
            let before = old[key], after = new[key] ?? .null
            if before == after { continue }
            if case .object(let o)? = before, case .object(let n) = after {
                let nested = diff(o, n, prefix: prefix + "/" + key, paths: &paths)
                if !nested.isEmpty { out[key] = .object(nested) }
            } else {
                out[key] = after
                paths.append(prefix + "/" + key)
            }
        }
        return out
    }
}
