/// A parsed filter bound to the schema: every path checked and every literal converted once, then
/// matched against shaped records (`entity.find`, `entity.count`).
///
/// Semantics: a comparison with a null value is false (`!=` too), as in SQL; a path through a plural
/// (`profiles.domain = 'x'`) matches when any element matches; `is null` holds when the path has no
/// non-null value (an empty plural included). Comparisons on objects, plurals, `json` and passwords
/// are refused when the filter is read, so a mistake is an error rather than an empty result.
struct RecordFilter: Sendable {
    private indirect enum Node: Sendable {
        case all([Node])
        case any([Node])
        case not(Node)
        case isNull(AttributeLookup, negated: Bool)
        case compare(AttributeLookup, FilterOperator, QueryValue)
    }

    private let root: Node

    init(_ text: String, schema: Schema) throws(FilterError) {
        root = try Self.bind(try FilterParser.parse(text), schema: schema)
    }

    /// Recursion follows the expression's nesting, which the parser bounded.
    private static func bind(_ expression: FilterExpression, schema: Schema) throws(FilterError) -> Node {
        switch expression {
        case .all(let operands):
            var nodes: [Node] = []
            for operand in operands { nodes.append(try bind(operand, schema: schema)) }
            return .all(nodes)
        case .any(let operands):
            var nodes: [Node] = []
            for operand in operands { nodes.append(try bind(operand, schema: schema)) }
            return .any(nodes)
        case .not(let inner):
            return .not(try bind(inner, schema: schema))
        case .isNull(let path, let negated):
            return .isNull(try AttributeLookup(path, schema: schema), negated: negated)
        case .compare(let path, let op, let literal):
            let lookup = try AttributeLookup(path, schema: schema)
            let value = try QueryValue.fromLiteral(literal, attribute: lookup.attribute, path: path)
            if case .bool = value, op != .equal, op != .notEqual {
                throw FilterError("\(path) is a boolean; only = and != apply")
            }
            return .compare(lookup, op, value)
        }
    }

    func matches(_ record: JSONValue) -> Bool {
        Self.evaluate(root, record)
    }

    private static func evaluate(_ node: Node, _ record: JSONValue) -> Bool {
        switch node {
        case .all(let nodes): return nodes.allSatisfy { evaluate($0, record) }
        case .any(let nodes): return nodes.contains { evaluate($0, record) }
        case .not(let inner): return !evaluate(inner, record)
        case .isNull(let lookup, let negated):
            let isNull = lookup.values(in: record).allSatisfy(\.isNull)
            return negated ? !isNull : isNull
        case .compare(let lookup, let op, let literal):
            return lookup.values(in: record).contains { value in
                guard let stored = QueryValue.fromRecord(value, attribute: lookup.attribute),
                    let order = QueryValue.compare(stored, literal)
                else { return false }
                switch op {
                case .equal: return order == 0
                case .notEqual: return order != 0
                case .less: return order < 0
                case .greater: return order > 0
                case .lessOrEqual: return order <= 0
                case .greaterOrEqual: return order >= 0
                }
            }
        }
    }
}
