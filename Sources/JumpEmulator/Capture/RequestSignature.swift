import Crypto
import Foundation

/// A janrain-signed server call (docs/protocol.md §6.8): `Authorization: Signature <client_id>:<b64>`
/// with `Date: yyyy-MM-dd HH:mm:ss` (UTC), where `<b64>` is the standard padded Base64 of
/// HMAC-SHA1(key: client secret, message: `"<path>\n<Date>\n"` followed by one `"<name>=<value>\n"`
/// line per POSTed parameter, the lines sorted). This is exactly what janrain-python-api's
/// `generate_signature` computes; that client sends neither `client_id` nor `client_secret` as
/// parameters when it signs.
struct RequestSignature: Sendable, Equatable {
    var clientId: String
    var signature: String

    /// How far `Date` may be from the emulator host's real clock, either way. Real time, not the
    /// emulator clock: the client signs with its own wall clock, and tests move the emulator clock to
    /// expire tokens without meaning to make every signed call stale. Five minutes covers ordinary
    /// clock drift while keeping a captured request from being replayed for long.
    static let allowedSkew: TimeInterval = 300

    /// `Signature <client_id>:<signature>`; nil when the header uses another scheme. A Signature header
    /// that does not have this shape is 200 invalid_argument `Authorization`.
    static func parse(_ call: CaptureCall) throws(CaptureError) -> RequestSignature? {
        guard let (scheme, value) = call.authorization, scheme == "signature" else { return nil }
        guard let colon = value.lastIndex(of: ":"), colon != value.startIndex else {
            throw CaptureError.invalidArgument(
                "Authorization", "the Authorization header must read Signature <client_id>:<signature>")
        }
        let signature = String(value[value.index(after: colon)...])
        guard !signature.isEmpty else {
            throw CaptureError.invalidArgument("Authorization", "the signature is empty")
        }
        return RequestSignature(clientId: String(value[..<colon]), signature: signature)
    }

    /// The message janrain-python-api signs. Lines sort by code point, as Python sorts strings.
    static func message(path: String, date: String, params: [String: String]) -> String {
        let lines = params.map { "\($0.key)=\($0.value)" }.sorted { lhs, rhs in
            lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars) { $0.value < $1.value }
        }
        return "\(path)\n\(date)\n" + lines.map { $0 + "\n" }.joined()
    }

    static func sign(secret: String, path: String, date: String, params: [String: String]) -> String {
        let message = message(path: path, date: date, params: params)
        let mac = HMAC<Insecure.SHA1>.authenticationCode(
            for: Data(message.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return Data(mac).base64EncodedString()
    }

    /// Checks the `Date` header and then the signature against the app's secret:
    /// a missing `Date` is 100 (`argument_name: "Date"`), a malformed or stale one 200, a signature
    /// that does not match 402 invalid_client_credentials. `now` is real time.
    func verify(_ call: CaptureCall, secret: String, now: Date) throws(CaptureError) {
        guard let date = call.dateHeader?.trimmingCharacters(in: .whitespaces), !date.isEmpty else {
            throw CaptureError.missingArgument("Date")
        }
        guard let sent = CaptureTime.parseSignatureDate(date) else {
            throw CaptureError.invalidArgument("Date", "the Date header must be the UTC time as yyyy-MM-dd HH:mm:ss")
        }
        guard abs(sent.timeIntervalSince(now)) <= Self.allowedSkew else {
            throw CaptureError.invalidArgument(
                "Date", "the Date header is more than \(Int(Self.allowedSkew)) seconds from the server's time")
        }
        let expected = Self.sign(secret: secret, path: call.path, date: date, params: call.body.values)
        guard Tokens.constantTimeEquals(expected, signature) else {
            throw CaptureError(code: 402, error: "invalid_client_credentials",
                               description: "the request signature does not match")
        }
    }
}
