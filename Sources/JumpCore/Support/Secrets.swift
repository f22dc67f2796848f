import Crypto
import FoundationEssentials

/// Random tokens and the refresh signature.
enum Secrets {
    /// 40 lowercase hex characters from the system CSPRNG (the refresh secret of protocol.md section 8).
    static func refreshSecret() -> String { randomHex(bytes: 20) }

    /// A session id minted at every sign-in: 32 hex characters, so two sessions never share one.
    static func sessionID() -> String { randomHex(bytes: 16) }

    private static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Base64(HMAC-SHA1(key: refresh secret, message: "refresh_access_token\n<date>\n<access token>\n")).
    static func refreshSignature(secret: String, date: String, accessToken: String) -> String {
        let message = "refresh_access_token\n\(date)\n\(accessToken)\n"
        let mac = HMAC<Insecure.SHA1>.authenticationCode(
            for: Array(message.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return Data(mac).base64EncodedString()
    }
}
