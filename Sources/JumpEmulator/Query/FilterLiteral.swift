/// A literal on the right of a comparison.
enum FilterLiteral: Sendable, Equatable {
    case string(String)
    case number(String)
    case bool(Bool)

    var text: String {
        switch self {
        case .string(let text), .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
