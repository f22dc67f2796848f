import JumpRuntime

/// A client's settings, checked and resolved once when it is made, in parts: each owner (docs/conventions.md,
/// One owner per credential) is given its own part and nothing else.
struct ClientSettings: Sendable {
    let capture: CaptureSettings
    let engage: EngageSettings
    let tokens: SignInTokenSettings
    let storage: StorageSettings
    let transport: TransportSettings
    /// The cookie (and title key) a web login leaves its token in (JumpClient.webLogin's).
    let webLoginCookieName: String
    /// The deadline of each whole call (CallDeadline); 0: none.
    let operationTimeoutMs: Int
    /// `accounts` "multiple": several users stay signed in, one of them active (CaptureAccounts).
    let multipleAccounts: Bool

    init(_ config: JumpConfig) throws(JumpError) {
        let emulator = try EmulatorHost(config)
        capture = try CaptureSettings(config, emulator: emulator)
        engage = try EngageSettings(config)
        tokens = try SignInTokenSettings(config, emulator: emulator, capture: capture)
        storage = StorageSettings(config)
        transport = try TransportSettings(config, emulator: emulator)
        webLoginCookieName = config.defaulted(.webLoginCookieName)
        operationTimeoutMs = Int(config.int(.operationTimeoutMs))
        multipleAccounts = config.defaulted(.accounts) == "multiple"
    }
}

/// TokenSession's part: where sign-in tokens are exchanged and used, the API key's header, and its entries.
struct SignInTokenSettings: Sendable {
    /// The token endpoint and API hosts, when not derived from the token (the emulator).
    let authBaseOverride, apiBaseOverride: ServerURL?
    /// The header that carries a team API key.
    let apiKeyHeader: String
    let refreshMarginSeconds: Int64
    let requestTimeoutMs: Int
    /// The credential (secrets) and its secret-free gist: named after the installation (StorageEntryNames).
    let credentialFileName, gistFileName: String

    init(_ config: JumpConfig, emulator: EmulatorHost?, capture: CaptureSettings) throws(JumpError) {
        authBaseOverride = try CaptureSettings.server(config, .signInTokenAuthBaseUrl, emulator)
        apiBaseOverride = try CaptureSettings.server(config, .signInTokenApiBaseUrl, emulator)
        apiKeyHeader = config.defaulted(.apiKeyHeader)
        refreshMarginSeconds = config.int(.tokenRefreshMarginSeconds)
        requestTimeoutMs = Int(config.int(.requestTimeoutMs))
        credentialFileName = capture.credentialFileName
        gistFileName = capture.gistFileName
    }
}

/// ClientStorage's part: where entries go.
struct StorageSettings: Sendable {
    /// nil: keep the session in memory only.
    let directory: String?
    /// secretStore: "auto", "secret-service" or "file" (ClientStorage decides with it).
    let secretStore: String

    init(_ config: JumpConfig) {
        switch config.string(.storageDirectory) {
        case ":memory:": directory = nil
        case let directory?: self.directory = directory
        case nil: directory = CaptureSettings.defaultStorageDirectory()
        }
        secretStore = config.defaulted(.secretStore)
    }
}

/// The transport's part: timeouts, limits, the User-Agent, the network (retries, proxy, TLS) and the emulator.
struct TransportSettings: Sendable {
    let connectTimeoutMs, requestTimeoutMs, maxResponseBytes: Int
    /// "MyApp/2.3 libjump/0.1.0 (linux; x86_64)", or libjump's part alone.
    let userAgent: String
    let network: NetworkSettings
    /// Set: every endpoint goes to this emulator (EmulatorHost), whatever the URL keys say.
    let emulator: EmulatorHost?

    init(_ config: JumpConfig, emulator: EmulatorHost?) throws(JumpError) {
        self.emulator = emulator
        connectTimeoutMs = Int(config.int(.connectTimeoutMs))
        requestTimeoutMs = Int(config.int(.requestTimeoutMs))
        maxResponseBytes = Int(config.int(.maxResponseBytes))
        network = try NetworkSettings(config)
        if let app = config.string(.userAgentApp) {
            do { try HeaderGrammar.check(name: "User-Agent", value: app) } catch {
                throw .invalidArgument("configuration key 'userAgentApp' holds a control character", argument: "userAgentApp")
            }
            userAgent = app + " " + LibraryVersion.userAgent
        } else {
            userAgent = LibraryVersion.userAgent
        }
    }
}
