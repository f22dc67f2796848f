import GRDB

/// The fake identity provider's test identities: made by `POST /emulator/identities`, on the provider
/// page, and by `/signin/oauth_token` for identifiers it has not seen. Other emulator code (e.g. staging a
/// merge conflict) makes them through `create`.
enum EngageIdentities {
    /// What a new identity needs; a nil `identifier` gets the provider's default (see `defaultIdentifier`).
    struct Draft: Sendable {
        var provider: String
        var engageAppId: String?
        var identifier: String?
        var profile: EngageProfile
        /// The provider name shown in the profile (the app's friendly name of `provider`).
        var providerName: String
        /// For the default identifier of SAML identities.
        var samlProvider: String?
    }

    enum Failure: Error, Equatable {
        case identifierTaken(String)
    }

    /// Inserts a new identity; an identifier the provider already has is `identifierTaken`.
    static func create(_ draft: Draft, now: Double, in db: Database) throws -> EngageIdentityRow {
        if let identifier = draft.identifier, try find(provider: draft.provider, identifier: identifier, in: db) != nil {
            throw Failure.identifierTaken(identifier)
        }
        // The default identifier holds the row id, known only after the insert.
        var row = EngageIdentityRow(
            id: nil, engageAppId: draft.engageAppId, provider: draft.provider,
            identifier: draft.identifier ?? "pending:\(Tokens.randomURLSafe(byteCount: 12))", profileJSON: "{}",
            created: now)
        try row.insert(db)
        if draft.identifier == nil, let id = row.id {
            row.identifier = defaultIdentifier(provider: draft.provider, number: id, samlProvider: draft.samlProvider)
        }
        row.profileJSON = JSONValue.object(draft.profile.object(identifier: row.identifier, providerName: draft.providerName))
            .serialized()
        try row.update(db)
        return row
    }

    /// `create`, except that an identifier the provider already has gets the new profile (the OpenID
    /// page makes identities from the identifier the user typed, which may be typed again).
    static func createOrReplace(_ draft: Draft, now: Double, in db: Database) throws -> EngageIdentityRow {
        guard let identifier = draft.identifier, var row = try find(provider: draft.provider, identifier: identifier, in: db)
        else { return try create(draft, now: now, in: db) }
        row.profileJSON = JSONValue.object(draft.profile.object(identifier: identifier, providerName: draft.providerName))
            .serialized()
        try row.update(db)
        return row
    }

    /// `https://<provider>.example/<n>`, or `saml:<saml_provider>:<n>` for SAML.
    static func defaultIdentifier(provider: String, number: Int64, samlProvider: String?) -> String {
        if provider == EngageProviderCatalog.samlProvider {
            return "saml:\(samlProvider ?? "default"):\(number)"
        }
        return "https://\(provider).example/\(number)"
    }

    static func find(id: Int64, in db: Database) throws -> EngageIdentityRow? {
        try EngageIdentityRow.fetchOne(db, key: id)
    }

    static func find(provider: String, identifier: String, in db: Database) throws -> EngageIdentityRow? {
        try EngageIdentityRow.filter(Column("provider") == provider && Column("identifier") == identifier).fetchOne(db)
    }

    /// Oldest first; `engageAppId` keeps those offered to that app (its own and the shared ones).
    static func list(provider: String?, engageAppId: String?, in db: Database) throws -> [EngageIdentityRow] {
        var request = EngageIdentityRow.order(Column("id"))
        if let provider { request = request.filter(Column("provider") == provider) }
        if let engageAppId {
            request = request.filter(Column("engage_app_id") == nil || Column("engage_app_id") == engageAppId)
        }
        return try request.fetchAll(db)
    }

    /// Whether `identity` may be used with `app` (page buttons and identity_id posts).
    static func isOffered(_ identity: EngageIdentityRow, to appId: String) -> Bool {
        identity.engageAppId == nil || identity.engageAppId == appId
    }
}
