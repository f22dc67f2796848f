import JumpCore

/// The JSON of the results of sign-in and registration, sync, social begin, the Engage configuration load
/// and the decoded sign-in token (jump.h).
extension SignInResult {
    var json: JSON {
        ["is_new": .bool(isNew), "uuid": .optional(uuid), "authorization_code": .optional(authorizationCode),
         "kept_changes": .array(keptChanges.map(JSON.string))]
    }
}

extension SyncResult {
    var json: JSON {
        var names: [String: JSON] = [:]
        for (old, new) in renamed { names[old] = .string(new) }
        return ["changed": .array(changed.map(JSON.string)), "requests": .int(Int64(requests)), "renamed": .object(names)]
    }
}

extension JumpClient.SocialBegin {
    var json: JSON {
        ["url": .string(url), "state": .string(state), "completion": .string(completion),
         "completion_prefix": .string(completionPrefix)]
    }
}

extension EngageSession.EngageConfigLoad {
    var json: JSON { ["changed": .bool(changed), "from_cache": .bool(fromCache)] }
}

extension SignInToken {
    /// What an app may see of a token (no secret: the JWT itself is left out).
    var json: JSON {
        ["user_id": .string(userID), "team_id": .optional(teamID), "environment": .string(environment.name),
         "region": .string(environment.region), "expires_at": expiresAt.map(JSON.int) ?? .null]
    }
}
