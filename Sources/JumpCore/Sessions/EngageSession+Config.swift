import JumpRuntime

/// The Engage app configuration (docs/protocol.md §4.2): fetched with its ETag, cached, and used at start-up
/// before the network answers; plus the app's custom providers (§4.3).
extension EngageSession {
    public struct EngageConfigLoad: Sendable, Equatable {
        public let changed: Bool
        public let fromCache: Bool
    }

    /// Fetches the configuration now (If-None-Match with the cached ETag). A 304 keeps the cached copy;
    /// a failed fetch falls back to it, and fails only when there is none.
    @discardableResult
    public func loadEngageConfig(cancellation: Cancellation? = nil) throws(JumpError) -> EngageConfigLoad {
        let known = state.withLock { $0.engageConfig } ?? configCache.load(EngageConfig.init(cache:))
        do throws(JumpError) {
            switch try api.fetchConfig(etag: known?.etag, cancellation: cancellation) {
            case .notModified:
                guard let known else {
                    throw JumpError(.server, "Engage answered 304 Not Modified to a fetch without a cached configuration")
                }
                state.withLock { $0.engageConfig = known }
                return EngageConfigLoad(changed: false, fromCache: true)
            case .changed(let config):
                let changed = config.document != known?.document
                state.withLock { $0.engageConfig = config }
                if changed || config.etag != known?.etag { configCache.save(Jansson.serializedBytes(config.cacheJSON)) }
                return EngageConfigLoad(changed: changed, fromCache: false)
            }
        } catch where error.status != .cancelled && error.status != .invalidArgument {
            guard let known else { throw error }
            Log.warning("using the cached Engage configuration: \(error.message)")
            state.withLock { $0.engageConfig = known }
            return EngageConfigLoad(changed: false, fromCache: true)
        }
    }

    /// The configuration in use: this run's, else the cached one (refreshed in the background of nothing:
    /// the next explicit load or the first use in a run fetches it).
    func engageConfig(cancellation: Cancellation?) throws(JumpError) -> EngageConfig {
        if let config = state.withLock({ $0.engageConfig }) { return config }
        try loadEngageConfig(cancellation: cancellation)
        if let config = state.withLock({ $0.engageConfig }) { return config }
        throw JumpError(.internal, "the Engage configuration was loaded but not kept")
    }

    /// A provider by name: the server's, or one of the app's custom providers.
    func engageProvider(_ name: String, in config: EngageConfig) throws(JumpError) -> EngageProvider {
        if let custom = engage.customProviders.first(where: { $0.name == name }) { return custom }
        if let provider = config.providers[name], config.signInProviders.contains(name) || config.sharingProviders.contains(name) {
            return provider
        }
        let known = (config.signInProviders + engage.customProviders.map(\.name)).joined(separator: ", ")
        throw .invalidArgument("unknown provider '\(name)' (this app has: \(known))", argument: "provider")
    }

    /// Sign-in providers in the server's order with the custom ones last (not filtered by enabled_providers,
    /// as in the reference SDKs), and the sharing providers.
    public func providers(cancellation: Cancellation? = nil) throws(JumpError) -> ProviderList {
        let config = try engageConfig(cancellation: cancellation)
        return ProviderList(signIn: config.signInProviders.compactMap { config.providers[$0] } + engage.customProviders,
                            sharing: config.sharingProviders.compactMap { config.providers[$0] },
                            hideTagline: config.hideTagline)
    }
}

/// The app's providers (jump_client_providers).
public struct ProviderList: Sendable, Equatable {
    public let signIn: [EngageProvider]
    public let sharing: [EngageProvider]
    public let hideTagline: Bool
}
