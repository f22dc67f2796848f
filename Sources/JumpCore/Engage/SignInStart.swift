/// The provider start URL (docs/protocol.md §4.4): `<baseurl><provider url>?<params>`, in Android's parameter
/// order, plus our `state`. The completion style decides between the /signin/device ending (`device`) and
/// a redirect to `token_url` with `?token=`.
struct SignInStart: Sendable {
    let url: String
    let completionLocation: String

    init(config: EngageConfig, provider: EngageProvider, appID: String?, device: String = "android", input: String?,
         forceReauth: Bool,
         redirectURI: String?, state: String, installationID: String) throws(JumpError) {
        var p = FormParameters()
        p.add("extended", "true")
        if let identifier = provider.openidIdentifier {
            let text = input ?? ""
            if provider.requiresInput && text.isEmpty {
                throw JumpError(.validation, "provider '\(provider.name)' needs the user's input (\(provider.inputPrompt ?? "input"))",
                                detail: ["invalid_fields": ["input": [.string(provider.inputPrompt ?? "Input required")]]])
            }
            p.add("openid_identifier", identifier.replacing("%@", with: provider.requiresInput ? text : ""))
            p.add("opx_blob", provider.opxBlob)
        } else {
            p.add("saml_provider", provider.samlProvider)
        }
        if let redirectURI {
            // The state rides inside token_url too: Engage appends the token to it, so the redirect carries it.
            let separator = redirectURI.contains("?") ? "&" : "?"
            p.add("token_url", redirectURI + separator + "state=" + FormParameters.escape(state, keepBrackets: false))
            completionLocation = QueryString.location(of: redirectURI)
        } else {
            // Engage's mobile endpoint answers with the /signin/device ending for the mobile device types.
            p.add("device", device)
            completionLocation = config.baseURL + "/signin/device"
        }
        if forceReauth { p.add("force_reauth", "true") }
        p.add("installation_id", installationID)
        p.add("applicationId", appID)
        p.add("state", state)
        url = config.baseURL + provider.startPath + "?" + p.encoded
    }
}
