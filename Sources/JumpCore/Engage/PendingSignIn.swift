/// A browser sign-in that was begun and not yet completed: what its completion URL must look like and
/// what to do with the identity it brings.
struct PendingSignIn: Sendable {
    enum Completion: String, Sendable { case device, redirect }

    let state, provider: String
    let purpose: SocialPurpose
    let completion: Completion
    /// scheme://host[:port]/path the browser must end on (no query).
    let location: String
    let created: Int64
    /// A link belongs to the session that began it: completed under another one (a different user signed in
    /// meanwhile) it would add the identity to the wrong account.
    let sessionGeneration: UInt64?

    static let lifetimeSeconds: Int64 = 600
    static let maximumPending = 16
}

/// What a social identity is for: a sign-in (possibly finishing a merge), or linking to the signed-in user.
enum SocialPurpose: Sendable, Equatable {
    case signIn(mergeToken: String?)
    case link
}
