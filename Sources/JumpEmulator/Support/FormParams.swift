/// The parameters of one Capture call.
///
/// Capture clients send `application/x-www-form-urlencoded` bodies, but iOS also sends parameters in
/// the query string of a POST, bodies starting with `&`, and keys with raw `[` `]` (docs/protocol.md §2.4).
/// Query and body are merged; the body wins.
struct FormParams: Sendable, Equatable {
    private(set) var values: [String: String]

    init(query: String?, body: String?) {
        var merged = FormParams.parse(query ?? "")
        for (key, value) in FormParams.parse(body ?? "") {
            merged[key] = value
        }
        self.values = merged
    }

    static let empty = FormParams(query: nil, body: nil)

    /// The raw value, possibly empty.
    subscript(name: String) -> String? {
        values[name]
    }

    /// The value when present and not blank; a blank parameter counts as missing.
    func nonEmpty(_ name: String) -> String? {
        guard let value = values[name], !value.allSatisfy(\.isWhitespace) else { return nil }
        return value
    }

    /// Parses `a=1&b=2`. Empty pairs and empty keys are skipped; a later duplicate key wins.
    static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(parts[0])
            guard !key.isEmpty else { continue }
            result[key] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }

    /// Form decoding: `+` is a space, `%XX` a byte; a malformed escape is kept literally rather than
    /// failing the whole request.
    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let input = Array(text.utf8)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
