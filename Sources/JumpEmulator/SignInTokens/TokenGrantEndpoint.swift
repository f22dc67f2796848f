/// `POST /v1/token` (form-encoded, no authentication): the two grants the Junction SDKs use
/// (docs/protocol.md §12.3, §12.4). Success: `{"access_token","refresh_token","expires_in","token_type"}`;
/// every failure is HTTP 400 `{"detail":{"error_type","message"}}`.
struct TokenGrantEndpoint: Sendable {
    let emulator: Emulator

    static let tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let refreshTokenGrant = "refresh_token"

    func handle(_ params: FormParams) async throws -> JSONValue {
        guard let grantType = params.nonEmpty("grant_type") else {
            throw DetailError.invalidRequest("grant_type is required")
        }
        switch grantType {
        case Self.tokenExchangeGrant:
            return try await SignInTokenExchange(emulator: emulator).exchange(params)
        case Self.refreshTokenGrant:
            return try await RefreshTokenRotation(emulator: emulator).refresh(params)
        default:
            throw DetailError.invalidRequest(
                "grant_type must be \(Self.tokenExchangeGrant) or \(Self.refreshTokenGrant), not \(grantType)")
        }
    }
}
