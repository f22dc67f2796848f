/// Applies `entity.update` merge semantics to a stored record, enforcing the schema.
///
/// - object members given are set (null clears), members not given are left alone, nested objects merge;
/// - plural elements without `id` are appended with a new id, those with an `id` update that element;
/// - unknown attributes (223), reserved ones (234), wrong JSON types (341), bad dates (342) and
///   over-long strings (363) fail the whole update: the caller only stores the result when this
///   returns, so a write is all or nothing.
struct RecordUpdater: Sendable {
    let schema: Schema
    /// The next plural element id of this user (ids are unique per user and only grow).
    private(set) var nextElementId: Int64
    /// The bcrypt hash for a `password` the update sets; hashing is slow, so it is done beforehand.
    let preparedPasswordHash: String?
    /// What the update does to the password, if anything.
    private(set) var passwordChange: PasswordChange?

    enum PasswordChange: Sendable, Equatable {
        case set(String)
        case cleared
    }

    private enum Container {
        case root, object, element
    }

    init(schema: Schema, nextElementId: Int64, preparedPasswordHash: String? = nil) {
        self.schema = schema
        self.nextElementId = max(nextElementId, 1)
        self.preparedPasswordHash = preparedPasswordHash
    }

    /// The plaintext password an update would set, so the caller can hash it before the transaction.
    static func passwordText(in value: JSONValue, at path: AttributePath) -> String? {
        if path.isRoot { return value["password"]?.stringValue }
        if path.steps.count == 1, path.steps[0].name == "password", path.steps[0].elementId == nil {
            return value.stringValue
        }
        return nil
    }

    mutating func update(
        _ record: [String: JSONValue], at path: AttributePath, with value: JSONValue
    ) throws(CaptureError) -> [String: JSONValue] {
        let result = try descend(
            .object(record), attribute: schema.root, container: .root, steps: path.steps[...], walked: .root,
            value: value)
        return result.objectValue ?? [:]
    }

    // MARK: - Walking down to attribute_name

    private mutating func descend(
        _ current: JSONValue?, attribute: SchemaAttribute, container: Container,
        steps: ArraySlice<AttributePath.Step>, walked: AttributePath, value: JSONValue
    ) throws(CaptureError) -> JSONValue {
        guard let step = steps.first else {
            return try merge(current, with: value, attribute: attribute, container: container, path: walked)
        }
        let here = walked.appending(step.name, elementId: step.elementId)
        guard attribute.type == .object else {
            throw CaptureError.unknownAttribute(here.text)
        }
        try checkWritable(step.name, in: container, path: here)
        guard let child = attribute.child(named: step.name) else {
            throw CaptureError.unknownAttribute(here.text)
        }
        var members = current?.objectValue ?? [:]
        if child.type == .password {
            guard container == .root, steps.count == 1, step.elementId == nil else {
                throw CaptureError.unknownAttribute(here.text)
            }
            try setPassword(value, path: here)
            return .object(members)
        }
        if let elementId = step.elementId {
            guard child.type == .plural else {
                throw CaptureError.invalidArgument("attribute_name", "\(here.text): only plurals have elements")
            }
            var elements = members[child.name]?.arrayValue ?? []
            guard let index = elements.firstIndex(where: { $0["id"]?.intValue == elementId }) else {
                throw CaptureError.invalidArgument("attribute_name", "\(here.text) does not exist")
            }
            elements[index] = try descend(
                elements[index], attribute: Self.elementAttribute(of: child), container: .element,
                steps: steps.dropFirst(), walked: here, value: value)
            members[child.name] = .array(elements)
        } else {
            if child.type == .plural, steps.count > 1 {
                throw CaptureError.invalidArgument("attribute_name", "\(here.text) needs an element id (#id)")
            }
            let updated = try descend(
                members[child.name], attribute: child, container: .object, steps: steps.dropFirst(), walked: here,
                value: value)
            Self.set(&members, child.name, updated)
        }
        return .object(members)
    }

    // MARK: - Merging a value into the attribute

    private mutating func merge(
        _ current: JSONValue?, with value: JSONValue, attribute: SchemaAttribute, container: Container,
        path: AttributePath
    ) throws(CaptureError) -> JSONValue {
        switch attribute.type {
        case .object:
            return try mergeObject(current, with: value, attribute: attribute, container: container, path: path)
        case .plural:
            return try mergePlural(current, with: value, attribute: attribute, path: path)
        default:
            return try SchemaValidator.validate(value, as: attribute, path: path.text)
        }
    }

