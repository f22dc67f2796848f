/// The Engage part of the configuration, checked once when a client is made.
struct EngageSettings: Sendable {
    let appID: String?
    /// Where the configuration is fetched and /api/v2 calls go (docs/protocol.md §4.1).
    let server: ServerURL
    let whitelistedDomain: String?
    /// "token_profile": the browser ends on <baseurl>/signin/device; "token": on the whitelisted domain.
    let responseType: String
    /// In the order of their ids: a JSON object has none of its own.
    let customProviders: [EngageProvider]
    let tokenURL: String?
    let socialRegistrationForm: String
    let thinRegistration: Bool
    /// The device type Engage's mobile endpoints are told (engageDevice): it picks the provider set.
    let device: String

    init(_ config: JumpConfig) throws(JumpError) {
        appID = config.string(.engageAppId)
        if let emulator = try EmulatorHost(config) {
            server = emulator.server
        } else {
            server = try ServerURL(config.defaulted(.engageDomain), key: "engageDomain")
        }
        whitelistedDomain = try config.string(.engageWhitelistedDomain).map { s throws(JumpError) in
            try EngageSettings.checkedURL(s, key: "engageWhitelistedDomain")
        }
        responseType = config.defaulted(.engageResponseType)
        var custom: [EngageProvider] = []
        if case .object(let members)? = config.value(.engageCustomProviders) {
            for name in members.keys.sorted() {
                custom.append(try EngageProvider(customName: name, info: members[name] ?? .null))
            }
        }
        customProviders = custom
        tokenURL = try config.string(.engageTokenUrl).map { s throws(JumpError) in
            try EngageSettings.checkedURL(s, key: "engageTokenUrl")
        }
        socialRegistrationForm = config.defaulted(.captureSocialRegistrationFormName)
        thinRegistration = config.bool(.captureEnableThinRegistration)
        device = config.defaulted(.engageDevice)
    }

    /// An absolute http(s) URL; plain http only for loopback hosts, as for every server we talk to.
    static func checkedURL(_ text: String, key: String) throws(JumpError) -> String {
        let value = text.trimmingSpaces()
        let lower = value.lowercased()
        let scheme = lower.hasPrefix("https://") ? "https://" : lower.hasPrefix("http://") ? "http://" : nil
        guard let scheme else {
            throw .invalidArgument("'\(key)' must be an http(s) URL", argument: key)
        }
        let authority = value.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = ServerURL.host(ofAuthority: String(authority))
        guard !host.isEmpty, !authority.contains("@"), !value.contains(where: { $0 == " " || $0 == "\n" }) else {
            throw .invalidArgument("'\(key)' is not a usable URL", argument: key)
        }
        if scheme == "http://" && !ServerURL.isLoopback(host) {
            throw .invalidArgument("'\(key)' must use https (plain http is only allowed for loopback hosts)", argument: key)
        }
        return value
    }

    /// The cache entry of the Engage configuration: one per Engage app and server.
    var configFileName: String {
        "engage-\(CaptureSettings.safeName(appID ?? "-"))-\(CaptureSettings.fnv1a(server.base)).json"
    }
}
