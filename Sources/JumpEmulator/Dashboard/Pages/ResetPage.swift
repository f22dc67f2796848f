/// `/emulator/ui/reset`: asks before `POST /emulator/ui/reset` puts the emulator back to a fresh start
/// (`DashboardActions.reset`, which is `POST /emulator/reset`), saying what would go.
struct ResetPage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .overview)
        let users: Int
        let apps: Int
        let offset: String
        let faults: Int
        let hasError: Bool
        let error: String
    }

    func model(error: String? = nil) async throws -> Model {
        let users = try await emulator.store.read { db in try UserRow.fetchCount(db) }
        return Model(
            users: users, apps: try await emulator.apps.all().count,
            offset: DashboardText.offset(emulator.clock.offsetSeconds), faults: emulator.faults.pending.count,
            hasError: error != nil, error: error ?? "")
    }
}
