/// What a form posted to `update_profile_native` does, read from its fields (so custom flows work
/// the same way as the default one):
///
/// - no password field: a profile edit (`editProfileForm`);
/// - a current password and a new password: a password change (`changePasswordForm`);
/// - only a new password (and its confirmation): setting the password with the access token alone
///   (`changePasswordFormNoAuth`, used after a reset code was exchanged).
///
/// The new password is the password field another field must `match` (or `newPassword`); any other
/// field that writes `password`, a confirmation aside, is the current one. Other forms (sign-in, registration) are not
/// profile forms.
enum ProfileForm {
    case editProfile
    case changePassword(current: FlowField, new: FlowField)
    case setPassword(new: FlowField)

    init?(fields: [FlowField]) {
        guard fields.contains(where: { $0.type == "password" }) else {
            self = .editProfile
            return
        }
        let passwordFields = fields.filter { $0.type == "password" && $0.schemaPath == "password" }
        let matched = Set(fields.compactMap { $0.rule("match")?.value?.stringValue })
        guard let new = passwordFields.first(where: { matched.contains($0.name) })
            ?? passwordFields.first(where: { $0.name == "newPassword" })
        else { return nil }
        // A confirmation (a field that must match another) writes the new password too; it is no current one.
        let others = passwordFields.filter { $0.name != new.name && $0.rule("match") == nil }
        let writesOtherAttributes = fields.contains { $0.type != "password" && $0.schemaId != .none }
        switch (others.count, writesOtherAttributes) {
        case (1, false): self = .changePassword(current: others[0], new: new)
        case (0, false): self = .setPassword(new: new)
        default: return nil
        }
    }
}
