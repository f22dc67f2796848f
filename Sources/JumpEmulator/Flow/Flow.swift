/// A flow document (docs/protocol.md §9.2) read for what the server needs: forms, fields, their schema
/// mapping and validation rules. Custom flows given to the admin API are read the same way.
struct Flow: Sendable {
    let json: JSONValue

    private var entries: [String: JSONValue] { json["fields"]?.objectValue ?? [:] }

    /// The fields of a form, in form order; nil when `name` is not a form (an entry with a `fields` list).
    func form(named name: String) -> [FlowField]? {
        guard let names = entries[name]?["fields"]?.arrayValue else { return nil }
        return names.compactMap(\.stringValue).map { field(named: $0) ?? FlowField(name: $0) }
    }

    /// The fields of the form a Capture call names in its `form` parameter: 200 invalid_argument `form`
    /// when the flow has no such form.
    func requiredForm(named name: String) throws(CaptureError) -> [FlowField] {
        guard let fields = form(named: name) else {
            throw CaptureError.invalidArgument("form", "\(name) is not a form of this flow")
        }
        return fields
    }

    func field(named name: String) -> FlowField? {
        guard let definition = entries[name]?.objectValue, definition["fields"] == nil else { return nil }
        return FlowField(name: name, definition: definition)
    }
}

/// One field definition: `{type, schemaId, label, validation:[{rule, value?, message}]}`.
struct FlowField: Sendable {
    enum SchemaId: Sendable, Equatable {
        /// Not stored in the record (e.g. `newPasswordConfirm`).
        case none
        /// A dot path such as `primaryAddress.city`.
        case path(String)
        /// `{"subscript": "dot.path"}`: the field is sent as `field[subscript]=value`.
        case subscripts([String: String])
    }

    struct Rule: Sendable {
        var rule: String
        var value: JSONValue?
        var message: String?
    }

    var name: String
    var type: String = "text"
    var schemaId: SchemaId = .none
    var label: String?
    var rules: [Rule] = []

    init(name: String) {
        self.name = name
    }

    init(name: String, definition: [String: JSONValue]) {
        self.name = name
        self.type = definition["type"]?.stringValue ?? "text"
        self.label = definition["label"]?.stringValue
        switch definition["schemaId"] {
        case .string(let path)?:
            schemaId = .path(path)
        case .object(let map)?:
            schemaId = .subscripts(map.compactMapValues(\.stringValue))
        default:
            schemaId = .none
        }
        self.rules = (definition["validation"]?.arrayValue ?? []).compactMap { entry in
            guard let rule = entry["rule"]?.stringValue else { return nil }
            return Rule(rule: rule, value: entry["value"], message: entry["message"]?.stringValue)
        }
    }

    func rule(_ name: String) -> Rule? {
        rules.first { $0.rule == name }
    }

    var isRequired: Bool {
        guard let required = rule("required") else { return false }
        return required.value?.boolValue ?? true
    }

    /// The record path the field writes, as schema steps; nil for fields not stored.
    var schemaPath: String? {
        if case .path(let path) = schemaId { return path }
        return nil
    }
}
