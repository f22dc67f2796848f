/// The fake identity provider's sign-in page: one form per test identity ("Continue as ..."), a form that
/// makes a new identity, and a cancel form. Each form posts to the provider's callback with the start
/// parameters as hidden inputs. A banner says it is the emulator, and each identity shows its number,
/// identifier and creation time, so two identities with the same name and email can be told apart. The
/// markup is `IdentityProviderTemplate`'s.
struct EngageSignInPage: Sendable {
    var friendlyName: String
    var callbackPath: String
    var identities: [EngageIdentityRow]
    var hidden: [(String, String)]
    var forceReauth: Bool
    var error: String?

    /// What the template renders (plain stored values: the renderer reads them by reflection).
    struct Model: Sendable {
        let provider: String
        let callbackPath: String
        let hidden: [Hidden]
        let forceReauth: Bool
        let hasError: Bool
        let error: String
        let hasIdentities: Bool
        let identities: [Identity]
    }

    struct Hidden: Sendable {
        let name: String
        let value: String
    }

    struct Identity: Sendable {
        /// 1-based position on the page: the button is `identity-<number>`.
        let number: Int
        let id: Int64
        let name: String
        let email: String
        let identifier: String
        let created: String
        let appOnly: Bool
    }

    var model: Model {
        let shown = identities.enumerated().map { index, identity in
            let profile = identity.profile
            return Identity(
                number: index + 1, id: identity.id ?? 0,
                name: profile["displayName"]?.stringValue ?? identity.identifier,
                email: profile["email"]?.stringValue ?? "no email", identifier: identity.identifier,
                created: DashboardText.time(identity.created), appOnly: identity.engageAppId != nil)
        }
        return Model(
            provider: friendlyName, callbackPath: callbackPath, hidden: hidden.map { Hidden(name: $0.0, value: $0.1) },
            forceReauth: forceReauth, hasError: error != nil, error: error ?? "", hasIdentities: !shown.isEmpty,
            identities: shown)
    }

    var html: String {
        DashboardTemplates.render(.identityProvider, model)
    }
}
