import Foundation

/// `/emulator/ui/users`: each app's users as `GET /emulator/users?client_id=` answers them, the record
/// pretty-printed and the social identities its `profiles` link.
struct UsersPage: Sendable {
    let emulator: Emulator

    /// A page of a few hundred records stays readable; the admin API has the rest.
    static let maximumUsersPerApp = 200
    /// Bigger records (the SDK's benchmarks make several MiB) are left to the admin API.
    static let maximumRecordBytes = 64 << 10
    /// With few users the records are open; with more, each is one click away.
    static let openRecordsUpTo = 20

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .users)
        let total: Int
        let apps: [AppUsers]
    }

    struct AppUsers: Sendable {
        let clientId: String
        let count: Int
        let users: [User]
        let truncated: Bool
        let shown: Int
    }

    struct User: Sendable {
        let uuid: String
        let email: String
        let created: String
        let lastUpdated: String
        let identities: [Identity]
        let recordShown: Bool
        let record: String
        let recordSize: String
        let openRecord: Bool
    }

    struct Identity: Sendable {
        let provider: String
        let identifier: String
    }

    func model() async throws -> Model {
        var apps: [AppUsers] = []
        for app in try await emulator.apps.all() {
            let records = try await emulator.records(of: app, matching: nil)
            let shown = records.prefix(Self.maximumUsersPerApp)
            let open = records.count <= Self.openRecordsUpTo
            apps.append(AppUsers(
                clientId: app.clientId, count: records.count, users: shown.map { Self.user($0, open: open) },
                truncated: records.count > shown.count, shown: shown.count))
        }
        return Model(total: apps.reduce(0) { $0 + $1.count }, apps: apps)
    }

    private static func user(_ record: JSONValue, open: Bool) -> User {
        let size = record.serializedBytes().count
        let shown = size <= maximumRecordBytes
        let identities = UserIdentityRow.identities(in: record.objectValue ?? [:])
            .map { Identity(provider: $0.provider, identifier: $0.identifier) }
        return User(
            uuid: record["uuid"]?.stringValue ?? "", email: record["email"]?.stringValue ?? "(no email)",
            created: record["created"]?.stringValue ?? "", lastUpdated: record["lastUpdated"]?.stringValue ?? "",
            identities: identities, recordShown: shown, record: shown ? record.prettyPrinted() : "",
            recordSize: DashboardText.size(size), openRecord: open)
    }
}
