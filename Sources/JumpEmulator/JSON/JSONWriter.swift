/// Serialises `JSONValue` to compact JSON text with sorted keys.
///
/// Written by hand (not `JSONEncoder`) so the output is deterministic, never escapes `/`, and keeps
/// integers and doubles apart exactly as they were given. It writes UTF-8 bytes, not `String`
/// appends: answers holding 100 000 plural elements must serialise in well under a second even in a
/// debug build.
extension JSONValue {
    public func serialized() -> String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }

    public func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        JSONWriter.write(self, into: &out)
        return out
    }
}

enum JSONWriter {
    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .int(let number):
            writeInteger(number, into: &out)
        case .double(let number):
            // JSON has no NaN/Infinity; they cannot come from parsed input, but never emit invalid text.
            out.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
        case .string(let text):
            writeString(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            var first = true
            for item in items {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in sortedMembers(members) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Members by key. Objects are mostly small (plural elements have a handful of members), where an
    /// insertion sort of the pairs beats sorting the keys and looking each one up again.
    private static func sortedMembers(_ members: [String: JSONValue]) -> [(String, JSONValue)] {
        var pairs: [(String, JSONValue)] = []
        pairs.reserveCapacity(members.count)
        for (key, value) in members {
            var slot = pairs.count
            pairs.append((key, value))
            while slot > 0, key < pairs[slot - 1].0 {
                pairs.swapAt(slot, slot - 1)
                slot -= 1
            }
        }
        return pairs
    }

    private static func writeInteger(_ number: Int64, into out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            while count > 0 {
                count -= 1
                out.append(buffer[count])
            }
        }
    }

    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var runStart = 0
            var index = 0
            while index < count {
                // Eight bytes at a time while none of them needs escaping (nearly all text).
                if index + 8 <= count,
                    !mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                {
                    index += 8
                    continue
                }
                let byte = base[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                let at = index - 1
                // Copy the clean run before this byte in one go, then its escape.
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<at]))
                runStart = at + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case 0x0A: out.append(contentsOf: #"\n"#.utf8)
                case 0x0D: out.append(contentsOf: #"\r"#.utf8)
                case 0x09: out.append(contentsOf: #"\t"#.utf8)
                case 0x08: out.append(contentsOf: #"\b"#.utf8)
                case 0x0C: out.append(contentsOf: #"\f"#.utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether one of the eight bytes is a control character, a quote or a backslash (bit tricks
    /// from "Bit Twiddling Hacks": has-less-than and has-zero-byte on the word and on its XORs).
    /// The parser uses it too: those are the bytes that end the plain run of a JSON string.
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteFound = (quote &- ones) & ~quote & highs
        let backslashFound = (backslash &- ones) & ~backslash & highs
        return (control | quoteFound | backslashFound) != 0
    }
}
