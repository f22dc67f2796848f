/// The app's edits, checked before they touch the record: against the schema and the access schema when
/// they are known, otherwise against the record's own shape. Each returns the operation it applied, for
/// the client to journal. With `applying: false` the operation is only checked and returned: the client
/// journals it first and applies it after, so an edit that cannot be made durable is not made at all.
extension UserRecord {
    @discardableResult
    public mutating func set(_ path: RecordPath, to value: JSON, schema: RecordSchema? = nil, applying: Bool = true) throws(JumpError) -> RecordOp {
        let here = path.description
        try checkWritablePath(path)
        var newValue = value
        if let schema {
            guard let attribute = schema.attribute(at: path) else {
                throw .invalidArgument("the schema has no attribute '\(here)'", argument: here)
            }
            if attribute.isPlural && !path.isElement {
                throw .invalidArgument("'\(here)' is a plural: use append, remove or replace_plural", argument: here)
            }
            try requireElements(of: path)
            if path.isElement {
                guard case .object(let members) = value else {
                    throw .invalidArgument("'\(here)' is a plural element: its value is an object", argument: here)
                }
                try schema.checkMembers(members, of: attribute, at: here, element: true)
            } else {
                try schema.check(value, as: attribute, at: here)
            }
            try schema.checkAccess(value, at: path.schemaPath)
        } else {
            try requireElements(of: path)
            // Without a schema an attribute must already be in the record; elements may omit members.
            let inElement = path.components.dropLast().contains { $0.elementID != nil }
            let found: JSON? = RecordTree.value(at: path, in: current) ?? (inElement && !path.isElement ? Optional(JSON.null) : Optional<JSON>.none)
            guard let existing = found else {
                throw .invalidArgument("the record has no attribute '\(here)'", argument: here)
            }
            if case .array = existing {
                throw .invalidArgument("'\(here)' is a plural: use append, remove or replace_plural", argument: here)
            }
            if case .array = value {
                throw .invalidArgument("'\(here)' cannot be set to an array (plurals are not values)", argument: here)
            }
            if case .object(let old) = existing {
                guard case .object(let new) = value else {
                    throw .invalidArgument("'\(here)' is an object; set its members instead", argument: here)
                }
                if let unknown = new.keys.sorted().first(where: { old[$0] == nil }) {
                    throw .invalidArgument("the record has no attribute '\(here)/\(unknown)'", argument: "\(here)/\(unknown)")
                }
            }
        }
        // An object value sets the members it names; the others keep their values.
        if case .object(let members) = value, case .object? = RecordTree.value(at: path, in: current) {
            var merged = RecordTree.value(at: path, in: current) ?? .null
            for key in members.keys.sorted() where !(path.isElement && key == "id") {
                RecordTree.put(members[key] ?? .null, at: RecordPath.root.appending(key), in: &merged)
            }
            newValue = merged
        }
        let op = RecordOp.set(path, newValue)
        if applying { apply(op) }
        return op
    }

    /// Null for a value or an object, no elements for a plural.
    @discardableResult
    public mutating func clear(_ path: RecordPath, schema: RecordSchema? = nil, applying: Bool = true) throws(JumpError) -> RecordOp {
        let here = path.description
        if path.isElement {
            throw .invalidArgument("'\(here)' is a plural element: remove the element instead", argument: here)
        }
        try checkWritablePath(path)
        let attribute = schema?.attribute(at: path)
        if schema != nil, attribute == nil {
            throw .invalidArgument("the schema has no attribute '\(here)'", argument: here)
        }
        let existing = RecordTree.value(at: path, in: current)
        if schema == nil && existing == nil {
            throw .invalidArgument("the record has no attribute '\(here)'", argument: here)
        }
        let plural = attribute?.isPlural ?? RecordTree.looksPlural(existing)
        if plural { return try replacePlural(path, with: [], schema: schema, applying: applying) }
        if let attribute, attribute.required {
            throw .invalidArgument("'\(here)' is required and cannot be cleared", argument: here)
        }
        if attribute?.type == "password" {
            throw .invalidArgument("'\(here)' is a password: change it through the change-password form", argument: here)
        }
        try requireElements(of: path)
        try schema?.checkAccess(nil, at: path.schemaPath)
        let op = RecordOp.set(path, .null)
        if applying { apply(op) }
        return op
    }

    /// Appends a new element; returns its (local) path too.
    public mutating func append(_ element: JSON, to plural: RecordPath, schema: RecordSchema? = nil, applying: Bool = true) throws(JumpError) -> (RecordOp, RecordPath) {
        let here = plural.description
        let attribute = try pluralAttribute(plural, schema: schema)
        guard case .object(let members) = element else {
            throw .invalidArgument("an element of '\(here)' is a JSON object, not \(element.typeName)", argument: "element")
        }
        if let id = members["id"], !id.isNull {
            throw .invalidArgument("a new element of '\(here)' has no \"id\": the server gives it one", argument: "element")
        }
        if let schema, let attribute {
            try schema.checkMembers(members, of: attribute, at: here, element: true)
            try schema.checkAccess(.array([element]), at: plural.schemaPath)
        }
        let withIDs = withLocalIDs(element, schema: attribute)
        let path = plural.element(withIDs["id"]?.intValue ?? nextLocalID)
        let op = RecordOp.set(path, withIDs)
        if applying { apply(op) }
        return (op, path)
    }

