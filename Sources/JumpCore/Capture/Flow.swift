/// A downloaded Capture flow (docs/protocol.md §9.2): forms and fields share one `fields` map; a form is
/// an entry with a `fields` list. Everything else in it (labels, validation) is the server's business.
public struct Flow: Sendable, Equatable {
    public let version: String
    let entries: [String: JSON]
    public let document: JSON

    public init(document: JSON) throws(JumpError) {
        guard case .object(let root) = document else {
            throw JumpError(.server, "the flow is a JSON \(document.typeName), not an object")
        }
        // flow_version must be a string (docs/protocol.md §9.2); numbers would lose digits.
        guard let version = root["version"]?.stringValue, !version.isEmpty else {
            throw JumpError(.server, "the flow has no string 'version'")
        }
        guard case .object(let entries)? = root["fields"] else {
            throw JumpError(.server, "the flow has no 'fields' object")
        }
        self.version = version
        self.entries = entries
        self.document = document
    }

    /// The field names of a form, or nil when the flow has no such form.
    public func formFields(_ form: String) -> [String]? {
        guard let list = entries[form]?["fields"]?.arrayValue else { return nil }
        return list.compactMap(\.stringValue)
    }

    func field(_ name: String) -> FlowField? {
        guard case .object(let definition)? = entries[name] else { return nil }
        return FlowField(name: name, definition: definition)
    }
}

/// One form field: its type and where its value lives in the record.
struct FlowField: Sendable {
    enum SchemaID: Sendable {
        case none
        case path(String)                 // "primaryAddress.city"
        case subscripts([(String, String)])  // {"greeting": "basicString"} -> field[greeting]
    }

    let name: String
    let type: String
    let schemaID: SchemaID

    init(name: String, definition: [String: JSON]) {
        self.name = name
        type = definition["type"]?.stringValue ?? "text"
        switch definition["schemaId"] {
        case .string(let path)?: schemaID = .path(path)
        case .object(let map)?:
            schemaID = .subscripts(map.keys.sorted().compactMap { key in map[key]?.stringValue.map { (key, $0) } })
        default: schemaID = .none
        }
    }

    var isPassword: Bool { type == "password" }
}
