import Glibc

/// The configuration, checked and resolved once when a client is made.
struct CaptureSettings: Sendable {
    /// nil when the app uses no Capture (sign-in tokens or API keys only): Capture calls then say what is missing.
    let base: ServerURL?
    let clientID: String?
    let locale: String
    let appID: String?
    let flowName: String?
    let flowVersion: String?
    let flowDomain: ServerURL?
    let signInForm: String
    let registrationForm: String
    let editProfileForm: String
    let changePasswordForm: String
    let forgotPasswordForm: String
    let resendVerificationForm: String
    let redirectURI: String
    let responseType: String
    let refreshMarginSeconds: Int64
    let connectTimeoutMs: Int
    let requestTimeoutMs: Int
    let maxResponseBytes: Int
    /// "MyApp/2.3 libjump/0.1.0 (linux; x86_64)", or libjump's part alone.
    let userAgent: String
    /// Sign-in tokens: the token endpoint and API hosts, when not derived from the token (the emulator).
    let authBaseOverride: ServerURL?
    let apiBaseOverride: ServerURL?
    /// The header that carries a team API key.
    let apiKeyHeader: String
    /// The cookie (and title key) a web login leaves its token in.
    let webLoginCookieName: String
    /// A schema file given in the configuration (captureSchemaFile).
    let schemaFile: String?
    /// nil: keep the session in memory only.
    let storageDirectory: String?
    /// Set: every endpoint goes to this emulator (EmulatorHost), whatever the URL keys say.
    let emulator: EmulatorHost?

    init(_ config: JumpConfig) throws(JumpError) {
        let emulator = try EmulatorHost(config)
        self.emulator = emulator
        base = try CaptureSettings.server(config, .captureDomain, emulator)
        clientID = config.string(.captureClientId)
        locale = config.string(.captureLocale) ?? "en-US"
        appID = config.string(.captureAppId)
        flowName = config.string(.captureFlowName)
        flowVersion = config.string(.captureFlowVersion)
        flowDomain = try CaptureSettings.server(config, .captureFlowDomain, emulator)
        signInForm = config.string(.captureTraditionalSignInFormName) ?? "signInForm"
        registrationForm = config.string(.captureTraditionalRegistrationFormName) ?? "registrationForm"
        editProfileForm = config.string(.captureEditUserProfileFormName) ?? "editProfileForm"
        changePasswordForm = config.string(.captureChangePasswordFormName) ?? "changePasswordForm"
        forgotPasswordForm = config.string(.captureForgotPasswordFormName) ?? "forgotPasswordForm"
        resendVerificationForm = config.string(.captureResendEmailVerificationFormName) ?? "resendVerificationForm"
        redirectURI = config.string(.captureRedirectUri) ?? base?.base ?? ""
        responseType = config.string(.captureResponseType) ?? "token"
        refreshMarginSeconds = config.int(.tokenRefreshMarginSeconds)
        schemaFile = config.string(.captureSchemaFile)
        authBaseOverride = try CaptureSettings.server(config, .signInTokenAuthBaseUrl, emulator)
        apiBaseOverride = try CaptureSettings.server(config, .signInTokenApiBaseUrl, emulator)
        apiKeyHeader = config.string(.apiKeyHeader) ?? "x-jump-api-key"
        webLoginCookieName = config.string(.webLoginCookieName) ?? "oauth_token"
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
        let parts = [appID, flowName, flowVersion ?? "HEAD"].map { FormParameters.escape($0, keepBrackets: false) }
        return flowDomain.url("/widget_data/flows/\(parts.joined(separator: "/"))/\(FormParameters.escape(locale, keepBrackets: false)).json")
    }

    /// A file name unique to this app installation's Capture client, safe on any file system.
    var sessionFileName: String { "session-\(installationName).json" }

    /// Names this installation's entries: the Capture client when there is one, else the token scheme's.
    var installationName: String {
        "\(CaptureSettings.safeName(clientID ?? "tokens"))-\(CaptureSettings.fnv1a(base?.base ?? ""))"
    }

    var credentialFileName: String { "credential-\(installationName).json" }
    var gistFileName: String { "gist-\(installationName).json" }
    /// The device tokens of browser sign-ins (secrets: they let the app share as the user).
    var socialFileName: String { "social-\(installationName).json" }

    /// The record journal kept next to the session.
    var journalFileName: String { "journal-" + sessionFileName.dropFirst("session-".count) }

    var schemaFileName: String { "schema-\(installationName).json" }

    /// The index of sessions set aside (see QuarantineEntry); each one's entries are named after it.
    var quarantineFileName: String { "quarantine-\(installationName).json" }
    func quarantinedName(_ id: String, of entry: String) -> String { "quarantined-\(id)-\(entry)" }

    var flowFileName: String {
        let parts = [appID ?? "-", flowName ?? "-", flowVersion ?? "HEAD", locale].map(CaptureSettings.safeName)
        return "flow-\(parts.joined(separator: "-"))-\(CaptureSettings.fnv1a(flowURL ?? "")).json"
    }

    static func defaultStorageDirectory() -> String {
        if let xdg = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") { return xdg + "/jump" }
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty { return home + "/.local/share/jump" }
        return "./.jump"
    }

    /// Letters, digits, "-", "_" and "." kept, any other character "_" (one per character, as always: the
    /// names of saved entries must not change). ASCII tests only: Character.isLetter loads Unicode tables
    /// at the first client's creation.
    static func safeName(_ s: String) -> String {
        String(s.prefix(48).map { c -> Character in
            guard let a = c.asciiValue, c.unicodeScalars.count == 1 else { return "_" }
            let kept = (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A)
                || a == UInt8(ascii: "-") || a == UInt8(ascii: "_") || a == UInt8(ascii: ".")
            return kept ? c : "_"
        })
    }

    static func fnv1a(_ s: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in s.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }
}
