import Foundation

/// API-client authentication for server-style calls (`/oauth/token`, `entityType.*AccessSchema`):
/// `client_id` with `client_secret` as parameters, or HTTP Basic (`Authorization: Basic
/// base64(client_id:client_secret)`), as Capture accepts (protocol.md §3.3.12).
extension Emulator {
    /// 100 when no client id or secret is given; 402 for an unknown client or a wrong secret.
    func requireClientCredentials(_ call: CaptureCall) async throws -> AppConfig {
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
