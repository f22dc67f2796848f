/// The providers the emulator knows out of the box and their `provider_info` (docs/protocol.md §4.2).
///
/// Values are the "YES"/"NO" strings because iOS recognises nothing else.
enum EngageProviderCatalog {
    static let defaultSignInProviders = ["facebook", "google", "twitter", "linkedin", "openid", "yahoo"]
    static let defaultSharingProviders = ["facebook", "twitter", "linkedin"]

    /// The start-page path segment of custom SAML providers (`/saml2/sso/start`) is not a provider name;
    /// tokens and identities made there use this one.
    static let samlProvider = "saml"
    static let openIDProvider = "openid"

    /// The built-in info of `name`, or nil for a provider the emulator does not know.
    static func info(_ name: String) -> [String: JSONValue]? {
        guard let entry = entries[name] else { return nil }
        var info: [String: JSONValue] = [
            "friendly_name": .string(entry.friendlyName),
            "url": .string(entry.url ?? "/\(name)/start"),
            "requires_input": entry.inputPrompt == nil ? "NO" : "YES",
            "cookie_domains": .array(entry.cookieDomains.map(JSONValue.string)),
            "social_sharing_properties": .object(entry.sharing ?? genericSharing),
        ]
        if let prompt = entry.inputPrompt {
            info["input_prompt"] = .string(prompt)
            info["openid_identifier"] = "%@"
        }
        return info
    }

    /// The info of a provider an app names without describing it: enough for both SDKs to list it.
    static func genericInfo(_ name: String) -> [String: JSONValue] {
        [
            "friendly_name": .string(friendlyName(name)),
            "url": .string("/\(name)/start"),
            "requires_input": "NO",
            "cookie_domains": [.string("\(name).com")],
            "social_sharing_properties": .object(genericSharing),
        ]
    }

    static func friendlyName(_ name: String) -> String {
        if let entry = entries[name] { return entry.friendlyName }
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    private struct Entry {
        var friendlyName: String
        var cookieDomains: [String]
        var inputPrompt: String? = nil
        var url: String? = nil
        var sharing: [String: JSONValue]? = nil
    }

    private static let genericSharing: [String: JSONValue] = [
        "max_characters": 1000, "can_share_media": "NO", "uses_set_status_if_no_url": "NO",
        "content_replaces_action": "NO", "url_reduces_max_chars": "NO", "shows_url_as": "url",
    ]

    private static let entries: [String: Entry] = [
        "facebook": Entry(
            friendlyName: "Facebook", cookieDomains: ["facebook.com", "m.facebook.com"],
            sharing: [
                "max_characters": 420, "can_share_media": "YES", "uses_set_status_if_no_url": "NO",
                "content_replaces_action": "NO", "url_reduces_max_chars": "NO", "shows_url_as": "url",
                "desc_max_chars": 300, "color_values": [0.23, 0.35, 0.6],
            ]),
        "google": Entry(friendlyName: "Google", cookieDomains: ["google.com", "accounts.google.com"]),
        "twitter": Entry(
            friendlyName: "Twitter", cookieDomains: ["twitter.com", "api.twitter.com"],
            sharing: [
                "max_characters": 280, "can_share_media": "NO", "uses_set_status_if_no_url": "YES",
                "content_replaces_action": "YES", "url_reduces_max_chars": "YES", "shows_url_as": "shortened",
                "color_values": [0.2, 0.63, 0.95],
            ]),
        "linkedin": Entry(
            friendlyName: "LinkedIn", cookieDomains: ["linkedin.com", "www.linkedin.com"],
            sharing: [
                "max_characters": 700, "can_share_media": "YES", "uses_set_status_if_no_url": "YES",
                "content_replaces_action": "NO", "url_reduces_max_chars": "NO", "shows_url_as": "url",
                "desc_max_chars": 256, "color_values": [0.0, 0.47, 0.71],
            ]),
        "openid": Entry(friendlyName: "OpenID", cookieDomains: [], inputPrompt: "Enter your OpenID URL"),
        "yahoo": Entry(friendlyName: "Yahoo!", cookieDomains: ["yahoo.com", "login.yahoo.com"]),
        "saml": Entry(friendlyName: "SAML", cookieDomains: [], url: "/saml2/sso/start"),
    ]
}
