import JumpCore

/// The JSON of jump_client_sign_in_with_token and jump_client_identify_external_user, and the authenticate
/// callback's answer read into a typed credential.
extension TokenSignIn {
    var json: JSON { ["user_id": .string(userID), "changed": .bool(changed), "migrated": .bool(migrated)] }
}

extension JumpClient.IdentifyOutcome {
    var json: JSON { ["action": .string(action.rawValue), "user_id": .optional(userID)] }
}

extension JumpClient.ExternalCredential {
    /// {"type":"sign_in_token","sign_in_token":".."} or
    /// {"type":"api_key","api_key":"..","user_id":"..","environment":"..","region":".."} (jump.h).
    init(answer: JSON) throws(JumpError) {
        switch answer["type"]?.stringValue {
        case "sign_in_token":
            guard let raw = answer["sign_in_token"]?.stringValue else {
                throw .invalidArgument("the authenticate callback gave no sign_in_token", argument: "sign_in_token")
            }
            self = .signInToken(raw)
        case "api_key":
            guard let key = answer["api_key"]?.stringValue, !key.isEmpty else {
                throw .invalidArgument("the authenticate callback gave no api_key", argument: "api_key")
            }
            let environment = try TokenEnvironment(name: answer["environment"]?.stringValue ?? "production",
                                                   region: answer["region"]?.stringValue ?? "us")
            self = .apiKey(key: key, userID: answer["user_id"]?.stringValue, environment: environment)
        default:
            throw .invalidArgument("the authenticate callback's answer has no type \"sign_in_token\" or \"api_key\"",
                                   argument: "type")
        }
    }
}
