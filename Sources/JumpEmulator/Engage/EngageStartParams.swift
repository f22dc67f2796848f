/// The query of a provider start page (docs/protocol.md §4.4). The page repeats them as hidden inputs of its
/// forms, so the callback sees what the start page saw.
struct EngageStartParams: Sendable {
    static let names = [
        "extended", "openid_identifier", "opx_blob", "saml_provider", "device", "force_reauth", "installation_id",
        "applicationId", "token_url", "state",
    ]

    let params: FormParams

    /// The parameters present, in a fixed order.
    var hidden: [(String, String)] {
        Self.names.compactMap { name in params[name].map { (name, $0) } }
    }

    var applicationId: String { params.nonEmpty("applicationId") ?? EngageApp.defaultId }
    /// nil: device mode (the flow ends on /signin/device). Present but empty is a malformed one.
    var tokenURL: String? { params["token_url"] }
    var state: String? { params.nonEmpty("state") }
    var openIDIdentifier: String { params["openid_identifier"]?.trimmingCharacters(in: .whitespaces) ?? "" }
    var samlProvider: String? { params.nonEmpty("saml_provider") }
    var forceReauth: Bool { params["force_reauth"]?.lowercased() == "true" }
}
