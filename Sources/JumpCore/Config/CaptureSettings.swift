import Glibc

/// The configuration, checked and resolved once when a client is made.
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
    let connectTimeoutMs, requestTimeoutMs, maxResponseBytes: Int
    /// "MyApp/2.3 libjump/0.1.0 (linux; x86_64)", or libjump's part alone.
    let userAgent: String
    /// Sign-in tokens: the token endpoint and API hosts, when not derived from the token (the emulator).
    let authBaseOverride, apiBaseOverride: ServerURL?
    /// The header that carries a team API key.
    let apiKeyHeader: String
    /// The cookie (and title key) a web login leaves its token in.
    let webLoginCookieName: String
    /// A schema file given in the configuration (captureSchemaFile).
    let schemaFile: String?
    /// nil: keep the session in memory only.
    let storageDirectory: String?
    /// secretStore: "auto", "secret-service" or "file" (ClientStorage decides with it).
    let secretStore: String
    /// Set: every endpoint goes to this emulator (EmulatorHost), whatever the URL keys say.
    let emulator: EmulatorHost?

    init(_ config: JumpConfig) throws(JumpError) {
        let emulator = try EmulatorHost(config)
        self.emulator = emulator
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
        schemaFile = config.string(.captureSchemaFile)
        authBaseOverride = try CaptureSettings.server(config, .signInTokenAuthBaseUrl, emulator)
        apiBaseOverride = try CaptureSettings.server(config, .signInTokenApiBaseUrl, emulator)
        apiKeyHeader = config.defaulted(.apiKeyHeader)
        webLoginCookieName = config.defaulted(.webLoginCookieName)
        connectTimeoutMs = Int(config.int(.connectTimeoutMs))
        requestTimeoutMs = Int(config.int(.requestTimeoutMs))
        maxResponseBytes = Int(config.int(.maxResponseBytes))
        if let app = config.string(.userAgentApp), !app.isEmpty {
            do { try HeaderGrammar.check(name: "User-Agent", value: app) } catch {
                throw .invalidArgument("configuration key 'userAgentApp' holds a control character", argument: "userAgentApp")
            }
            userAgent = app + " " + LibraryVersion.userAgent
        } else {
            userAgent = LibraryVersion.userAgent
        }
        switch config.string(.storageDirectory) {
        case ":memory:": storageDirectory = nil
        case let directory?: storageDirectory = directory
        case nil: storageDirectory = CaptureSettings.defaultStorageDirectory()
        }
        secretStore = config.defaulted(.secretStore)
    }

    /// A URL key's server: the emulator's when the switch is on, nil when the key is unset.
    private static func server(_ config: JumpConfig, _ key: ConfigKey, _ emulator: EmulatorHost?) throws(JumpError) -> ServerURL? {
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
