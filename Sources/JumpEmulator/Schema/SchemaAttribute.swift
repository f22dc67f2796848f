/// Capture attribute types (docs/protocol.md §8.1).
enum AttributeType: String, Sendable, CaseIterable {
    case id, uuid, string, boolean, integer, decimal, date, dateTime, json, password, object, plural
}

/// One attribute definition of an entity type, in Capture's `attr_defs` shape.
struct SchemaAttribute: Sendable, Equatable {
    var name: String
    var type: AttributeType
    /// `constraints: ["unique"]`: no two records (or two elements of one plural) share the value.
    var unique: Bool = false
    /// `constraints: ["required"]`: the value may not be null once written.
    var required: Bool = false
    /// Capture's `case-sensitive: false` makes uniqueness and look-ups ignore case (email, username).
    var caseSensitive: Bool = true
    /// Capture's `length`: the maximum number of characters of a string.
    var length: Int? = nil
    /// Members of an object, or of each element of a plural.
    var children: [SchemaAttribute] = []

    func child(named name: String) -> SchemaAttribute? {
        children.first { $0.name == name }
    }

    /// Whether the value can be read back: passwords are write-only.
    var isReadable: Bool { type != .password }

    var isContainer: Bool { type == .object || type == .plural }

    /// Whether some attribute below this one is `required`, so record-wide checks can skip the
    /// subtrees (e.g. 100 000 photos) that cannot fail them.
    var containsRequired: Bool {
        children.contains { $0.required || $0.containsRequired }
    }

    /// Whether some attribute below this one is `unique`.
    var containsUnique: Bool {
        children.contains { $0.unique || $0.containsUnique }
    }
}

extension SchemaAttribute {
    static func string(_ name: String, length: Int? = 256, unique: Bool = false, caseSensitive: Bool = true,
                       required: Bool = false) -> SchemaAttribute {
        SchemaAttribute(name: name, type: .string, unique: unique, required: required,
                        caseSensitive: caseSensitive, length: length)
    }

    static func of(_ type: AttributeType, _ name: String) -> SchemaAttribute {
        SchemaAttribute(name: name, type: type)
    }

    static func object(_ name: String, _ children: [SchemaAttribute]) -> SchemaAttribute {
        SchemaAttribute(name: name, type: .object, children: children)
    }

    /// A plural; every element gets an `id` member first, as in Capture.
    static func plural(_ name: String, _ children: [SchemaAttribute]) -> SchemaAttribute {
        SchemaAttribute(name: name, type: .plural, children: [.of(.id, "id")] + children)
    }
}
