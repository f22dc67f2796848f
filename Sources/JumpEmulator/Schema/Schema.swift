/// An entity type: the attribute tree every record of an app follows.
struct Schema: Sendable, Equatable {
    var name: String
    var attributes: [SchemaAttribute]

    /// Attributes Capture maintains itself; clients may read but never write them.
    static let reservedNames: Set<String> = ["id", "uuid", "created", "lastUpdated"]

    /// The root seen as an object attribute, so the root and nested objects share one code path.
    var root: SchemaAttribute {
        SchemaAttribute(name: "", type: .object, children: attributes)
    }

    func attribute(named name: String) -> SchemaAttribute? {
        attributes.first { $0.name == name }
    }
}

extension Schema {
    /// Capture's JSON shape: `{"name":"user","attr_defs":[{"name":..,"type":..,"constraints":[..]}]}`.
    var json: JSONValue {
        .object(["name": .string(name), "attr_defs": .array(attributes.map(Schema.json(of:)))])
    }

    private static func json(of attribute: SchemaAttribute) -> JSONValue {
        var members: [String: JSONValue] = ["name": .string(attribute.name), "type": .string(attribute.type.rawValue)]
        var constraints: [JSONValue] = []
        if attribute.unique { constraints.append("unique") }
        if attribute.required { constraints.append("required") }
        if !constraints.isEmpty { members["constraints"] = .array(constraints) }
        if attribute.type == .string {
            members["case-sensitive"] = .bool(attribute.caseSensitive)
            if let length = attribute.length { members["length"] = .int(Int64(length)) }
        }
        if attribute.isContainer {
            members["attr_defs"] = .array(attribute.children.map(json(of:)))
        }
        return .object(members)
    }

    /// Reads a schema given to the admin API: the Capture shape above, or just the `attr_defs` array.
    /// Reserved attributes are added when missing, because every record has them.
    static func parse(_ value: JSONValue) throws(SchemaParseError) -> Schema {
        let name = value["name"]?.stringValue ?? "user"
        guard let defs = value["attr_defs"]?.arrayValue ?? value.arrayValue else {
            throw SchemaParseError(message: "a schema needs an attr_defs array")
        }
        var attributes = try defs.map { definition throws(SchemaParseError) in try parseAttribute(definition, path: "") }
        let reserved: [SchemaAttribute] = [
            .of(.id, "id"), .of(.uuid, "uuid"), .of(.dateTime, "created"), .of(.dateTime, "lastUpdated"),
        ]
        for attribute in reserved.reversed() where !attributes.contains(where: { $0.name == attribute.name }) {
            attributes.insert(attribute, at: 0)
        }
        return Schema(name: name, attributes: attributes)
    }

    private static func parseAttribute(_ value: JSONValue, path: String) throws(SchemaParseError) -> SchemaAttribute {
        guard let name = value["name"]?.stringValue, !name.isEmpty,
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else {
            throw SchemaParseError(message: "attribute under '\(path)/' needs a name of letters, digits or _")
        }
        let typeName = value["type"]?.stringValue ?? "string"
        guard let type = AttributeType(rawValue: typeName) else {
            throw SchemaParseError(message: "attribute '\(path)/\(name)' has unknown type '\(typeName)'")
        }
        let constraints = (value["constraints"]?.arrayValue ?? []).compactMap(\.stringValue)
        var attribute = SchemaAttribute(
            name: name, type: type, unique: constraints.contains("unique"), required: constraints.contains("required"),
            caseSensitive: value["case-sensitive"]?.boolValue ?? true,
            length: value["length"]?.intValue.map { Int(clamping: $0) })
        if attribute.isContainer {
            let children = try (value["attr_defs"]?.arrayValue ?? []).map { definition throws(SchemaParseError) in
                try parseAttribute(definition, path: "\(path)/\(name)")
            }
            attribute.children = children
            if type == .plural && !children.contains(where: { $0.name == "id" }) {
                attribute.children.insert(.of(.id, "id"), at: 0)
            }
        }
        return attribute
    }
}

struct SchemaParseError: Error, Sendable {
    var message: String
}
