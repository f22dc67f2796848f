/// `attributes` of `entity.find`: a JSON array of attribute paths; each result then holds only
/// those, nested as in the record (`["primaryAddress.city"]` gives `{"primaryAddress":{"city":..}}`;
/// a path through a plural gives each element with the asked members). Without it results are
/// whole records.
struct RecordProjection: Sendable {
    /// The asked paths as a tree of member names; a leaf takes the whole value.
    private final class Node: Sendable {
        let children: [String: Node]
        let isLeaf: Bool

        init(children: [String: Node], isLeaf: Bool) {
            self.children = children
            self.isLeaf = isLeaf
        }
    }

    private let root: Node?

    init(_ text: String?, schema: Schema) throws(FilterError) {
        guard let text, !text.allSatisfy(\.isWhitespace) else {
            root = nil
            return
        }
        guard let list = JSONValue.parse(text)?.arrayValue else {
            throw FilterError("attributes must be a JSON array of attribute paths")
        }
        var paths: [[String]] = []
        for item in list {
            guard let path = item.stringValue else { throw FilterError("attributes must hold attribute paths") }
            // Checked against the schema, so the tree is never deeper than the schema.
            paths.append(try AttributeLookup(path, schema: schema).steps.map(\.name))
        }
        root = Self.tree(paths)
    }

    private static func tree(_ paths: [[String]]) -> Node {
        if paths.contains(where: \.isEmpty) { return Node(children: [:], isLeaf: true) }
        var groups: [String: [[String]]] = [:]
        for path in paths {
            groups[path[0], default: []].append(Array(path.dropFirst()))
        }
        return Node(children: groups.mapValues(tree), isLeaf: false)
    }

    func project(_ record: JSONValue) -> JSONValue {
        guard let root else { return record }
        return Self.project(record, root)
    }

    private static func project(_ value: JSONValue, _ node: Node) -> JSONValue {
        if node.isLeaf { return value }
        if let elements = value.arrayValue {
            return .array(elements.map { project($0, node) })
        }
        guard value.objectValue != nil else { return .null }
        var out: [String: JSONValue] = [:]
        for (name, child) in node.children {
            out[name] = project(value[name] ?? .null, child)
        }
        return .object(out)
    }
}
