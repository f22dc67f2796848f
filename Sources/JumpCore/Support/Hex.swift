/// Two hex digits for a byte, appended to bytes being built (percent-encoding, JSON's \u00XX, random secrets).
enum Hex {
    static func append(_ byte: UInt8, to out: inout [UInt8], uppercase: Bool = true) {
        out.append(digit(byte >> 4, uppercase: uppercase))
        out.append(digit(byte & 0x0F, uppercase: uppercase))
    }

    private static func digit(_ nibble: UInt8, uppercase: Bool) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) &+ (nibble &- 10)
    }
}
