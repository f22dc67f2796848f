/// Applies `entity.update`, `entity.replace` and `entity.delete` to a stored record, enforcing the
/// schema (docs/protocol.md §8.4, §8.5).
///
/// - update merges: object members given are set (null clears), members not given are left alone,
///   nested objects merge; plural elements without `id` are appended with a new id, those with an
///   `id` update that element;
/// - replace overwrites: an object (or plural element) keeps exactly the members given, the others
///   become null; a plural is replaced wholesale and every element, nested plurals' elements too,
///   gets a new id (an element that brings its own `id` is 320 id_in_new_record);
/// - delete removes one plural element, empties a plural, or clears an object or value.
///
/// Unknown attributes (223), reserved ones (234), wrong JSON types (341), bad dates (342) and
/// over-long strings (363) fail the whole write: the caller only stores the result when this
/// returns, so a write is all or nothing.
struct RecordUpdater: Sendable {
    enum Mode: Sendable {
        case update, replace
    }

    let schema: Schema
    /// The next plural element id of this user (ids are unique per user and only grow).
    private(set) var nextElementId: Int64
    /// The bcrypt hash for a `password` the write sets; hashing is slow, so it is done beforehand.
    let preparedPasswordHash: String?
    /// What the write does to the password, if anything.
    private(set) var passwordChange: PasswordChange?
    private var mode: Mode = .update

    enum PasswordChange: Sendable, Equatable {
        case set(String)
        case cleared
    }

    private enum Container {
        case root, object, element
    }

    /// What happens where `attribute_name` points.
    private enum Target {
        case write(JSONValue)
        case removeElement(Int64)
    }

    init(schema: Schema, nextElementId: Int64, preparedPasswordHash: String? = nil) {
        self.schema = schema
        self.nextElementId = max(nextElementId, 1)
        self.preparedPasswordHash = preparedPasswordHash
    }

    /// The plaintext password a write would set, so the caller can hash it before the transaction.
    static func passwordText(in value: JSONValue, at path: AttributePath) -> String? {
        if path.isRoot { return value["password"]?.stringValue }
        if path.steps.count == 1, path.steps[0].name == "password", path.steps[0].elementId == nil {
            return value.stringValue
        }
        return nil
    }

    /// `entity.update` (merge).
    mutating func update(
        _ record: [String: JSONValue], at path: AttributePath, with value: JSONValue
    ) throws(CaptureError) -> [String: JSONValue] {
        mode = .update
        return try apply(record, at: path, .write(value))
    }

    /// `entity.replace` (overwrite).
    mutating func replace(
        _ record: [String: JSONValue], at path: AttributePath, with value: JSONValue
    ) throws(CaptureError) -> [String: JSONValue] {
        mode = .replace
        if path.isRoot, value.objectValue == nil {
            throw CaptureError.invalidJSONType(path.text, expected: "object", got: value)
        }
        return try apply(record, at: path, .write(value))
    }

    /// `entity.delete`: an element path removes the element, any other path writes null (a plural
    /// then has no elements, an object or value reads null). Required attributes are checked by the
    /// caller on the whole record (362).
    mutating func delete(_ record: [String: JSONValue], at path: AttributePath) throws(CaptureError) -> [String: JSONValue] {
        mode = .update
        guard let last = path.steps.last else {
            throw CaptureError.invalidArgument("attribute_name", "the whole record cannot be deleted")
        }
        guard let elementId = last.elementId else {
            return try apply(record, at: path, .write(.null))
        }
        let plural = AttributePath(steps: path.steps.dropLast() + [.init(name: last.name)])
        return try apply(record, at: plural, .removeElement(elementId))
    }

    private mutating func apply(
        _ record: [String: JSONValue], at path: AttributePath, _ target: Target
    ) throws(CaptureError) -> [String: JSONValue] {
        let result = try descend(
            .object(record), attribute: schema.root, container: .root, steps: path.steps[...], walked: .root,
            target: target)
        return result.objectValue ?? [:]
    }

