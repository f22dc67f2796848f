/// What the sign-in-token session holds, as the rest of the client may ask for it: its state is read here,
/// under its own lock, and nowhere outside TokenSession.
extension TokenSession {
    enum Held: Sendable, Equatable {
        case signInToken
        case apiKey(APIKeySession)
        case none
    }

    /// The credential held now. A saved credential that could not be read is JUMP_E_STORAGE (never "signed
    /// out", never a reason to use another credential).
    func held() throws(JumpError) -> Held {
        try state.answer { s throws(JumpError) -> Held in
            switch try requireTokens(s).credential {
            case .token?: return .signInToken
            case .apiKey(let key)?: return .apiKey(key)
            case nil: return .none
            }
        }
    }

    /// The refresh token of the sign-in-token session now (what a 401 replay refreshes), if it holds one.
    var currentRefreshToken: String? {
        state.withLock { s -> String? in
            if case .token(let grant)? = s.tokens.credential { return grant.refreshToken }
            return nil
        }
    }

    /// The tokens as held (identify compares them with what the host authenticates).
    func currentTokens() throws(JumpError) -> TokenState {
        try state.withLock { s throws(JumpError) in try requireTokens(s) }
    }

    /// Remembers which external user the credential is for (identify), saves it, and gives the status.
    func noteExternalUser(_ externalID: String) -> TokenStatus {
        state.withLock { s -> TokenStatus in
            s.tokens.externalUserID = externalID
            persistCredential(&s)
            return TokenStatus(s.tokens)
        }
    }

    /// Why the credential's last save failed, if it did (reported in the client's state).
    var lastStorageError: JumpError? { state.answer { $0.storageError } }
}
