import JumpCore

/// The JSON of the social sign-in outcomes, of jump_client_request's answer and of the token URL's answer.
extension SocialOutcome {
    var json: JSON {
        if kind == .authenticated {
            return ["outcome": .string(kind.rawValue), "provider": .string(provider), "token": .optional(engageToken),
                    "device_token": .optional(deviceToken), "profile": profile ?? .null,
                    "token_url_response": tokenURLResponse?.json ?? .null]
        }
        return ["outcome": .string(kind.rawValue), "provider": .string(provider), "is_new": .bool(isNew),
                "uuid": .optional(uuid), "authorization_code": .optional(authorizationCode), "merged": .bool(merged),
                "identifier": .optional(identifier)]
    }
}

extension JumpClient.AuthorizedResponse {
    /// {"status","headers":[[name,value]..],"body"} (text), or "body":null and "body_base64" when the body is
    /// not UTF-8.
    var json: JSON {
        var members: [String: JSON] = [
            "status": .int(Int64(status)),
            "headers": .array(headers.map { [.string($0.0), .string($0.1)] }),
        ]
        if let text = String(validating: body, as: UTF8.self) {
            members["body"] = .string(text)
        } else {
            members["body"] = .null
            members["body_base64"] = .string(Base64.encode(body))
        }
        return .object(members)
    }
}

extension TokenURLResponse {
    var json: JSON {
        var members = response.json.objectValue ?? [:]
        members["cookies"] = .array(cookies)
        return .object(members)
    }
}
