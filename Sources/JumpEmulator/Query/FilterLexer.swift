/// Splits a filter expression into tokens, in one pass over its characters (no recursion, so input
/// size alone cannot exhaust the stack).
///
/// - words: a letter or `_`, then letters, digits, `_` and `.` (dotted attribute paths);
/// - strings: single quotes; a quote inside is written twice (`'O''Brien'`), as in SQL, which
///   Capture's filter language follows; there are no backslash escapes;
/// - numbers: optional `-`, digits, optional `.` and digits;
/// - `=`, `!=`, `<`, `>`, `<=`, `>=`, `!`, `(`, `)`; whitespace separates tokens.
enum FilterLexer {
    /// Longer filters are refused rather than parsed: no real query needs more.
    static let maximumLength = 10_000

    static func tokens(_ text: String) throws(FilterError) -> [FilterToken] {
        let chars = Array(text)
        guard chars.count <= maximumLength else {
            throw FilterError("longer than \(maximumLength) characters")
        }
        var tokens: [FilterToken] = []
        var index = 0
        while index < chars.count {
            let char = chars[index]
            if char.isWhitespace {
                index += 1
            } else if char == "(" {
                tokens.append(.open)
                index += 1
            } else if char == ")" {
                tokens.append(.close)
                index += 1
            } else if char == "'" {
                var value = ""
                index += 1
                var closed = false
                while index < chars.count {
                    if chars[index] == "'" {
                        if index + 1 < chars.count, chars[index + 1] == "'" {
                            value.append("'")
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    value.append(chars[index])
                    index += 1
                }
                guard closed else { throw FilterError("a string literal is not closed with '") }
                tokens.append(.string(value))
            } else if char.isASCII, char.isNumber || (char == "-" && index + 1 < chars.count && chars[index + 1].isASCII
                && chars[index + 1].isNumber)
            {
                var number = String(char)
                index += 1
                var seenDot = false
                while index < chars.count, chars[index].isASCII,
                    chars[index].isNumber || (chars[index] == "." && !seenDot)
                {
                    if chars[index] == "." { seenDot = true }
                    number.append(chars[index])
                    index += 1
                }
                guard number.last != "." else { throw FilterError("'\(number)' is not a number") }
                tokens.append(.number(number))
            } else if char.isLetter || char == "_" {
                var word = ""
                while index < chars.count, chars[index].isLetter || chars[index].isNumber || chars[index] == "_"
                    || chars[index] == "."
                {
                    word.append(chars[index])
                    index += 1
                }
                tokens.append(.word(word))
            } else if char == "!" || char == "<" || char == ">" || char == "=" {
                let next: Character? = index + 1 < chars.count ? chars[index + 1] : nil
                switch (char, next) {
                case ("!", "="): tokens.append(.comparison(.notEqual)); index += 2
                case ("<", "="): tokens.append(.comparison(.lessOrEqual)); index += 2
                case (">", "="): tokens.append(.comparison(.greaterOrEqual)); index += 2
                case ("!", _): tokens.append(.bang); index += 1
                case ("<", _): tokens.append(.comparison(.less)); index += 1
                case (">", _): tokens.append(.comparison(.greater)); index += 1
                default: tokens.append(.comparison(.equal)); index += 1
                }
            } else {
                throw FilterError("unexpected character '\(char)'")
            }
        }
        return tokens
    }
}
