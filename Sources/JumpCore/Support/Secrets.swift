import CCrypto

/// Random tokens and the refresh signature.
enum Secrets {
    /// 40 lowercase hex characters from the system CSPRNG (the refresh secret of docs/protocol.md §10.1).
    static func refreshSecret() -> String { randomHex(bytes: 20) }

    /// A session id minted at every sign-in: 32 hex characters, so two sessions never share one.
    static func sessionID() -> String { randomHex(bytes: 16) }

    /// Names a new saved account's entries (CaptureAccounts): random, so two processes never pick the same.
    static func accountSlot() -> String { randomHex(bytes: 6) }

    /// One getrandom call for all the bytes (a random value per byte would make a system call each); the
    /// generator (the same source) only if that call is refused.
    private static func randomHex(bytes count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        if bytes.withUnsafeMutableBytes({ jumpi_random_bytes($0.baseAddress, $0.count) }) != 1 {
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        for byte in bytes { Hex.append(byte, to: &text, uppercase: false) }
        return String(decoding: text, as: UTF8.self)
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
