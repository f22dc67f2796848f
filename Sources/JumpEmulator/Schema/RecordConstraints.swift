/// Record-wide schema constraints that a single value cannot be checked for alone:
/// `required` (362) and `unique` (361).
enum RecordConstraints {
    /// One value of a `unique` attribute, normalised for comparison.
    struct UniqueValue: Sendable, Hashable {
        /// Where the attribute sits, e.g. `/email` or `/profiles/identifier`; used in errors.
        var attributePath: String
        /// Lowercased when the attribute is case-insensitive.
        var value: String
    }

    /// Every required member that is null, first one reported.
    static func checkRequired(_ record: [String: JSONValue], schema: Schema) throws(CaptureError) {
        try checkRequired(record, children: schema.attributes, path: .root)
    }

    private static func checkRequired(
        _ members: [String: JSONValue], children: [SchemaAttribute], path: AttributePath
    ) throws(CaptureError) {
        for child in children where child.required || child.containsRequired {
            let value = members[child.name] ?? .null
            let here = path.appending(child.name)
            if child.required, child.type != .plural, value.isNull {
                throw CaptureError.missingRequiredAttribute(here.text)
            }
            switch child.type {
            case .object:
                // An object that was never written has no members to require.
                if let object = value.objectValue {
                    try checkRequired(object, children: child.children, path: here)
                }
            case .plural:
                for element in value.arrayValue ?? [] {
                    let elementPath = path.appending(child.name, elementId: element["id"]?.intValue)
                    try checkRequired(element.objectValue ?? [:], children: child.children, path: elementPath)
                }
            default:
                break
            }
        }
    }

    /// The values of every unique attribute of the record (root members, object members and plural
    /// element members).
    static func uniqueValues(_ record: [String: JSONValue], schema: Schema) -> [UniqueValue] {
        var found: [UniqueValue] = []
        collect(record, children: schema.attributes, prefix: "", into: &found)
        return found
    }

    /// Two equal values of a unique attribute inside one record (two profiles with one identifier)
    /// are already a violation.
    static func checkNoDuplicates(_ values: [UniqueValue]) throws(CaptureError) {
        var seen = Set<String>()
        for value in values where !seen.insert(value.attributePath + "\u{0}" + value.value).inserted {
            throw CaptureError.uniqueViolation(value.attributePath)
        }
    }

    private static func collect(
        _ members: [String: JSONValue], children: [SchemaAttribute], prefix: String, into found: inout [UniqueValue]
    ) {
        for child in children where child.unique || child.containsUnique {
            let path = prefix + "/" + child.name
            let value = members[child.name] ?? .null
            switch child.type {
            case .object:
                collect(value.objectValue ?? [:], children: child.children, prefix: path, into: &found)
            case .plural:
                for element in value.arrayValue ?? [] {
                    collect(element.objectValue ?? [:], children: child.children, prefix: path, into: &found)
                }
            default:
                guard child.unique, let text = comparable(value) else { continue }
                found.append(UniqueValue(attributePath: path, value: child.caseSensitive ? text : text.lowercased()))
            }
        }
    }

    /// Text used to compare values; unique strings are the usual case, numbers are compared as text.
    private static func comparable(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return String(flag)
        default: return nil
        }
    }
}
