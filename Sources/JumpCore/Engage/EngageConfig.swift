/// The Engage app configuration (docs/protocol.md §4.2): the RP base URL and the providers, as served.
struct EngageConfig: Sendable, Equatable {
    /// The RP base URL without a trailing slash: provider start pages, /signin/device, /signin/oauth_token.
    let baseURL: String
    let signInProviders: [String]
    let sharingProviders: [String]
    let providers: [String: EngageProvider]
    let hideTagline: Bool
    let etag: String?
    /// The document as served, for the cache.
    let document: JSON

    /// Both SDKs refuse a configuration without baseurl and provider_info; so do we.
    init(document: JSON, etag: String?) throws(JumpError) {
        guard var base = document["baseurl"]?.stringValue, !base.isEmpty,
              case .object(let info)? = document["provider_info"] else {
            throw JumpError(.server, "the Engage configuration has no baseurl or provider_info")
        }
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("https://") || base.hasPrefix("http://") else {
            throw JumpError(.server, "the Engage configuration's baseurl is not an http(s) URL")
        }
        baseURL = base
        var providers: [String: EngageProvider] = [:]
        for (name, entry) in info { providers[name] = EngageProvider(name: name, info: entry) }
        self.providers = providers
        // A listed provider without provider_info cannot be started: leave it out rather than fail later.
        signInProviders = (document["enabled_providers"]?.arrayValue ?? []).compactMap(\.stringValue).filter { providers[$0] != nil }
        sharingProviders = (document["social_providers"]?.arrayValue ?? []).compactMap(\.stringValue).filter { providers[$0] != nil }
        hideTagline = EngageProvider.flag(document["hide_tagline"])
        self.etag = etag
        self.document = document
    }

    /// The cache entry: the document with its ETag.
    var cacheJSON: JSON { ["etag": .optional(etag), "config": document] }

    init(cache: JSON) throws(JumpError) {
        guard let document = cache["config"] else { throw JumpError(.storage, "the cached Engage configuration is malformed") }
        try self.init(document: document, etag: cache["etag"]?.stringValue)
    }
}
