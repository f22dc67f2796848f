/// identify_external_user (signin-token.md §4.3): reconciles the SDK's signed-in user with the app's own,
/// serialized, calling the app back only when they differ.
extension JumpClient {
    /// What the app's callback supplies: {"type":"sign_in_token","sign_in_token":".."} or
    /// {"type":"api_key","api_key":"..","user_id":"..","environment":"..","region":".."}.
    public typealias Authenticate = (String) throws(JumpError) -> JSON

    /// The outcome table (§4.3), without the reference SDKs' defects: the same external id is a no-op
    /// without calling back; a token for the signed-in user keeps the session (iOS), never a sign-out and
    /// sign-in (Android, §9 defect 1); a different user is signed out first, then in.
    @discardableResult
    public func identifyExternalUser(_ externalID: String, cancellation: Cancellation? = nil,
                                     authenticate: Authenticate) throws(JumpError) -> JSON {
        guard !externalID.isEmpty else { throw .invalidArgument("the external user id is empty", argument: "external_user_id") }
        return try tokens.credentialGate.withLock { _ throws(JumpError) -> JSON in
            let current = try tokens.state.withLock { s throws(JumpError) in try tokens.requireTokens(s) }
            if current.externalUserID == externalID, current.credential != nil {
                return ["action": "none", "user_id": .optional(current.credential?.userID)]
            }
            let request = try authenticate(externalID)
            var action = "signed_in"
            switch request["type"]?.stringValue {
            case "sign_in_token":
                guard let raw = request["sign_in_token"]?.stringValue else {
                    throw .invalidArgument("the authenticate callback gave no sign_in_token", argument: "sign_in_token")
                }
                let token = try SignInToken(raw)
                if let user = current.credential?.userID {
                    if TokenSession.mismatch(user, current.credential?.environment ?? token.environment, token) != nil {
                        try signOut()
                        action = "switched"
                    } else {
                        action = "kept"
                    }
                }
                let result = try tokens.signInLocked(token, cancellation: cancellation)
                if result["changed"] == true && action == "kept" { action = "reauthenticated" }
            case "api_key":
                guard let key = request["api_key"]?.stringValue, !key.isEmpty else {
                    throw .invalidArgument("the authenticate callback gave no api_key", argument: "api_key")
                }
                let environment = try TokenEnvironment(name: request["environment"]?.stringValue ?? "production",
                                                       region: request["region"]?.stringValue ?? "us")
                let user = request["user_id"]?.stringValue
                if let signedIn = current.credential?.userID {
                    if TokenState.sameUser(signedIn, user) && current.credential?.environment == environment {
                        action = "kept"
                    } else {
                        try signOut()
                        action = "switched"
                    }
                }
                try tokens.useAPIKeyLocked(key, userID: user, environment: environment)
            default:
                throw .invalidArgument("the authenticate callback's answer has no type \"sign_in_token\" or \"api_key\"",
                                       argument: "type")
            }
            let status = tokens.state.withLock { s -> TokenStatus in
                s.tokens.externalUserID = externalID
                tokens.persistCredential(&s)
                return TokenStatus(s.tokens)
            }
            emit(.statusChanged(status))
            return ["action": .string(action), "user_id": .optional(status.userID)]
        }
    }
}
