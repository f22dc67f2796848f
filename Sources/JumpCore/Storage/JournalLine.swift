/// One record journal line, written straight into bytes for the edits an app makes at a high rate (a
/// string, number, boolean or null set at a path; a removal; a revert): the same text as
/// `Jansson.serialize(op.json)`, which the other operations and values still go through (a test compares
/// the two). An edit then costs what its own few bytes cost, not a jansson tree built and sorted per line.
enum JournalLine {
    static func bytes(_ op: RecordOp) -> [UInt8] {
        var out: [UInt8] = []
        switch op {
        case .set(let path, let value) where isScalar(value):
            open(setLine, path, into: &out, room: (value.stringValue?.utf8.count ?? 20) + 8)
            out.append(contentsOf: valueKey)
            scalar(value, into: &out)
        case .remove(let path):
            open(removeLine, path, into: &out, room: 0)
        case .revert(let path):
            open(revertLine, path, into: &out, room: 0)
        default:
            out = Jansson.serializedBytes(op.json)
            out.append(UInt8(ascii: "\n"))
            return out
        }
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// jansson prints doubles ("%.17g" and its own rules): they stay with it.
    private static func isScalar(_ value: JSON) -> Bool {
        switch value {
        case .null, .bool, .int, .string: return true
        case .double, .array, .object: return false
        }
    }

    // The fixed parts, as bytes once (appending a literal's UTF-8 view goes a character at a time).
    private static let setLine = Array(#"{"o":"set","p":"#.utf8)
    private static let removeLine = Array(#"{"o":"remove","p":"#.utf8)
    private static let revertLine = Array(#"{"o":"revert","p":"#.utf8)
    private static let valueKey = Array(#","v":"#.utf8)

    /// `{"o":"<kind>","p":"<path>"` (keys in jansson's sorted order: o, p, v), with room for `room` more bytes.
    private static func open(_ start: [UInt8], _ path: RecordPath, into out: inout [UInt8], room: Int) {
        let text = path.description
        out.reserveCapacity(start.count + text.utf8.count + room + 8)
        out.append(contentsOf: start)
        string(text, into: &out)
    }

    private static func scalar(_ value: JSON, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .string(let s): string(s, into: &out)
        case .double, .array, .object: break  // not scalars: isScalar sent them to jansson
        }
    }

    /// A JSON string as jansson writes it without JSON_ENSURE_ASCII: UTF-8 kept, '"' and '\' escaped, control
    /// characters as \b \f \n \r \t or \u00XX (upper-case hex, as jansson).
    private static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most values need no escape: copied in one go.
        var text = text
        let copied = text.withUTF8 { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                Hex.append(byte, to: &out)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
