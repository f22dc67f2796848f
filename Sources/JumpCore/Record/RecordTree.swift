/// Reading and editing a record's JSON tree by path, in place: every level is taken out of its parent
/// before it is changed, so a change copies nothing but the values on its path (a record with 100 000
/// plural elements is not copied to change one of them).
enum RecordTree {
    /// The index of the element with `id`. Plurals come from the server in ascending id order with local
    /// (negative) ids after them, so a binary search usually finds it; otherwise a scan does.
    static func elementIndex(_ items: [JSON], id: Int64) -> Int? {
        func key(_ item: JSON) -> Int64 {
            let value = item["id"]?.intValue ?? Int64.max
            return value > 0 ? value : Int64.max
        }
        if id > 0 {
            var low = 0, high = items.count
            while low < high {
                let middle = low + (high - low) / 2
                if key(items[middle]) < id { low = middle + 1 } else { high = middle }
            }
            if low < items.count, items[low]["id"]?.intValue == id { return low }
        }
        return items.lastIndex { $0["id"]?.intValue == id }
    }

    /// The value at `path`, or nil when it does not exist.
    static func value(at path: RecordPath, in root: JSON) -> JSON? {
        var node = root
        for component in path.components {
            guard case .object(let members) = node, let child = members[component.name] else { return nil }
            node = child
            if let id = component.elementID {
                guard case .array(let items) = node, let index = elementIndex(items, id: id) else { return nil }
                node = items[index]
            }
        }
        return node
    }

    /// Runs `body` on the node at `path` in place; nil (and no call) when the path does not exist.
    /// With `creatingObjects`, missing or null object members on the way are created as {}.
    static func modify<T>(_ node: inout JSON, _ path: ArraySlice<RecordPath.Component>, creatingObjects: Bool = false,
                          _ body: (inout JSON) throws(JumpError) -> T) throws(JumpError) -> T? {
        guard let component = path.first else { return try body(&node) }
        if creatingObjects, node.isNull, component.elementID == nil || path.count > 1 { node = .object([:]) }
        guard case .object(var members) = node else { return nil }
        var child: JSON
        if let existing = members[component.name] {
            child = existing
        } else if creatingObjects && component.elementID == nil {
            child = .null
        } else {
            return nil
        }
        node = .null
        members[component.name] = .null
        defer {
            members[component.name] = child
            node = .object(members)
        }
        guard let id = component.elementID else {
            return try modify(&child, path.dropFirst(), creatingObjects: creatingObjects, body)
        }
        guard case .array(var items) = child, let index = elementIndex(items, id: id) else { return nil }
        child = .null
        defer { child = .array(items) }
        return try modify(&items[index], path.dropFirst(), creatingObjects: creatingObjects, body)
    }

    /// Sets the value at `path` (an element path replaces that element, or appends it when absent).
    /// False when the path's parent does not exist.
    @discardableResult
    static func put(_ value: JSON, at path: RecordPath, in root: inout JSON) -> Bool {
        guard let last = path.components.last else {
            root = value
            return true
        }
        let parentPath = path.components.dropLast()
        let done: Bool? = try? modify(&root, parentPath, creatingObjects: true) { parent throws(JumpError) -> Bool in
            if parent.isNull { parent = .object([:]) }
            guard case .object(var members) = parent else { return false }
            parent = .null
            defer { parent = .object(members) }
            guard let id = last.elementID else {
                members[last.name] = value
                return true
            }
            var items = members[last.name]?.arrayValue ?? []
            members[last.name] = .null
            defer { members[last.name] = .array(items) }
            if let index = elementIndex(items, id: id) { items[index] = value } else { items.append(value) }
            return true
        }
        return done ?? false
    }

    /// Removes the element at an element path; false when it does not exist.
    @discardableResult
    static func removeElement(at path: RecordPath, in root: inout JSON) -> Bool {
        guard let last = path.components.last, let id = last.elementID, let plural = path.pluralOfElement else { return false }
        let done: Bool? = try? modify(&root, plural.components[...]) { node throws(JumpError) -> Bool in
            guard case .array(var items) = node, let index = elementIndex(items, id: id) else { return false }
            node = .null
            defer { node = .array(items) }
            items.remove(at: index)
            return true
        }
        return done ?? false
    }

    /// Merges `update` into the object at `path` as entity.update does (nested objects merge, anything
    /// else replaces). False when the path does not exist.
    @discardableResult
    static func merge(_ update: [String: JSON], at path: RecordPath, in root: inout JSON) -> Bool {
        let done: Bool? = try? modify(&root, path.components[...]) { node throws(JumpError) -> Bool in
            node = merging(update, into: node)
            return true
        }
        return done ?? false
    }

    static func merging(_ update: [String: JSON], into node: JSON) -> JSON {
        guard case .object(var members) = node else { return .object(update) }
        for (key, value) in update {
            if case .object(let nested) = value, case .object? = members[key] {
                let old = members[key] ?? .null
                members[key] = .null
                members[key] = merging(nested, into: old)
            } else {
                members[key] = value
            }
        }
        return .object(members)
    }

    /// Whether `server` holds every member `sent` has, element ids aside (a server fills in members that
    /// were not sent, and gives elements ids of its own).
    static func carries(_ server: JSON, _ sent: JSON) -> Bool {
        switch sent {
        case .object(let members):
            guard case .object(let have) = server else { return false }
            return members.allSatisfy { key, value in key == "id" || carries(have[key] ?? .null, value) }
        case .array(let items):
            guard case .array(let have) = server, have.count == items.count else { return false }
            return zip(have, items).allSatisfy { carries($0, $1) }
        default:
            return server == sent
        }
    }

    /// A value with every plural element id removed (entity.replace sends new elements without ids).
    static func strippingIDs(_ value: JSON) -> JSON {
        switch value {
        case .array(let items) where looksPlural(value):
            return .array(items.map { item in
                var members = item.objectValue ?? [:]
                members.removeValue(forKey: "id")
                return strippingIDs(.object(members))
            })
        case .object(let members):
            return .object(members.mapValues(strippingIDs))
        default:
            return value
        }
    }

    /// Whether a value looks like a plural: an array of objects carrying integer ids (or empty). Only the
    /// ends are looked at: this runs on every sync, and must not cost the size of a 100 000-element plural.
    static func looksPlural(_ value: JSON?) -> Bool {
        guard case .array(let items)? = value else { return false }
        guard let first = items.first, let last = items.last else { return true }
        return first["id"]?.intValue != nil && last["id"]?.intValue != nil
    }
}
