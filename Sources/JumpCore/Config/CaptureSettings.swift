/// The Capture part of a client's settings (ClientSettings): the app, its flow and forms, and what
/// CaptureSession needs of the rest (the request timeout its waits end at, the token refresh margin).
struct CaptureSettings: Sendable {
    /// nil when the app uses no Capture (sign-in tokens or API keys only): Capture calls then say what is missing.
    let base: ServerURL?
    /// The Capture app and its flow (captureClientId, captureAppId, captureFlowName, captureFlowVersion: "HEAD" is
    /// the newest), the locale of its messages and what a sign-in returns (captureResponseType).
    let clientID, appID, flowName: String?
    let flowVersion, locale, responseType: String
    let flowDomain: ServerURL?
    /// The names of the flow's forms libjump submits (capture*FormName).
    let forms: FormNames
    /// captureRedirectUri, else the Capture base URL; nil without Capture (no redirect_uri is sent).
    let redirectURI: String?
    let refreshMarginSeconds: Int64
    let requestTimeoutMs: Int
    /// A schema file given in the configuration (captureSchemaFile).
    let schemaFile: String?
    /// Which saved account's session this is (`accounts` "multiple"): "" for the first, whose entries keep the
    /// names a single-account client has always used (StorageEntryNames).
    private(set) var account = ""

    init(_ config: JumpConfig, emulator: EmulatorHost?) throws(JumpError) {
        base = try CaptureSettings.server(config, .captureDomain, emulator)
        clientID = config.string(.captureClientId)
        locale = config.defaulted(.captureLocale)
        appID = config.string(.captureAppId)
        flowName = config.string(.captureFlowName)
        flowVersion = config.defaulted(.captureFlowVersion)
        flowDomain = try CaptureSettings.server(config, .captureFlowDomain, emulator)
        forms = FormNames(config)
        redirectURI = config.string(.captureRedirectUri) ?? base?.base
        responseType = config.defaulted(.captureResponseType)
        refreshMarginSeconds = config.int(.tokenRefreshMarginSeconds)
        requestTimeoutMs = Int(config.int(.requestTimeoutMs))
        schemaFile = config.string(.captureSchemaFile)
    }

    /// The same settings for another saved account's session (its own entries on storage).
    func forAccount(_ slot: String) -> CaptureSettings {
        var other = self
        other.account = slot
        return other
    }

    /// A URL key's server: the emulator's when the switch is on, nil when the key is unset.
    static func server(_ config: JumpConfig, _ key: ConfigKey, _ emulator: EmulatorHost?) throws(JumpError) -> ServerURL? {
        if let emulator { return emulator.server }
        guard let text = config.string(key) else { return nil }
        return try ServerURL(text, key: key.rawValue)
    }

    /// Where the flow file lives (docs/protocol.md §9.1), when the flow is configured.
    var flowURL: String? {
        guard let appID, let flowName, let flowDomain else { return nil }
        let parts = [appID, flowName, flowVersion].map { FormParameters.escape($0, keepBrackets: false) }
        return flowDomain.url("/widget_data/flows/\(parts.joined(separator: "/"))/\(FormParameters.escape(locale, keepBrackets: false)).json")
    }
}
