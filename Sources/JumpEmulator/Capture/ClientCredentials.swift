import Foundation

/// API-client (owner) authentication for server-side calls (`/oauth/token`, `entity.find`,
/// `entityType.*`, `/entity*` by uuid or id), the three ways Capture accepts it (docs/protocol.md
/// §6.8):
///
/// - `client_id` with `client_secret` as parameters;
/// - HTTP Basic, `Authorization: Basic base64(client_id:client_secret)`;
/// - a janrain signature, `Authorization: Signature <client_id>:<b64>` plus `Date` (`RequestSignature`).
///
/// Callers pass a body-only call (`ParameterLocation.body`): a secret is never read from a URL.
extension Emulator {
    /// 100 when no client id or secret is given; 402 for an unknown client, a wrong secret or a
    /// signature that does not match; a signed call's `Date` errors as `RequestSignature.verify` says.
    func requireClientCredentials(_ call: CaptureCall) async throws -> AppConfig {
        if let signed = try RequestSignature.parse(call) {
            guard let app = try await apps.app(clientId: signed.clientId), let secret = app.row.clientSecret else {
                throw CaptureError.invalidClient()
            }
            try signed.verify(call, secret: secret, now: Date())
            return app
        }
        let (clientId, secret) = try Self.clientCredentials(call)
        guard let app = try await apps.app(clientId: clientId), let expected = app.row.clientSecret,
            Tokens.constantTimeEquals(expected, secret)
        else {
            throw CaptureError.invalidClientCredentials()
        }
        return app
    }

    private static func clientCredentials(_ call: CaptureCall) throws(CaptureError) -> (String, String) {
        if let clientId = call.params.nonEmpty("client_id"), let secret = call.params.nonEmpty("client_secret") {
            return (clientId, secret)
        }
        if let basic = basicCredentials(call.authorizationHeader) {
            return basic
        }
        _ = try call.required("client_id")
        throw CaptureError.missingArgument("client_secret")
    }

    /// `Basic <base64(id:secret)>`; nil when the header is absent or not Basic.
    static func basicCredentials(_ header: String?) -> (String, String)? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { return nil }
        let id = String(text[..<colon])
        let secret = String(text[text.index(after: colon)...])
        return id.isEmpty ? nil : (id, secret)
    }
}
