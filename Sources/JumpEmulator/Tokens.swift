import Crypto
import Foundation

/// Random opaque tokens (access tokens, authorization codes) and the refresh signature check.
enum Tokens {
    /// 32 random bytes as URL-safe Base64 without padding: 43 characters.
    static func accessToken() -> String {
        randomURLSafe(byteCount: 32)
    }

    static func authorizationCode() -> String {
        randomURLSafe(byteCount: 18)
    }

    static func randomURLSafe(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The refresh signature (docs/protocol.md §10.2): standard padded Base64 of
    /// HMAC-SHA1(key: refresh secret, message: "refresh_access_token\n" + date + "\n" + token + "\n").
    static func refreshSignature(secret: String, date: String, accessToken: String) -> String {
        let message = "refresh_access_token\n\(date)\n\(accessToken)\n"
        let mac = HMAC<Insecure.SHA1>.authenticationCode(
            for: Data(message.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return Data(mac).base64EncodedString()
    }

    /// Compares in time independent of where the strings differ, so the check leaks nothing.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices {
            difference |= a[index] ^ b[index]
        }
        return difference == 0
    }
}
