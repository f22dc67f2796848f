import GRDB

/// One social identity of a user: the `identifier` of an element of the record's `profiles`
/// plural, indexed per app (table `user_identities`).
struct UserIdentityRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user_identities"

    var clientId, identifier: String
    var userId: Int64
    /// The Engage provider name ("facebook"), what 380's `existing_provider` reports.
    var provider: String

    enum CodingKeys: String, CodingKey {
        case clientId = "client_id"
        case identifier
        case userId = "user_id"
        case provider
    }

    static func find(clientId: String, identifier: String, in db: Database) throws -> UserIdentityRow? {
        try UserIdentityRow
            .filter(Column("client_id") == clientId && Column("identifier") == identifier)
            .fetchOne(db)
    }

    static func all(userId: Int64, in db: Database) throws -> [UserIdentityRow] {
        try UserIdentityRow.filter(Column("user_id") == userId).fetchAll(db)
    }

    /// An identity as the record holds it.
    struct Identity: Sendable, Equatable {
        var identifier: String
        var provider: String
    }

    /// The identities of a record's `profiles`, in element order.
    static func identities(in attributes: [String: JSONValue]) -> [Identity] {
        (attributes["profiles"]?.arrayValue ?? []).compactMap { element in
            guard let identifier = element["identifier"]?.stringValue, !identifier.isEmpty else { return nil }
            return Identity(identifier: identifier, provider: SocialProfile.provider(ofDomain: element["domain"]?.stringValue))
        }
    }

    /// Brings the index in step with a record write. Every write of a record goes through here
    /// (entity.update/replace/delete, forms, linking), so an identity a client adds or removes
    /// with `entity.*` is found, or no longer found, by auth_native. Rows of identifiers the write
    /// did not touch keep their provider.
    static func sync(
        userId: Int64, clientId: String, before: [String: JSONValue], after: [String: JSONValue], in db: Database
    ) throws {
        let old = identities(in: before)
        let new = identities(in: after)
        guard old != new else { return }
        let kept = Set(new.map(\.identifier))
        for identity in old where !kept.contains(identity.identifier) {
            try UserIdentityRow
                .filter(Column("client_id") == clientId && Column("identifier") == identity.identifier
                    && Column("user_id") == userId)
                .deleteAll(db)
        }
        let had = Set(old.map(\.identifier))
        for identity in new where !had.contains(identity.identifier) {
            try UserIdentityRow(clientId: clientId, identifier: identity.identifier, userId: userId,
                                provider: identity.provider).save(db)
        }
    }
}
