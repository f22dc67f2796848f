import JumpRuntime

/// identify_external_user (docs/protocol.md §12.6): reconciles the SDK's signed-in user with the app's own,
/// serialized, calling the app back only when they differ.
extension JumpClient {
    /// What the app's callback supplies for the external user: a sign-in token from its backend, or API-key
    /// credentials.
    public enum ExternalCredential: Sendable {
        case signInToken(String)
        case apiKey(key: String, userID: String?, environment: TokenEnvironment)
    }

    public typealias Authenticate = (String) throws(JumpError) -> ExternalCredential

    /// What identify did: nothing (the same external user), kept the signed-in user's session,
    /// re-authenticated it, signed in, or switched (signed the other user out first).
    public struct IdentifyOutcome: Sendable, Equatable {
        public enum Action: String, Sendable { case none, kept, reauthenticated, signedIn = "signed_in", switched }
        public let action: Action
        public let userID: String?
    }

    /// The outcome table (§12.6), without the reference SDKs' defects: the same external id is a no-op
    /// without calling back; a token for the signed-in user keeps the session (iOS), never a sign-out and
    /// sign-in (Android, §12.10 item 1); a different user is signed out first, then in.
    @discardableResult
    public func identifyExternalUser(_ externalID: String, cancellation: Cancellation? = nil,
                                     authenticate: Authenticate) throws(JumpError) -> IdentifyOutcome {
        guard !externalID.isEmpty else { throw .invalidArgument("the external user id is empty", argument: "external_user_id") }
        return try tokens.credentialGate.withLock { _ throws(JumpError) -> IdentifyOutcome in
            let current = try tokens.currentTokens()
            if current.externalUserID == externalID, current.credential != nil {
                return IdentifyOutcome(action: .none, userID: current.credential?.userID)
            }
            var action = IdentifyOutcome.Action.signedIn
            switch try authenticate(externalID) {
            case .signInToken(let raw):
                let token = try SignInToken(raw)
                if let user = current.credential?.userID {
                    if TokenSession.mismatch(user, current.credential?.environment ?? token.environment, token) != nil {
                        try signOut()
                        action = .switched
                    } else {
                        action = .kept
                    }
                }
                let result = try tokens.signInLocked(token, cancellation: cancellation)
                if result.changed && action == .kept { action = .reauthenticated }
            case .apiKey(let key, let user, let environment):
                guard !key.isEmpty else {
                    throw .invalidArgument("the authenticate callback gave no api_key", argument: "api_key")
                }
                if let signedIn = current.credential?.userID {
                    if TokenState.sameUser(signedIn, user) && current.credential?.environment == environment {
                        action = .kept
                    } else {
                        try signOut()
                        action = .switched
                    }
                }
                try tokens.useAPIKeyLocked(key, userID: user, environment: environment)
            }
            let status = tokens.noteExternalUser(externalID)
            emit(.statusChanged(status))
            return IdentifyOutcome(action: action, userID: status.userID)
        }
    }
}
