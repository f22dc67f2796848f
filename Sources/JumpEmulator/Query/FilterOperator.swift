/// The comparison operators of Capture's filter language.
enum FilterOperator: String, Sendable, Equatable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
}