    @discardableResult
    public mutating func remove(_ path: RecordPath, schema: RecordSchema? = nil, applying: Bool = true) throws(JumpError) -> RecordOp {
        let here = path.description
        guard let plural = path.pluralOfElement else {
            throw .invalidArgument("'\(here)' is not a plural element (e.g. \"/photos#12\")", argument: here)
        }
        _ = try pluralAttribute(plural, schema: schema)
        guard RecordTree.value(at: path, in: current) != nil else {
            throw JumpError(.notFound, "the record has no element '\(here)'", detail: ["argument": .string(here)])
        }
        if let schema, !schema.mayWrite(plural.schemaPath) {
            throw .invalidArgument("'\(plural.schemaPath)' is not writable by this client (write_with_token access schema)",
                                   argument: here)
        }
        let op = RecordOp.remove(path)
        if applying { apply(op) }
        return op
    }

    /// Replaces every element: the given ones are new (their ids are ignored).
    @discardableResult
    public mutating func replacePlural(_ plural: RecordPath, with elements: [JSON], schema: RecordSchema? = nil, applying: Bool = true) throws(JumpError) -> RecordOp {
        let here = plural.description
        let attribute = try pluralAttribute(plural, schema: schema)
        let fresh = elements.map(RecordTree.strippingElementID)
        for element in fresh where element.objectValue == nil {
            throw .invalidArgument("the elements of '\(here)' are JSON objects, not \(element.typeName)", argument: "elements")
        }
        if let schema, let attribute {
            try schema.checkElements(.array(fresh), of: attribute, at: here)
            if !schema.mayWrite(plural.schemaPath) {
                if fresh.isEmpty {
                    throw .invalidArgument("'\(plural.schemaPath)' is not writable by this client (write_with_token access schema)",
                                           argument: here)
                }
                try schema.checkAccess(.array(fresh), at: plural.schemaPath)
            }
        }
        var withIDs: [JSON] = []
        for element in fresh { withIDs.append(withLocalIDs(element, schema: attribute)) }
        let op = RecordOp.set(plural, .array(withIDs))
        if applying { apply(op) }
        return op
    }

    /// Drops the edits at path and below (an edit covering more, such as elements added to the plural
    /// holding path, is dropped whole).
    @discardableResult
    public mutating func revert(_ path: RecordPath, applying: Bool = true) -> RecordOp {
        let op = RecordOp.revert(path)
        if applying { apply(op) }
        return op
    }

    // MARK: - Shared checks

    private func checkWritablePath(_ path: RecordPath) throws(JumpError) {
        guard let last = path.components.last else {
            throw .invalidArgument("the whole record cannot be replaced; set its attributes", argument: path.description)
        }
        if path.components.count == 1, last.elementID == nil, UserRecord.isReserved(last.name) {
            throw .invalidArgument("'\(path)' is a reserved attribute and cannot be changed", argument: path.description)
        }
        if last.name == "id", path.components.count > 1, path.components[path.components.count - 2].elementID != nil {
            throw .invalidArgument("'\(path)' is an element id and cannot be changed", argument: path.description)
        }
    }

    /// Every element the path goes through must exist.
    private func requireElements(of path: RecordPath) throws(JumpError) {
        for (index, component) in path.components.enumerated() where component.elementID != nil {
            let prefix = RecordPath(components: Array(path.components.prefix(index + 1)))
            if RecordTree.value(at: prefix, in: current) == nil {
                throw JumpError(.notFound, "the record has no element '\(prefix)'", detail: ["argument": .string(path.description)])
            }
        }
    }

    /// The plural at path (its schema attribute when a schema is known); refuses anything else.
    private func pluralAttribute(_ plural: RecordPath, schema: RecordSchema?) throws(JumpError) -> RecordSchema.Attribute? {
        let here = plural.description
        if plural.isRoot || plural.isElement {
            throw .invalidArgument("'\(here)' is not a plural (e.g. \"/photos\")", argument: here)
        }
        try requireElements(of: plural)
        if let schema {
            guard let attribute = schema.attribute(at: plural), attribute.isPlural else {
                throw .invalidArgument("the schema has no plural '\(here)'", argument: here)
            }
            return attribute
        }
        let existing = RecordTree.value(at: plural, in: current)
        guard case .array? = existing, RecordTree.looksPlural(existing) else {
            throw .invalidArgument("the record has no plural '\(here)'", argument: here)
        }
        return nil
    }
}
