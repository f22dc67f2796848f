import Foundation

/// A value compared or sorted by `entity.find` / `entity.count`, typed by its attribute so that
/// numbers compare as numbers, dates as days, `dateTime`s as instants and strings in byte (ASCII)
/// order, as Capture documents for `sort_on`. Case-insensitive strings (email, username) compare
/// lowercased.
enum QueryValue: Sendable, Equatable {
    case number(Double)
    case text([UInt8])
    case bool(Bool)
    case day(CalendarDay)
    case instant(Double)

    /// Attribute types a comparison or a sort can use.
    static func isComparable(_ attribute: SchemaAttribute) -> Bool {
        switch attribute.type {
        case .string, .uuid, .id, .integer, .decimal, .boolean, .date, .dateTime: true
        case .json, .password, .object, .plural: false
        }
    }

    /// A stored value as its attribute's kind; nil for null (or a value of another type).
    static func fromRecord(_ value: JSONValue, attribute: SchemaAttribute) -> QueryValue? {
        switch attribute.type {
        case .string, .uuid:
            return value.stringValue.map { text(attribute.caseSensitive ? $0 : $0.lowercased()) }
        case .id, .integer, .decimal:
            return value.doubleValue.map(QueryValue.number)
        case .boolean:
            return value.boolValue.map(QueryValue.bool)
        case .date:
            return value.stringValue.flatMap(CaptureTime.parseDate).map(QueryValue.day)
        case .dateTime:
            return value.stringValue.flatMap(CaptureTime.parseDateTime).map { .instant($0.timeIntervalSince1970) }
        case .json, .password, .object, .plural:
            return nil
        }
    }

    /// A filter literal as the attribute's kind. As Capture documents, numbers may be quoted
    /// (`age > '25'`); a string that is not a valid value of the type is refused.
    static func fromLiteral(
        _ literal: FilterLiteral, attribute: SchemaAttribute, path: String
    ) throws(FilterError) -> QueryValue {
        switch attribute.type {
        case .string, .uuid:
            let text = literal.text
            return .text(Array((attribute.caseSensitive ? text : text.lowercased()).utf8))
        case .id, .integer, .decimal:
            if case .bool = literal { throw FilterError("\(path) is a number; \(literal.text) is not") }
            guard let number = Double(literal.text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                throw FilterError("\(path) is a number; '\(literal.text)' is not")
            }
            return .number(number)
        case .boolean:
            switch literal.text.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw FilterError("\(path) is a boolean; compare it with true or false")
            }
        case .date:
            let asDateTime = CaptureTime.parseDateTime(literal.text).map(CaptureTime.day)
            guard let day = CaptureTime.parseDate(literal.text) ?? asDateTime else {
                throw FilterError("\(path) is a date; '\(literal.text)' is not a yyyy-MM-dd date")
            }
            return .day(day)
        case .dateTime:
            guard let instant = CaptureTime.parseDateTime(literal.text) else {
                throw FilterError("\(path) is a dateTime; '\(literal.text)' is not a date and time")
            }
            return .instant(instant.timeIntervalSince1970)
        case .json, .password, .object, .plural:
            throw FilterError("\(path) (type \(attribute.type.rawValue)) cannot be compared; only is null applies")
        }
    }

    private static func text(_ string: String) -> QueryValue {
        .text(Array(string.utf8))
    }

    /// -1, 0 or 1; nil when the two are of different kinds (never for values of one attribute).
    static func compare(_ lhs: QueryValue, _ rhs: QueryValue) -> Int? {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return order(a, b)
        case (.instant(let a), .instant(let b)): return order(a, b)
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.day(let a), .day(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.text(let a), .text(let b)):
            if a == b { return 0 }
            return a.lexicographicallyPrecedes(b) ? -1 : 1
        default: return nil
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> Int {
        a == b ? 0 : (a < b ? -1 : 1)
    }
}
