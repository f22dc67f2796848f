import Foundation

/// Turns a stored record into the record clients see.
///
/// Storage keeps only the values that were set; clients get every schema attribute (null when unset,
/// `[]` for an empty plural, objects with all their members), the reserved attributes from the user
/// row, and never a password.
struct RecordShaper: Sendable {
    let schema: Schema

    struct Reserved: Sendable {
        var id: Int64
        var uuid: String
        var created: Date
        var lastUpdated: Date
    }

    func shape(_ stored: [String: JSONValue], reserved: Reserved) -> JSONValue {
        var out: [String: JSONValue] = [:]
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
            return .array((value?.arrayValue ?? []).map { shapeMembers($0.objectValue ?? [:], of: attribute) })
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
