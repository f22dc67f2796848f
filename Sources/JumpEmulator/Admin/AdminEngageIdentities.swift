import GRDB

/// `/emulator/identities`: the fake identity provider's test identities.
struct AdminEngageIdentities: Sendable {
    let emulator: Emulator

    /// `{"provider","display_name"?,"email"?,"verified_email"?:true,"identifier"?,"given_name"?,
    /// "family_name"?,"preferred_username"?,"photo"?,"url"?,"saml_provider"?,"engage_app_id"?}` -> 201
    /// `{"id","provider","identifier","engage_app_id","profile"}`. Without engage_app_id every app offers it.
    func create(_ request: AdminRequest) async throws -> JSONValue {
        let provider = try request.requiredString("provider")
        guard AdminEngageApps.isName(provider, maximum: 64) else {
            throw AdminError.badRequest("provider must be a provider name (letters, digits, '.', '_', '-')")
        }
        let appId = try request.string("engage_app_id")
        let profile = EngageProfile(
            displayName: try text(request, "display_name"), email: try text(request, "email"),
            verifiedEmail: try request.bool("verified_email") ?? true, givenName: try text(request, "given_name"),
            familyName: try text(request, "family_name"), preferredUsername: try text(request, "preferred_username"),
            photo: try text(request, "photo"), url: try text(request, "url"))
        let identifier = try text(request, "identifier")
        let samlProvider = try text(request, "saml_provider")
        let now = emulator.clock.now().timeIntervalSince1970
        let outcome = try await emulator.store.write { db -> Result<EngageIdentityRow, AdminError> in
            var providerName = EngageProviderCatalog.friendlyName(provider)
            if let appId {
                guard let app = try EngageApp.find(appId, in: db) else {
                    return .failure(AdminError.notFound("no Engage app \(appId)"))
                }
                providerName = app.friendlyName(of: provider)
            }
            let draft = EngageIdentities.Draft(
                provider: provider, engageAppId: appId, identifier: identifier, profile: profile,
                providerName: providerName, samlProvider: samlProvider)
            do {
                return .success(try EngageIdentities.create(draft, now: now, in: db))
            } catch EngageIdentities.Failure.identifierTaken(let taken) {
                return .failure(AdminError.conflict("identity_exists", "\(provider) already has the identifier \(taken)"))
            }
        }
        return try outcome.get().json
    }

    /// `{"identities":[...]}`, oldest first; `?provider=` and `?engage_app_id=` narrow it.
    func list(_ request: AdminRequest) async throws -> JSONValue {
        let provider = request.query.nonEmpty("provider")
        let appId = request.query.nonEmpty("engage_app_id")
        let rows = try await emulator.store.read { db in
            try EngageIdentities.list(provider: provider, engageAppId: appId, in: db)
        }
        return ["identities": .array(rows.map(\.json))]
    }

    private func text(_ request: AdminRequest, _ name: String) throws(AdminError) -> String? {
        guard let value = try request.string(name), !value.isEmpty else { return nil }
        guard value.utf8.count <= 1000 else { throw AdminError.badRequest("\(name) is longer than 1000 bytes") }
        return value
    }
}
