import CCrypto

/// Random tokens and the refresh signature.
enum Secrets {
    /// 40 lowercase hex characters from the system CSPRNG (the refresh secret of docs/protocol.md §10.1).
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
        let key = Array(secret.utf8), text = Array(message.utf8)
        var mac = [UInt8](repeating: 0, count: 20)
        let made = mac.withUnsafeMutableBufferPointer { out in
            key.withUnsafeBufferPointer { key in
                text.withUnsafeBufferPointer { text in
                    jumpi_hmac_sha1(key.baseAddress, Int32(clamping: key.count), text.baseAddress, text.count, out.baseAddress)
                }
            }
        }
        // Only an allocation failure inside libcrypto fails an HMAC: the server then refuses an empty signature.
        return made == 1 ? Base64.encode(mac) : ""
    }
}
