import JumpCore

/// jump_client_accounts's document (jump.h): {"accounts": [...], "active": uuid or null}.
extension [SavedAccount] {
    var json: JSON {
        [
            "accounts": .array(map { account in
                [
                    "uuid": .string(account.uuid),
                    "email": .optional(account.email),
                    "display_name": .optional(account.displayName),
                    "signed_in": .bool(account.signedIn),
                    "reauthentication_required": .bool(account.reauthenticationRequired),
                    "last_used": account.lastUsed.map(JSON.int) ?? .null,
                    "active": .bool(account.active),
                ]
            }),
            "active": .optional(first { $0.active }?.uuid),
        ]
    }
}
