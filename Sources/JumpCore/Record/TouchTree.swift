/// Which parts of the record were edited since the server last acknowledged them. Only these parts are
/// compared and sent, so the cost of a sync follows the size of the edits, not of the record.
/// Children are keyed by attribute name, or "#<id>" for the elements of a plural.
struct TouchTree: Sendable, Equatable {
    /// The whole subtree is edited (a value set, or a plural whose elements were added or removed).
    var whole = false
    var children: [String: TouchTree] = [:]

    var isEmpty: Bool { !whole && children.isEmpty }

    static func elementKey(_ id: Int64) -> String { "#\(id)" }

    /// Marks `path` (everything under it) as edited.
    mutating func mark(_ path: RecordPath) {
        mark(path.components[...])
    }

    /// Walks the components as `key` spells them (an element is its plural's name, then "#<id>"), changing
    /// each node in place: one lookup per level, no copy, no array of keys.
    private mutating func mark(_ components: ArraySlice<RecordPath.Component>) {
        if whole { return }
        guard let first = components.first else {
            whole = true
            children = [:]
            return
        }
        let rest = components.dropFirst()
        if let id = first.elementID {
            children[first.name, default: TouchTree()].markElement(TouchTree.elementKey(id), rest)
        } else {
            children[first.name, default: TouchTree()].mark(rest)
        }
    }

    private mutating func markElement(_ key: String, _ rest: ArraySlice<RecordPath.Component>) {
        if whole { return }
        children[key, default: TouchTree()].mark(rest)
    }

    /// Forgets the edits at `path` and below.
    mutating func unmark(_ path: RecordPath) {
        unmark(path.components[...])
    }

    /// Walks the components as `mark` does (an element is its plural's name, then "#<id>").
    private mutating func unmark(_ components: ArraySlice<RecordPath.Component>) {
        guard let first = components.first else {
            self = TouchTree()
            return
        }
        let rest = components.dropFirst()
        if let id = first.elementID {
            unmarkChild(first.name) { $0.unmarkElement(TouchTree.elementKey(id), rest) }
        } else {
            unmarkChild(first.name) { $0.unmark(rest) }
        }
    }

    private mutating func unmarkElement(_ key: String, _ rest: ArraySlice<RecordPath.Component>) {
        unmarkChild(key) { $0.unmark(rest) }
    }

    /// Runs `body` on the child at `key`, dropping it when nothing stays marked under it.
    private mutating func unmarkChild(_ key: String, _ body: (inout TouchTree) -> Void) {
        if whole { return }  // an edit of the whole subtree cannot be split
        guard var child = children[key] else { return }
        children[key] = nil
        body(&child)
        if !child.isEmpty { children[key] = child }
    }

    /// Drops the marks where the record no longer differs from the baseline.
    mutating func prune(baseline: JSON?, current: JSON?) {
        if whole {
            if baseline == current { self = TouchTree() }
            return
        }
        for key in children.keys.sorted() {
            guard var child = children[key] else { continue }
            children[key] = nil
            if key.hasPrefix("#") {
                // An element of the plural this node is (its baseline and current are the arrays).
                let id = Int64(key.dropFirst()) ?? 0
                child.prune(baseline: TouchTree.element(id, of: baseline), current: TouchTree.element(id, of: current))
            } else {
                child.prune(baseline: TouchTree.member(key, of: baseline), current: TouchTree.member(key, of: current))
            }
            if !child.isEmpty { children[key] = child }
        }
    }

    /// The edited leaves: paths whose whole value is edited.
    func leaves(at path: RecordPath = .root) -> [RecordPath] {
        if whole { return [path] }
        var out: [RecordPath] = []
        for key in children.keys.sorted() {
            guard let child = children[key] else { continue }
            if key.hasPrefix("#") {
                let id = Int64(key.dropFirst()) ?? 0
                out += child.leaves(at: path.element(id))
            } else {
                out += child.leaves(at: path.appending(key))
            }
        }
        return out
    }

    static func member(_ key: String, of node: JSON?) -> JSON? {
        guard case .object(let members)? = node else { return nil }
        return members[key]
    }

    static func element(_ id: Int64, of node: JSON?) -> JSON? {
        guard case .array(let items)? = node, let index = RecordTree.elementIndex(items, id: id) else { return nil }
        return items[index]
    }
}
