/// What an Engage sign-in produced: the auth_info token and, for browser sign-ins through /signin/device,
/// the device token (for sharing) and the profile.
struct EngageAuth: Sendable {
    let provider: String
    /// The 40-character auth_info token: a secret, valid for a few minutes.
    let token: String
    let deviceToken: String?
    let profile: JSON
}
