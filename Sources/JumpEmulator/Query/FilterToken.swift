/// One token of a Capture filter expression (`FilterLexer`).
enum FilterToken: Sendable, Equatable {
    /// An attribute path such as `email` or `primaryAddress.city`, or a keyword (`and`, `or`, `not`,
    /// `is`, `null`, `true`, `false`; the parser compares keywords case-insensitively).
    case word(String)
    /// A single-quoted literal, quotes removed and `''` turned into `'`.
    case string(String)
    /// A number literal as written: `42`, `-3`, `2.5`.
    case number(String)
    /// `=`, `!=`, `<`, `>`, `<=`, `>=`.
    case comparison(FilterOperator)
    /// `!` alone: the prefix form of `not`.
    case bang
    case open
    case close
}
