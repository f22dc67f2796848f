/// The record's entity type (Capture's `attr_defs`) and the client's `write_with_token` access schema:
/// what an edit may touch, checked locally so a bad edit fails at once and names its path.
public struct RecordSchema: Sendable, Equatable {
    public struct Attribute: Sendable, Equatable {
        public let name: String
        public let type: String
        public let length: Int?
        public let required: Bool
        public let children: [String: Attribute]

        var isPlural: Bool { type == "plural" }
        var isObject: Bool { type == "object" }
    }

    public let root: Attribute
    /// Schema paths ("/primaryAddress/city") the client may write; nil when no access schema is known.
    public let writable: [String]?
    /// The document it was read from (cached as is).
    public let document: JSON

    static let knownTypes: Set<String> = ["id", "uuid", "string", "boolean", "integer", "decimal", "date",
                                          "dateTime", "json", "password", "object", "plural"]

    /// Reads `{"attr_defs":[..]}` (or the /entityType answer `{"schema":{..},"access_schema":{..}}`).
    public init(document: JSON) throws(JumpError) {
        let schema = document["schema"] ?? document
        guard case .array(let definitions)? = schema["attr_defs"] else {
            throw JumpError(.invalidArgument, "the schema has no attr_defs array")
        }
        root = Attribute(name: "", type: "object", length: nil, required: false,
                         children: try RecordSchema.attributes(definitions, under: ""))
        let access = document["access_schema"] ?? schema["access_schema"]
        if case .array(let paths)? = access?["write_with_token"], !paths.isEmpty {
            writable = paths.compactMap(\.stringValue).map(RecordSchema.canonical)
        } else {
            writable = nil
        }
        self.document = document
    }

    private static func attributes(_ definitions: [JSON], under parent: String) throws(JumpError) -> [String: Attribute] {
        var out: [String: Attribute] = [:]
        for definition in definitions {
            guard let name = definition["name"]?.stringValue, !name.isEmpty else {
                throw JumpError(.invalidArgument, "a schema attribute under '\(parent)/' has no name")
            }
            let type = definition["type"]?.stringValue ?? "string"
            guard knownTypes.contains(type) else {
                throw JumpError(.invalidArgument, "schema attribute '\(parent)/\(name)' has unknown type '\(type)'")
            }
            let constraints = definition["constraints"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let children = try attributes(definition["attr_defs"]?.arrayValue ?? [], under: parent + "/" + name)
            out[name] = Attribute(name: name, type: type, length: definition["length"]?.intValue.map { Int(clamping: $0) },
                                  required: constraints.contains("required"), children: children)
        }
        return out
    }

    /// "primaryAddress.city" or "/primaryAddress/city" -> "/primaryAddress/city".
    static func canonical(_ path: String) -> String {
        let parts = path.split(whereSeparator: { $0 == "/" || $0 == "." })
        return "/" + parts.joined(separator: "/")
    }

    /// The attribute at a path (element ids ignored); nil when the schema has none.
    func attribute(at path: RecordPath) -> Attribute? {
        var node = root
        for component in path.components {
            guard let child = node.children[component.name] else { return nil }
            if component.elementID != nil && !child.isPlural { return nil }
            node = child
        }
        return node
    }

    // MARK: - Checks

    /// A value about to be written at `path` (the path itself is already resolved to `attribute`).
    func check(_ value: JSON, as attribute: Attribute, at path: String, element: Bool = false) throws(JumpError) {
        if value.isNull {
            if attribute.required {
                throw .invalidArgument("'\(path)' is required and cannot be null", argument: path)
            }
            return
        }
        func wrong(_ expected: String) -> JumpError {
            .invalidArgument("'\(path)' is \(expected), not \(value.typeName)", argument: path)
        }
        switch attribute.type {
        case "string", "uuid", "dateTime":
            guard case .string(let text) = value else { throw wrong("a string") }
            if let length = attribute.length, text.count > length {
                throw .invalidArgument("'\(path)' is longer than \(length) characters", argument: path)
            }
        case "date":
            guard case .string(let text) = value, RecordSchema.isDate(text) else { throw wrong("a date \"yyyy-MM-dd\"") }
        case "boolean":
            guard case .bool = value else { throw wrong("a boolean") }
        case "integer", "id":
            guard value.intValue != nil else { throw wrong("an integer") }
        case "decimal":
            switch value {
            case .int, .double: break
            default: throw wrong("a number")
            }
        case "json":
            break
        case "password":
            throw .invalidArgument("'\(path)' is a password: change it through the change-password form", argument: path)
        case "object":
            guard case .object(let members) = value else { throw wrong("an object") }
            try checkMembers(members, of: attribute, at: path, element: element)
        case "plural":
            throw .invalidArgument("'\(path)' is a plural: use append, remove or replace_plural", argument: path)
        default:
            break
        }
    }

    /// The members of an object or plural element.
    func checkMembers(_ members: [String: JSON], of attribute: Attribute, at path: String, element: Bool) throws(JumpError) {
        for key in members.keys.sorted() {
            let here = path == "/" ? "/" + key : path + "/" + key
            let value = members[key] ?? .null
            if element && key == "id" { continue }
            guard let child = attribute.children[key] else {
                throw .invalidArgument("the schema has no attribute '\(here)'", argument: here)
            }
            if child.isPlural {
                try checkElements(value, of: child, at: here)
            } else {
                try check(value, as: child, at: here)
            }
        }
    }

    /// The elements of a plural (new ones: ids are ignored).
    func checkElements(_ value: JSON, of plural: Attribute, at path: String) throws(JumpError) {
        guard case .array(let items) = value else {
            throw .invalidArgument("'\(path)' is a plural: its value is an array of objects", argument: path)
        }
        for item in items {
            guard case .object(let members) = item else {
                throw .invalidArgument("the elements of '\(path)' are objects, not \(item.typeName)", argument: path)
            }
            try checkMembers(members, of: plural, at: path, element: true)
        }
    }

    /// Whether the access schema lets the client write `path` (a schema path such as "/photos/value").
    func mayWrite(_ path: String) -> Bool {
        guard let writable else { return true }
        return writable.contains { path == $0 || path.hasPrefix($0 + "/") || $0 == "/" }
    }

    /// Every schema path a value written at `path` touches must be writable.
    func checkAccess(_ value: JSON?, at path: String) throws(JumpError) {
        guard writable != nil, !mayWrite(path) else { return }
        // Not writable as a whole: each member it sets must be.
        var members: [String: JSON] = [:]
        if case .object(let object)? = value { members = object }
        if case .array(let items)? = value {
            for item in items { for (key, member) in item.objectValue ?? [:] where key != "id" { members[key] = member } }
        }
        guard !members.isEmpty else {
            throw .invalidArgument("'\(path)' is not writable by this client (write_with_token access schema)", argument: path)
        }
        for key in members.keys.sorted() {
            try checkAccess(members[key], at: (path == "/" ? "" : path) + "/" + key)
        }
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return false }
        return y >= 1 && (1...12).contains(m) && (1...31).contains(d)
    }
}
