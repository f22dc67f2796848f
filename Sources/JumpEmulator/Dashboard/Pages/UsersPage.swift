import Foundation

/// `/emulator/ui/users`: each app's users as `GET /emulator/users?client_id=` answers them, the record
/// pretty-printed and the social identities its `profiles` link; the form that creates a user through
/// `POST /emulator/ui/users` (`DashboardActions.createUser`), and links to each user's edit and delete pages.
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
        let create: CreateForm
        /// Open with nothing else to show, or to show what a refused post sent.
        let openCreate: Bool
        let hasError: Bool
        let error: String
    }

    /// The create form's fields: empty, or what a refused post sent (but the password), so nothing typed is
    /// lost.
    struct CreateForm: Sendable {
        let apps: [AppChoice]
        let email: String
        let displayName: String
        let record: String
    }

    struct AppChoice: Sendable {
        let clientId: String
        let selected: Bool
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

    func model(error: String? = nil, form: FormParams? = nil) async throws -> Model {
        var apps: [AppUsers] = []
        let all = try await emulator.apps.all()
        for app in all {
            let records = try await emulator.records(of: app, matching: nil)
            let shown = records.prefix(Self.maximumUsersPerApp)
            let open = records.count <= Self.openRecordsUpTo
            apps.append(AppUsers(
                clientId: app.clientId, count: records.count, users: shown.map { Self.user($0, open: open) },
                truncated: records.count > shown.count, shown: shown.count))
        }
        let chosen = form?.nonEmpty("client_id") ?? DefaultApp.clientId
        let create = CreateForm(
            apps: all.map { AppChoice(clientId: $0.clientId, selected: $0.clientId == chosen) },
            email: form?["email"] ?? "", displayName: form?["display_name"] ?? "", record: form?["record"] ?? "")
        let total = apps.reduce(0) { $0 + $1.count }
        return Model(
            total: total, apps: apps, create: create, openCreate: total == 0 || error != nil, hasError: error != nil,
            error: error ?? "")
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
