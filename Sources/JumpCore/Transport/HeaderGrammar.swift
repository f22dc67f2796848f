/// RFC 9110 field syntax, checked on bytes: a name is a token, a value has no control character but HTAB.
/// A CR or LF in either would let a caller add headers of its own choosing (a second Authorization, a
/// Cookie) to a request that carries the user's credential.
enum HeaderGrammar {
    static func check(name: String, value: String) throws(JumpError) {
        guard !name.utf8.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
            throw .invalidArgument("header name '\(printable(name))' is not an HTTP token (RFC 9110: letters, digits and "
                                   + "!#$%&'*+-.^_`|~, no spaces or colons)", argument: "headers")
        }
        if let bad = value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw .invalidArgument("the value of header '\(name)' holds a control character (0x"
                                   + String(bad, radix: 16) + "): line breaks and NUL are not allowed", argument: "headers")
        }
    }

    /// RFC 9110 tchar (header names, and the method of a request line).
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    /// Headers whose values are credentials (remembered so no server can echo them back to the app).
    static func carriesCredential(_ name: String) -> Bool {
        // On bytes: every header of every request passes here (see SecretScrubber.find).
        let lower = SecretScrubber.asciiLowercased(name)
        return lower.elementsEqual("authorization".utf8) || lower.elementsEqual("cookie".utf8)
            || credentialWords.contains { SecretScrubber.find($0, in: lower) != nil }
    }

    private static let credentialWords = ["api-key", "apikey", "token"].map { Array($0.utf8) }

    /// "Bearer abc" -> "abc"; other values whole.
    static func credential(in value: String) -> String {
        guard let space = value.firstIndex(of: " ") else { return value }
        return String(value[value.index(after: space)...])
    }

    private static func printable(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
