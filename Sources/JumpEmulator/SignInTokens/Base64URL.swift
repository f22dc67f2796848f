import Foundation

/// Base64url without padding (RFC 7515 §2), as JWT segments and JWK members are written.
enum Base64URL {
    static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Also takes the standard alphabet and padding: a lenient reader costs nothing here.
    static func decode(_ text: some StringProtocol) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !standard.contains("=") || standard.count % 4 == 0 else { return nil }
        if !standard.hasSuffix("=") {
            standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        }
        return Data(base64Encoded: standard)
    }
}
