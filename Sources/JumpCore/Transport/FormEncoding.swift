/// application/x-www-form-urlencoded bodies, as Capture expects them.
public struct FormParameters: Sendable, Equatable {
    public private(set) var pairs: [(String, String)] = []

    public init() {}

    public mutating func add(_ name: String, _ value: String?) {
        guard let value else { return }
        if SecretScrubber.isSecretField(name) && !SecretScrubber.isPasswordField(name) { SecretScrubber.remember(value) }
        pairs.append((name, value))
    }

    public subscript(name: String) -> String? { pairs.last { $0.0 == name }?.1 }

    public var names: [String] { pairs.map(\.0) }

    /// The values of secret fields, passwords included (to scrub from what answers this request).
    var secretValues: [String] { pairs.filter { SecretScrubber.isSecretField($0.0) }.map(\.1) }

    /// Keys keep `[` and `]` raw, as the reference SDKs send them (e.g. birthdate[dateselect_year]).
    public var encoded: String {
        pairs.map { FormParameters.escape($0.0, keepBrackets: true) + "=" + FormParameters.escape($0.1, keepBrackets: false) }
            .joined(separator: "&")
    }

    static func escape(_ text: String, keepBrackets: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "[") where keepBrackets, UInt8(ascii: "]") where keepBrackets:
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                Hex.append(byte, to: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func == (a: FormParameters, b: FormParameters) -> Bool {
        a.pairs.elementsEqual(b.pairs) { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}
