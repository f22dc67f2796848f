import JumpCore

/// The JSON of jump_client_credentials (jump.h): {"kind","access_token","expires_at","expires_in","refreshed"}.
extension Credentials {
    var json: JSON {
        ["kind": .string(kind.rawValue), "access_token": .string(accessToken),
         "expires_at": expiresAt.map(JSON.int) ?? .null, "expires_in": expiresIn.map(JSON.int) ?? .null,
         "refreshed": .bool(refreshed)]
    }
}
