import GRDB

/// An Engage application set through `POST /emulator/engage_apps`. The lists and the custom provider
/// info are JSON text. The default app has no row until it is replaced (see `EngageApp.builtInDefault`).
struct EngageAppRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "engage_apps"

    var engageAppId, apiKey: String
    /// JSON texts: the providers, the sharing providers, custom providers' details, the allowed domains.
    var providersJSON, sharingProvidersJSON, customProviderInfoJSON, whitelistedDomainsJSON: String
    var updated: Double

    enum CodingKeys: String, CodingKey {
        case engageAppId = "engage_app_id"
        case apiKey = "api_key"
        case providersJSON = "providers"
        case sharingProvidersJSON = "sharing_providers"
        case customProviderInfoJSON = "custom_provider_info"
        case whitelistedDomainsJSON = "whitelisted_domains"
        case updated
    }

    init(_ app: EngageApp, updated: Double) {
        engageAppId = app.id
        apiKey = app.apiKey
        providersJSON = JSONValue.array(app.providers.map(JSONValue.string)).serialized()
        sharingProvidersJSON = JSONValue.array(app.sharingProviders.map(JSONValue.string)).serialized()
        customProviderInfoJSON = JSONValue.object(app.customProviderInfo).serialized()
        whitelistedDomainsJSON = JSONValue.array(app.whitelistedDomains.map(JSONValue.string)).serialized()
        self.updated = updated
    }

    var app: EngageApp {
        EngageApp(
            id: engageAppId, apiKey: apiKey, providers: Self.strings(providersJSON),
            sharingProviders: Self.strings(sharingProvidersJSON),
            customProviderInfo: JSONParser.parse(customProviderInfoJSON)?.objectValue ?? [:],
            whitelistedDomains: Self.strings(whitelistedDomainsJSON))
    }

    private static func strings(_ text: String) -> [String] {
        JSONParser.parse(text)?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
