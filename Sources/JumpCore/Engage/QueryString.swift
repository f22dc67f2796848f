/// The query of a URL as name -> value (the last of repeated names wins), percent-decoded with `+` as a space.
/// Malformed escapes are kept as they are: a URL from a browser is input, never a reason to trap.
enum QueryString {
    static func parameters(of url: String) -> [String: String] {
        let withoutFragment = url.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return [:] }
        return parse(String(withoutFragment[withoutFragment.index(after: mark)...]))
    }

    static func parse(_ query: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.map({ decode(Substring($0)) }), !name.isEmpty else { continue }
            out[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return out
    }

    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                if iterator.count >= 2, let high = hex(iterator[iterator.startIndex]),
                   let low = hex(iterator[iterator.startIndex + 1]) {
                    bytes.append(high << 4 | low)
                    iterator = iterator.dropFirst(2)
                } else {
                    bytes.append(byte)
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The URL without its query and fragment: what a completion URL is matched on.
    static func location(of url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
