/// The Capture errors of social sign-in (docs/protocol.md §7.2, §7.3).
extension CaptureError {
    /// No record for the identity: the client continues with two-step registration (§11.3).
    static func recordNotFound(preregFields: [String: JSONValue], preregAttributes: [String: JSONValue]) -> CaptureError {
        CaptureError(code: 310, error: "record_not_found", description: "no user record is linked to this identity",
                     extras: ["prereg_fields": .object(preregFields), "prereg_attributes": .object(preregAttributes)])
    }

    /// Another account has the identity's email: the client continues with the merge flow (§11.2).
    static func emailAddressInUse(existingProvider: String) -> CaptureError {
        CaptureError(code: 380, error: "email_address_in_use",
                     description: "an account with this email address already exists",
                     extras: ["existing_provider": .string(existingProvider)])
    }

    /// Linking (or merging) an identity that belongs to another record.
    static func identityLinkedElsewhere() -> CaptureError {
        CaptureError(code: 361, error: "unique_violation",
                     description: "this identity is already linked to another account",
                     extras: ["attribute_name": "/profiles/identifier"])
    }

    /// Unlinking the only identity of an account that has no password would lock its owner out.
    static func lastSignInMethod() -> CaptureError {
        CaptureError(code: 360, error: "constraint_violation", description: "at least one sign-in method must remain")
    }
}
