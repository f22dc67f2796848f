/// Parses Capture's filter language (the subset the emulator supports), with its precedence from
/// the `entity.find` documentation, highest first: `is null` / `is not null` (postfix), `not` / `!`
/// (prefix), the comparisons, `and`, `or`. Grammar:
///
///     filter     := or
///     or         := and ("or" and)*
///     and        := unary ("and" unary)*
///     unary      := ("not" | "!") unary | primary
///     primary    := "(" or ")" | path "is" ["not"] "null" | path op literal
///     op         := "=" | "!=" | "<" | ">" | "<=" | ">="
///     literal    := 'string' | number | true | false
///
/// Keywords are case-insensitive. A comparison always has the attribute on the left. Parentheses and
/// `not` may nest at most `maximumDepth` deep: recursion follows nesting only, so a hostile filter is
/// refused with an error instead of exhausting the stack.
struct FilterParser {
    static let maximumDepth = 32

    private let tokens: [FilterToken]
    private var index = 0

    private init(tokens: [FilterToken]) {
        self.tokens = tokens
    }

    static func parse(_ text: String) throws(FilterError) -> FilterExpression {
        var parser = FilterParser(tokens: try FilterLexer.tokens(text))
        guard !parser.tokens.isEmpty else { throw FilterError("the filter is empty") }
        let expression = try parser.parseOr(depth: 0)
        if let extra = parser.peek {
            throw FilterError("unexpected \(describe(extra)) after a complete expression")
        }
        return expression
    }

    private var peek: FilterToken? {
        index < tokens.count ? tokens[index] : nil
    }

    private func isKeyword(_ keyword: String) -> Bool {
        if case .word(let word)? = peek { return word.lowercased() == keyword }
        return false
    }

    private mutating func parseOr(depth: Int) throws(FilterError) -> FilterExpression {
        var operands = [try parseAnd(depth: depth)]
        while isKeyword("or") {
            index += 1
            operands.append(try parseAnd(depth: depth))
        }
        return operands.count == 1 ? operands[0] : .any(operands)
    }

    private mutating func parseAnd(depth: Int) throws(FilterError) -> FilterExpression {
        var operands = [try parseUnary(depth: depth)]
        while isKeyword("and") {
            index += 1
            operands.append(try parseUnary(depth: depth))
        }
        return operands.count == 1 ? operands[0] : .all(operands)
    }

    private mutating func parseUnary(depth: Int) throws(FilterError) -> FilterExpression {
        if isKeyword("not") || peek == .bang {
            index += 1
            return .not(try parseUnary(depth: try deeper(depth)))
        }
        return try parsePrimary(depth: depth)
    }

    private mutating func parsePrimary(depth: Int) throws(FilterError) -> FilterExpression {
        guard let token = peek else { throw FilterError("the filter ends where an expression was expected") }
        switch token {
        case .open:
            index += 1
            let inner = try parseOr(depth: try deeper(depth))
            guard peek == .close else { throw FilterError("a '(' is not closed") }
            index += 1
            return inner
        case .word(let path) where !Self.keywords.contains(path.lowercased()):
            index += 1
            return try parseCondition(on: path)
        default:
            throw FilterError("expected an attribute or '(', found \(Self.describe(token))")
        }
    }

    private mutating func parseCondition(on path: String) throws(FilterError) -> FilterExpression {
        guard Self.isPath(path) else { throw FilterError("'\(path)' is not an attribute path") }
        if isKeyword("is") {
            index += 1
            var negated = false
            if isKeyword("not") {
                negated = true
                index += 1
            }
            guard isKeyword("null") else { throw FilterError("expected null after '\(path) is'") }
            index += 1
            return .isNull(path: path, negated: negated)
        }
        guard case .comparison(let op)? = peek else {
            throw FilterError("expected a comparison or 'is null' after '\(path)'")
        }
        index += 1
        guard let token = peek else { throw FilterError("the filter ends where a value was expected") }
        index += 1
        switch token {
        case .string(let text): return .compare(path: path, op, .string(text))
        case .number(let text): return .compare(path: path, op, .number(text))
        case .word(let word) where word.lowercased() == "true": return .compare(path: path, op, .bool(true))
        case .word(let word) where word.lowercased() == "false": return .compare(path: path, op, .bool(false))
        case .word(let word) where word.lowercased() == "null":
            throw FilterError("compare with null using '\(path) is null' or '\(path) is not null'")
        default:
            throw FilterError("expected a value after '\(path) \(op.rawValue)', found \(Self.describe(token))")
        }
    }

    private func deeper(_ depth: Int) throws(FilterError) -> Int {
        guard depth < Self.maximumDepth else {
            throw FilterError("parentheses and not nest deeper than \(Self.maximumDepth) levels")
        }
        return depth + 1
    }

    private static let keywords: Set<String> = ["and", "or", "not", "is", "null", "true", "false"]

    /// Dot-separated names, none empty.
    private static func isPath(_ text: String) -> Bool {
        !text.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
    }

    private static func describe(_ token: FilterToken) -> String {
        switch token {
        case .word(let word): "'\(word)'"
        case .string(let text): "the string '\(text)'"
        case .number(let text): "the number \(text)"
        case .comparison(let op): "'\(op.rawValue)'"
        case .bang: "'!'"
        case .open: "'('"
        case .close: "')'"
        }
    }
}
