/// Checks one scalar value written to an attribute against the attribute's type and length, and
/// normalises it (dates to Capture's text formats). Containers are handled by `RecordUpdater`.
enum SchemaValidator {
    /// `path` names the attribute in an error; it is only built when there is one (big writes check
    /// hundreds of thousands of values).
    static func validate(
        _ value: JSONValue, as attribute: SchemaAttribute, path pathText: @autoclosure () -> String
    ) throws(CaptureError) -> JSONValue {
        if value.isNull { return .null }
        var path: String { pathText() }
        switch attribute.type {
        case .id, .uuid:
            throw CaptureError.reservedAttribute(path)
        case .string:
            guard let text = value.stringValue else {
                throw CaptureError.invalidJSONType(path, expected: "string", got: value)
            }
            if let limit = attribute.length, text.count > limit {
                throw CaptureError.lengthViolation(path, limit: limit)
            }
            return value
        case .boolean:
            guard value.boolValue != nil else { throw CaptureError.invalidJSONType(path, expected: "boolean", got: value) }
            return value
        case .integer:
            guard let number = value.intValue else {
                throw CaptureError.invalidJSONType(path, expected: "integer", got: value)
            }
            return .int(number)
        case .decimal:
            switch value {
            case .int, .double: return value
            default: throw CaptureError.invalidJSONType(path, expected: "number", got: value)
            }
        case .date:
            guard let text = value.stringValue else { throw CaptureError.invalidJSONType(path, expected: "string", got: value) }
            guard let day = CaptureTime.parseDate(text) else { throw CaptureError.invalidDateTime(path, text) }
            return .string(day.text)
        case .dateTime:
            guard let text = value.stringValue else { throw CaptureError.invalidJSONType(path, expected: "string", got: value) }
            guard let instant = CaptureTime.parseDateTime(text) else { throw CaptureError.invalidDateTime(path, text) }
            return .string(CaptureTime.dateTime(instant))
        case .json:
            return value
        case .password, .object, .plural:
            // Never reached for these: the updater treats them itself. Refuse rather than store blindly.
            throw CaptureError.unknownAttribute(path, "attribute \(path) cannot be written as a plain value")
        }
    }
}
