import GRDB

/// An Engage application: its API key, its sign-in and sharing providers (in order), extra or changed
/// provider info, and the token_url prefixes it accepts (none: any).
struct EngageApp: Sendable, Equatable {
    var id: String
    var apiKey: String
    var providers: [String]
    var sharingProviders: [String]
    var customProviderInfo: [String: JSONValue]
    var whitelistedDomains: [String]

    static let defaultId = DefaultApp.engageAppId
    static let defaultAPIKey = "jump-engage-api-key"

    /// The default app exists without a row so a reset (which empties the tables) brings it back as is.
    static let builtInDefault = EngageApp(
        id: defaultId, apiKey: defaultAPIKey, providers: EngageProviderCatalog.defaultSignInProviders,
        sharingProviders: EngageProviderCatalog.defaultSharingProviders, customProviderInfo: [:],
        whitelistedDomains: [])

    static func find(_ id: String, in db: Database) throws -> EngageApp? {
        if let row = try EngageAppRow.fetchOne(db, key: id) { return row.app }
        return id == defaultId ? builtInDefault : nil
    }

    static func find(apiKey: String, in db: Database) throws -> EngageApp? {
        if let row = try EngageAppRow.filter(Column("api_key") == apiKey).fetchOne(db) { return row.app }
        // A stored replacement of the default app may have changed its key; then the old one is gone.
        guard try EngageAppRow.fetchOne(db, key: defaultId) == nil,
            Tokens.constantTimeEquals(apiKey, defaultAPIKey)
        else { return nil }
        return builtInDefault
    }

    /// Every app, the default first.
    static func all(in db: Database) throws -> [EngageApp] {
        let stored = try EngageAppRow.order(Column("engage_app_id")).fetchAll(db).map(\.app)
        let defaultApp = stored.first { $0.id == defaultId } ?? builtInDefault
        return [defaultApp] + stored.filter { $0.id != defaultId }
    }

    /// `provider_info` of the configuration: the listed providers (sign-in, then sharing, then custom),
    /// the built-in info overlaid member by member with the app's custom info.
    var providerInfo: [String: JSONValue] {
        var names = providers + sharingProviders
        names += customProviderInfo.keys.sorted()
        var info: [String: JSONValue] = [:]
        for name in names where info[name] == nil {
            info[name] = .object(Self.describe(name, custom: customProviderInfo[name]?.objectValue))
        }
        return info
    }

    /// The info of one provider of this app; nil when the app does not have it.
    func info(of provider: String) -> [String: JSONValue]? {
        guard providers.contains(provider) || sharingProviders.contains(provider) || customProviderInfo[provider] != nil
        else { return nil }
        return Self.describe(provider, custom: customProviderInfo[provider]?.objectValue)
    }

    /// The friendly name the fake provider page and the profile show. OpenID and SAML start pages
    /// work for every app (custom providers are not filtered by the server's list, docs/protocol.md §4.3).
    func friendlyName(of provider: String) -> String {
        info(of: provider)?["friendly_name"]?.stringValue ?? EngageProviderCatalog.friendlyName(provider)
    }

    /// Whether the fake provider serves `provider` for this app.
    func offers(_ provider: String) -> Bool {
        provider == EngageProviderCatalog.openIDProvider || provider == EngageProviderCatalog.samlProvider
            || info(of: provider) != nil
    }

    func isSharingProvider(_ provider: String) -> Bool {
        sharingProviders.contains(provider)
    }

    /// A token_url is acceptable when the app whitelists nothing or it starts with a whitelisted prefix.
    func accepts(tokenURL: String) -> Bool {
        whitelistedDomains.isEmpty || whitelistedDomains.contains { tokenURL.hasPrefix($0) }
    }

    private static func describe(_ name: String, custom: [String: JSONValue]?) -> [String: JSONValue] {
        var info = EngageProviderCatalog.info(name) ?? EngageProviderCatalog.genericInfo(name)
        for (key, value) in custom ?? [:] {
            info[key] = value
        }
        return info
    }
}
