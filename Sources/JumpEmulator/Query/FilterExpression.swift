/// A parsed Capture filter (`FilterParser`). `and` and `or` hold all their operands in one node, so
/// a long chain is a wide node, not a deep tree: only parentheses and `not` add depth, and the
/// parser bounds that.
indirect enum FilterExpression: Sendable, Equatable {
    case all([FilterExpression])
    case any([FilterExpression])
    case not(FilterExpression)
    /// `path is null` (`negated: false`) or `path is not null`.
    case isNull(path: String, negated: Bool)
    case compare(path: String, FilterOperator, FilterLiteral)
}
