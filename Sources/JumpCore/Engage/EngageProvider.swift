/// One provider of the Engage configuration (docs/protocol.md §4.2), or a custom OpenID / SAML provider (§4.3).
public struct EngageProvider: Sendable, Equatable {
    public enum Custom: String, Sendable { case openid, saml }

    public let name: String
    public let friendlyName: String
    /// The start path under the RP base URL, e.g. "/facebook/start".
    let startPath: String
    public let requiresInput: Bool
    public let inputPrompt: String?
    /// With `%@` where the user's input goes.
    let openidIdentifier: String?
    let opxBlob: String?
    let samlProvider: String?
    public let custom: Custom?
    public let sharingProperties: JSON

    /// A provider_info entry. The SDKs accept "YES"/"NO" and booleans alike (§4.2).
    init(name: String, info: JSON) {
        self.name = name
        friendlyName = info["friendly_name"]?.stringValue ?? name
        let url = info["url"]?.stringValue ?? "/\(name)/start"
        startPath = url.hasPrefix("/") ? url : "/" + url
        requiresInput = EngageProvider.flag(info["requires_input"])
        inputPrompt = info["input_prompt"]?.stringValue
        openidIdentifier = info["openid_identifier"]?.stringValue
        opxBlob = info["opx_blob"]?.stringValue
        samlProvider = info["saml_provider"]?.stringValue
        custom = nil
        sharingProperties = info["social_sharing_properties"] ?? [:]
    }

    /// An app-supplied provider (engageCustomProviders): OpenID with `openid_identifier` (and `opx_blob`),
    /// or SAML with `saml_provider`; anything else is a configuration mistake worth naming.
    init(customName name: String, info: JSON) throws(JumpError) {
        self.name = name
        friendlyName = info["friendly_name"]?.stringValue ?? name
        opxBlob = info["opx_blob"]?.stringValue
        sharingProperties = [:]
        if let identifier = info["openid_identifier"]?.stringValue, !identifier.isEmpty {
            custom = .openid
            startPath = "/openid/start"
            openidIdentifier = identifier
            samlProvider = nil
            requiresInput = identifier.contains("%@")
            inputPrompt = requiresInput ? (info["input_prompt"]?.stringValue ?? "Enter your \(friendlyName) user name") : nil
        } else if let saml = info["saml_provider"]?.stringValue, !saml.isEmpty {
            custom = .saml
            startPath = "/saml2/sso/start"
            openidIdentifier = nil
            samlProvider = saml
            requiresInput = false
            inputPrompt = nil
        } else {
            throw .invalidArgument(
                "custom provider '\(name)' needs an openid_identifier or a saml_provider", argument: "engageCustomProviders")
        }
    }

    /// The UI label: the last two words of the prompt, as the reference SDKs show it.
    public var inputLabel: String? {
        guard let inputPrompt else { return nil }
        let words = inputPrompt.split(separator: " ")
        return words.suffix(2).joined(separator: " ")
    }

    /// Uses set_status instead of activity when the shared activity has no URL (§4.8).
    var usesSetStatusWithoutURL: Bool { EngageProvider.flag(sharingProperties["uses_set_status_if_no_url"]) }

    static func flag(_ value: JSON?) -> Bool {
        switch value {
        case .bool(let b)?: return b
        case .string(let s)?: return ["yes", "true"].contains(s.lowercased())
        default: return false
        }
    }
}
