import Foundation

/// Turns a stored record into the record clients see.
///
/// Storage keeps only the values that were set; clients get every schema attribute (null when unset,
/// `[]` for an empty plural, objects with all their members), the reserved attributes from the user
/// row, and never a password hash: only whether there is one (see `passwordMarker`).
struct RecordShaper: Sendable {
    let schema: Schema

    struct Reserved: Sendable {
        var id: Int64
        var uuid: String
        var created: Date
        var lastUpdated: Date
        /// Whether the user has a password hash (a column, like the reserved attributes).
        var hasPassword: Bool = false
    }

    /// What a record shows of its password: Capture gives the hash's type; clients read it to know
    /// whether the account can sign in without a social identity (docs/protocol.md §6.7), so that a
    /// social-only account is not left without any sign-in method. Null when there is none.
    static func passwordMarker(hasPassword: Bool) -> JSONValue {
        hasPassword ? ["type": "password-bcrypt"] : .null
    }

    func shape(_ stored: [String: JSONValue], reserved: Reserved) -> JSONValue {
        var out: [String: JSONValue] = [:]
        for attribute in schema.attributes where attribute.type == .password {
            out[attribute.name] = Self.passwordMarker(hasPassword: reserved.hasPassword)
        }
        for attribute in schema.attributes where attribute.isReadable {
            switch attribute.name {
            case "id": out["id"] = .int(reserved.id)
            case "uuid": out["uuid"] = .string(reserved.uuid)
            case "created": out["created"] = .string(CaptureTime.dateTime(reserved.created))
            case "lastUpdated": out["lastUpdated"] = .string(CaptureTime.dateTime(reserved.lastUpdated))
            default: out[attribute.name] = shape(stored[attribute.name], as: attribute)
            }
        }
        return .object(out)
    }

    func shape(_ value: JSONValue?, as attribute: SchemaAttribute) -> JSONValue {
        switch attribute.type {
        case .object:
            return shapeMembers(value?.objectValue ?? [:], of: attribute)
        case .plural:
            let elements = value?.arrayValue ?? []
            // Stored elements hold only schema members (every write is checked), so an element with
            // as many members as the plural has children already has them all. When none of them is
            // a container or unreadable, it is its own shape: big plurals are then read without
            // rebuilding each element.
            let simple = !attribute.children.contains { $0.isContainer || !$0.isReadable }
            let complete = attribute.children.count
            return .array(elements.map { element in
                if simple, let members = element.objectValue, members.count == complete { return element }
                return shapeMembers(element.objectValue ?? [:], of: attribute)
            })
        default:
            return value ?? .null
        }
    }

    /// The members of an object or of one plural element (whose `id` is one of its children).
    private func shapeMembers(_ members: [String: JSONValue], of attribute: SchemaAttribute) -> JSONValue {
        var out: [String: JSONValue] = [:]
        for child in attribute.children where child.isReadable {
            out[child.name] = shape(members[child.name], as: child)
        }
        return .object(out)
    }
}
