/// Which credential a call carries: the one rule behind jump_client_request, jump_client_credentials,
/// jump_client_access_token and jump_client_refresh_access_token. The sign-in-token session's token, else
/// its API key, else the Capture session's access token. A saved credential that could not be read is
/// JUMP_E_STORAGE for every one of them: the app hears that its store failed, and no call quietly uses the
/// Capture session instead.
enum CredentialChoice: Sendable, Equatable {
    case signInToken
    case apiKey(APIKeySession)
    case capture

    static func choose(tokens: TokenSession, capture: CaptureSession) throws(JumpError) -> CredentialChoice {
        switch try tokens.held() {
        case .signInToken: return .signInToken
        case .apiKey(let key): return .apiKey(key)
        case .none:
            guard capture.isSignedIn else {
                throw JumpError(.notSignedIn, "the client holds no credential (sign in, or use an API key)")
            }
            return .capture
        }
    }
}
