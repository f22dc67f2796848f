import Foundation

/// A JWS in compact serialization (`header.payload.signature`, each base64url without padding), the
/// form of a sign-in token's `user_token`.
struct CompactJWT: Sendable {
    var header: [String: JSONValue]
    var payload: [String: JSONValue]
    /// `header.payload` as sent: what the signature covers.
    var signingInput: String
    var signature: Data

    /// Signs `header` and `payload` with the emulator's key.
    static func sign(header: JSONValue, payload: JSONValue, with key: SigningKey) throws -> String {
        let input = Base64URL.encode(header.serializedBytes()) + "." + Base64URL.encode(payload.serializedBytes())
        return input + "." + Base64URL.encode(try key.sign(input))
    }

    /// Splits and decodes a token; nil when it is not three segments of base64url JSON objects.
    static func parse(_ token: String) -> CompactJWT? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
            let headerData = Base64URL.decode(segments[0]), let header = JSONValue.parse(data: headerData)?.objectValue,
            let payloadData = Base64URL.decode(segments[1]), let payload = JSONValue.parse(data: payloadData)?.objectValue,
            let signature = Base64URL.decode(segments[2])
        else { return nil }
        return CompactJWT(header: header, payload: payload, signingInput: "\(segments[0]).\(segments[1])",
                          signature: signature)
    }
}
