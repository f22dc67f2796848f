import GRDB

/// `/emulator/engage_apps`: the Engage applications the configuration endpoint and the fake identity
/// provider serve. The default one (`jump-default-engage`) always exists and can be replaced too.
struct AdminEngageApps: Sendable {
    let emulator: Emulator

    /// `{"engage_app_id","api_key"?,"providers"?,"sharing_providers"?,"custom_provider_info"?,
    /// "whitelisted_domains"?}` creates or replaces one. Omitted members get the defaults (the built-in
    /// provider lists, nothing custom, no whitelist); an omitted api_key keeps the app's key, or makes one.
    func put(_ request: AdminRequest) async throws -> JSONValue {
        let id = try request.requiredString("engage_app_id")
        guard Self.isName(id, maximum: 128) else {
            throw AdminError.badRequest("engage_app_id must be 1...128 letters, digits, '.', '_' or '-'")
        }
        let givenKey = try request.string("api_key")
        if let givenKey, givenKey.isEmpty || givenKey.utf8.count > 256 {
            throw AdminError.badRequest("api_key must be 1...256 characters")
        }
        let providers = try Self.names(request, "providers") ?? EngageProviderCatalog.defaultSignInProviders
        let sharing = try Self.names(request, "sharing_providers") ?? EngageProviderCatalog.defaultSharingProviders
        var custom: [String: JSONValue] = [:]
        if let value = request.body["custom_provider_info"], !value.isNull {
            guard let object = value.objectValue else {
                throw AdminError.badRequest("custom_provider_info must be an object of provider info objects")
            }
            for (name, info) in object {
                guard Self.isName(name, maximum: 64), info.objectValue != nil else {
                    throw AdminError.badRequest("custom_provider_info must map provider names to objects")
                }
            }
            custom = object
        }
        var whitelist: [String] = []
        if let value = request.body["whitelisted_domains"], !value.isNull {
            guard let list = value.arrayValue?.compactMap(\.stringValue), list.count == value.arrayValue?.count,
                list.allSatisfy({ !$0.isEmpty })
            else { throw AdminError.badRequest("whitelisted_domains must be an array of URL prefixes") }
            whitelist = list
        }
        let now = emulator.clock.now().timeIntervalSince1970
        let customInfo = custom
        let whitelisted = whitelist
        let outcome = try await emulator.store.write { db -> Result<EngageApp, AdminError> in
            let existing = try EngageApp.find(id, in: db)
            let apiKey = givenKey ?? existing?.apiKey ?? Tokens.randomURLSafe(byteCount: 24)
            if let holder = try EngageApp.find(apiKey: apiKey, in: db), holder.id != id {
                return .failure(AdminError.conflict("api_key_taken", "the Engage app \(holder.id) has that api_key"))
            }
            let app = EngageApp(
                id: id, apiKey: apiKey, providers: providers, sharingProviders: sharing, customProviderInfo: customInfo,
                whitelistedDomains: whitelisted)
            try EngageAppRow(app, updated: now).save(db)
            return .success(app)
        }
        return Self.json(try outcome.get())
    }

    func get(id: String) async throws -> JSONValue {
        guard let app = try await emulator.store.read({ db in try EngageApp.find(id, in: db) }) else {
            throw AdminError.notFound("no Engage app \(id)")
        }
        return Self.json(app)
    }

    func list() async throws -> JSONValue {
        let apps = try await emulator.store.read { db in try EngageApp.all(in: db) }
        return ["engage_apps": .array(apps.map(Self.json))]
    }

    static func json(_ app: EngageApp) -> JSONValue {
        [
            "engage_app_id": .string(app.id),
            "api_key": .string(app.apiKey),
            "providers": .array(app.providers.map(JSONValue.string)),
            "sharing_providers": .array(app.sharingProviders.map(JSONValue.string)),
            "custom_provider_info": .object(app.customProviderInfo),
            "whitelisted_domains": .array(app.whitelistedDomains.map(JSONValue.string)),
            "default": .bool(app.id == EngageApp.defaultId),
        ]
    }

    /// Provider names end up in paths (`/<name>/start`) and pages, so they are kept plain.
    static func isName(_ text: String, maximum: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= maximum
            && text.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": return true
                default: return false
                }
            }
    }

    private static func names(_ request: AdminRequest, _ key: String) throws(AdminError) -> [String]? {
        guard let value = request.body[key], !value.isNull else { return nil }
        let problem = AdminError.badRequest(
            "\(key) must be an array of distinct provider names (letters, digits, '.', '_', '-')")
        guard let items = value.arrayValue else { throw problem }
        let list = items.compactMap(\.stringValue)
        guard list.count == items.count, list.allSatisfy({ isName($0, maximum: 64) }), Set(list).count == list.count
        else { throw problem }
        return list
    }
}