    // MARK: - Walking down to attribute_name

    private mutating func descend(
        _ current: JSONValue?, attribute: SchemaAttribute, container: Container,
        steps: ArraySlice<AttributePath.Step>, walked: AttributePath, target: Target
    ) throws(CaptureError) -> JSONValue {
        guard let step = steps.first else {
            switch target {
            case .write(let value):
                return try merge(current, with: value, attribute: attribute, container: container, path: walked)
            case .removeElement(let id):
                guard attribute.type == .plural else {
                    throw CaptureError.invalidArgument("attribute_name", "\(walked.text)#\(id): only plurals have elements")
                }
                return try removeElement(id, from: current, path: walked)
            }
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
            guard container == .root, steps.count == 1, step.elementId == nil, case .write(let value) = target else {
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
            members.removeValue(forKey: child.name)  // so the array below is not copied on write
            elements[index] = try descend(
                elements[index], attribute: Self.elementAttribute(of: child), container: .element,
                steps: steps.dropFirst(), walked: here, target: target)
            members[child.name] = .array(elements)
        } else {
            if child.type == .plural, steps.count > 1 {
                throw CaptureError.invalidArgument("attribute_name", "\(here.text) needs an element id (#id)")
            }
            let currentChild = members.removeValue(forKey: child.name)
            let updated = try descend(
                currentChild, attribute: child, container: .object, steps: steps.dropFirst(), walked: here,
                target: target)
            Self.set(&members, child.name, updated)
        }
        return .object(members)
    }

    private func removeElement(_ id: Int64, from current: JSONValue?, path: AttributePath) throws(CaptureError) -> JSONValue {
        var elements = current?.arrayValue ?? []
        guard let index = elements.firstIndex(where: { $0["id"]?.intValue == id }) else {
            let element = AttributePath(steps: path.steps.dropLast() + [.init(name: path.steps.last?.name ?? "", elementId: id)])
            throw CaptureError.invalidArgument("attribute_name", "\(element.text) does not exist")
        }
        elements.remove(at: index)
        return elements.isEmpty ? .null : .array(elements)
    }

    // MARK: - Writing a value into the attribute

    private mutating func merge(
        _ current: JSONValue?, with value: JSONValue, attribute: SchemaAttribute, container: Container,
        path: AttributePath
    ) throws(CaptureError) -> JSONValue {
        switch attribute.type {
        case .object:
            return try mergeObject(current, with: value, attribute: attribute, container: container, path: path)
        case .plural:
            return mode == .replace
                ? try replacePlural(with: value, attribute: attribute, path: path)
                : try mergePlural(current, with: value, attribute: attribute, path: path)
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
        var members: [String: JSONValue]
        switch (mode, container) {
        case (.update, _):
            members = current?.objectValue ?? [:]
        case (.replace, .element):
            // A replaced element keeps its identity and nothing else.
            members = [:]
            if let id = current?["id"] { members["id"] = id }
        case (.replace, _):
            // The stored root holds no reserved attribute (they are columns), and the password is
            // not part of the record: a replace leaves them alone unless given.
            members = [:]
        }
        // Sorted so that, with several bad members, the same one is reported every time.
        for key in given.keys.sorted() {
            let member = given[key] ?? .null
            if container == .element, key == "id" {
                continue  // identifies the element; the plural write has used it already
            }
            try checkWritable(key, in: container, path: path.appending(key))
            guard let child = attribute.child(named: key) else {
                throw CaptureError.unknownAttribute(path.appending(key).text)
            }
            if child.type == .password {
                guard container == .root else { throw CaptureError.unknownAttribute(path.appending(key).text) }
                try setPassword(member, path: path.appending(key))
                continue
            }
            let merged: JSONValue
            if child.isContainer {
                let currentChild = members.removeValue(forKey: key)
                merged = try merge(currentChild, with: member, attribute: child, container: .object, path: path.appending(key))
            } else {
                // Scalars are the bulk of big writes: the path is only built for an error message.
                merged = try SchemaValidator.validate(member, as: child, path: path.appending(key).text)
            }
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
        // Built on the first item that names an id: looking each one up by scanning would make
        // an update of many elements of a big plural quadratic.
        var indexById: [Int64: Int]?
        for item in items {
            guard let object = item.objectValue else {
                throw CaptureError.invalidJSONType(path.text, expected: "array of objects", got: item)
            }
            if let idValue = object["id"], !idValue.isNull {
                guard let id = idValue.intValue else {
                    throw CaptureError.invalidJSONType(path.appending("id").text, expected: "integer", got: idValue)
                }
                if indexById == nil {
                    var map: [Int64: Int] = [:]
                    map.reserveCapacity(elements.count)
                    for (index, element) in elements.enumerated() {
                        if let elementId = element["id"]?.intValue { map[elementId] = index }
                    }
                    indexById = map
                }
                guard let index = indexById?[id] else {
                    throw CaptureError.invalidArgument("attributes", "\(elementPath(path, attribute, id).text) does not exist")
                }
                elements[index] = try mergeObject(
                    elements[index], with: item, attribute: elementAttribute, container: .element,
                    path: elementPath(path, attribute, id))
            } else {
                elements.append(try newElement(item, attribute: attribute, elementAttribute: elementAttribute, path: path))
            }
        }
        return elements.isEmpty ? .null : .array(elements)
    }

    private mutating func replacePlural(
        with value: JSONValue, attribute: SchemaAttribute, path: AttributePath
    ) throws(CaptureError) -> JSONValue {
        if value.isNull { return .null }
        guard let items = value.arrayValue else {
            throw CaptureError.invalidJSONType(path.text, expected: "array", got: value)
        }
        let elementAttribute = Self.elementAttribute(of: attribute)
        var elements: [JSONValue] = []
        elements.reserveCapacity(items.count)
        for item in items {
            guard let object = item.objectValue else {
                throw CaptureError.invalidJSONType(path.text, expected: "array of objects", got: item)
            }
            if let id = object["id"], !id.isNull {
                throw CaptureError.idInNewRecord(path.text)
            }
            elements.append(try newElement(item, attribute: attribute, elementAttribute: elementAttribute, path: path))
        }
        return elements.isEmpty ? .null : .array(elements)
    }

    /// A new element with the next id of this user.
    private mutating func newElement(
        _ item: JSONValue, attribute: SchemaAttribute, elementAttribute: SchemaAttribute, path: AttributePath
    ) throws(CaptureError) -> JSONValue {
        let id = nextElementId
        nextElementId += 1
        var created = try mergeObject(
            nil, with: item, attribute: elementAttribute, container: .element, path: elementPath(path, attribute, id)
        ).objectValue ?? [:]
        created["id"] = .int(id)
        return .object(created)
    }

    /// `/a#1/plural` and element id 7 → `/a#1/plural#7`.
    private func elementPath(_ plural: AttributePath, _ attribute: SchemaAttribute, _ id: Int64) -> AttributePath {
        AttributePath(steps: plural.steps.dropLast() + [.init(name: attribute.name, elementId: id)])
    }

    // MARK: - Helpers

    private func checkWritable(_ name: String, in container: Container, path: @autoclosure () -> AttributePath) throws(CaptureError) {
        if container == .root, Schema.reservedNames.contains(name) {
            throw CaptureError.reservedAttribute(path().text)
        }
        if container == .element, name == "id" {
            throw CaptureError.reservedAttribute(path().text)
        }
    }

    private mutating func setPassword(_ value: JSONValue, path: AttributePath) throws(CaptureError) {
        if value.isNull {
            passwordChange = .cleared
            return
        }
        // Records show the password as a marker (`RecordShaper.passwordMarker`); a client that
        // writes back a record it read leaves the password as it is.
        if value == RecordShaper.passwordMarker(hasPassword: true) { return }
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