    private mutating func mergeObject(
        _ current: JSONValue?, with value: JSONValue, attribute: SchemaAttribute, container: Container,
        path: AttributePath
    ) throws(CaptureError) -> JSONValue {
        if value.isNull, container == .object {
            return .null  // clears the object: every member reads as null again
        }
        guard let given = value.objectValue else {
            throw CaptureError.invalidJSONType(path.text, expected: "object", got: value)
        }
        var members = current?.objectValue ?? [:]
        // Sorted so that, with several bad members, the same one is reported every time.
        for key in given.keys.sorted() {
            let member = given[key] ?? .null
            let here = path.appending(key)
            if container == .element, key == "id" {
                continue  // identifies the element; the plural merge has used it already
            }
            try checkWritable(key, in: container, path: here)
            guard let child = attribute.child(named: key) else {
                throw CaptureError.unknownAttribute(here.text)
            }
            if child.type == .password {
                guard container == .root else { throw CaptureError.unknownAttribute(here.text) }
                try setPassword(member, path: here)
                continue
            }
            let merged = try merge(members[key], with: member, attribute: child, container: .object, path: here)
            Self.set(&members, key, merged)
        }
        return .object(members)
    }

    private mutating func mergePlural(
        _ current: JSONValue?, with value: JSONValue, attribute: SchemaAttribute, path: AttributePath
    ) throws(CaptureError) -> JSONValue {
        if value.isNull { return .null }
        guard let items = value.arrayValue else {
            throw CaptureError.invalidJSONType(path.text, expected: "array", got: value)
        }
        let elementAttribute = Self.elementAttribute(of: attribute)
        var elements = current?.arrayValue ?? []
        for item in items {
            guard let object = item.objectValue else {
                throw CaptureError.invalidJSONType(path.text, expected: "array of objects", got: item)
            }
            if let idValue = object["id"], !idValue.isNull {
                guard let id = idValue.intValue else {
                    throw CaptureError.invalidJSONType(path.appending("id").text, expected: "integer", got: idValue)
                }
                let here = AttributePath(steps: path.steps.dropLast() + [.init(name: attribute.name, elementId: id)])
                guard let index = elements.firstIndex(where: { $0["id"]?.intValue == id }) else {
                    throw CaptureError.invalidArgument("attributes", "\(here.text) does not exist")
                }
                elements[index] = try mergeObject(
                    elements[index], with: item, attribute: elementAttribute, container: .element, path: here)
            } else {
                let id = nextElementId
                nextElementId += 1
                let here = AttributePath(steps: path.steps.dropLast() + [.init(name: attribute.name, elementId: id)])
                var created = try mergeObject(nil, with: item, attribute: elementAttribute, container: .element, path: here)
                    .objectValue ?? [:]
                created["id"] = .int(id)
                elements.append(.object(created))
            }
        }
        return .array(elements)
    }

    // MARK: - Helpers

    private func checkWritable(_ name: String, in container: Container, path: AttributePath) throws(CaptureError) {
        if container == .root, Schema.reservedNames.contains(name) {
            throw CaptureError.reservedAttribute(path.text)
        }
        if container == .element, name == "id" {
            throw CaptureError.reservedAttribute(path.text)
        }
    }

    private mutating func setPassword(_ value: JSONValue, path: AttributePath) throws(CaptureError) {
        if value.isNull {
            passwordChange = .cleared
            return
        }
        guard value.stringValue != nil else {
            throw CaptureError.invalidJSONType(path.text, expected: "string", got: value)
        }
        guard let hash = preparedPasswordHash else {
            throw CaptureError.unexpected("the password was not prepared")
        }
        passwordChange = .set(hash)
    }

    /// Storage keeps set values only: a null removes the member.
    private static func set(_ members: inout [String: JSONValue], _ key: String, _ value: JSONValue) {
        if value.isNull {
            members.removeValue(forKey: key)
        } else {
            members[key] = value
        }
    }

    /// A plural element is an object whose members are the plural's children.
    static func elementAttribute(of plural: SchemaAttribute) -> SchemaAttribute {
        SchemaAttribute(name: plural.name, type: .object, children: plural.children)
    }
}
