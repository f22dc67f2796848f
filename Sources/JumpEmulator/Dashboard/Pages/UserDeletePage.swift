/// `/emulator/ui/users/{uuid}/delete`: asks before `POST /emulator/ui/users/{uuid}/delete` deletes the user
/// (`DashboardActions.deleteUser`, which is `DELETE /emulator/users/{uuid}`).
struct UserDeletePage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .users)
        let user: UserFacts
        let hasError: Bool
        let error: String
    }

    /// Throws `AdminError.notFound` for an unknown uuid.
    func model(uuid: String, error: String? = nil) async throws -> Model {
        let (user, _) = try await UserFacts.load(uuid: uuid, emulator: emulator)
        return Model(user: user, hasError: error != nil, error: error ?? "")
    }
}
