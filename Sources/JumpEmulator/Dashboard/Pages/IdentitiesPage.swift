/// `/emulator/ui/identities`: every test identity of the fake identity provider, oldest first.
struct IdentitiesPage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .identities)
        let hasIdentities: Bool
        let identities: [Identity]
    }

    struct Identity: Sendable {
        let id: Int64
        let provider: String
        let name: String
        let email: String
        let unverified: Bool
        let identifier: String
        let offeredTo: String
        let created: String
    }

    func model() async throws -> Model {
        let rows = try await emulator.store.read { db in
            try EngageIdentities.list(provider: nil, engageAppId: nil, in: db)
        }
        let identities = rows.map { row in
            let profile = row.profile
            let email = profile["email"]?.stringValue
            return Identity(
                id: row.id ?? 0, provider: row.provider, name: profile["displayName"]?.stringValue ?? "",
                email: email ?? "none", unverified: email != nil && profile["verifiedEmail"] == nil,
                identifier: row.identifier, offeredTo: row.engageAppId ?? "every app",
                created: DashboardText.time(row.created))
        }
        return Model(hasIdentities: !identities.isEmpty, identities: identities)
    }
}
