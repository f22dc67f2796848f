/// `/emulator/ui/users/{uuid}`: one user's record in a form that saves it through
/// `POST /emulator/ui/users/{uuid}` (`DashboardActions.editUser`, which is `PATCH /emulator/users/{uuid}`).
struct UserEditPage: Sendable {
    let emulator: Emulator

    /// How a save writes the record: the two ways Capture has.
    enum Mode: String, CaseIterable, Sendable {
        case merge, replace

        var label: String {
            switch self {
            case .merge: "Merge (entity.update): members left out stay, null clears one"
            case .replace: "Replace (entity.replace): members left out become null; plural elements come without an id"
            }
        }
    }

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .users)
        let user: UserFacts
        let editable: Bool
        let record: String
        let recordSize: String
        let modes: [DashboardChoice]
        let hasError: Bool
        let error: String
    }

    /// Throws `AdminError.notFound` for an unknown uuid. After a refused save, `form` holds what was sent,
    /// so the text typed is not lost.
    func model(uuid: String, error: String? = nil, form: FormParams? = nil) async throws -> Model {
        let (user, record) = try await UserFacts.load(uuid: uuid, emulator: emulator)
        // The reserved attributes are the emulator's (a write naming one is refused, 234): shown above the
        // form, not in it.
        let editable = JSONValue.object((record.objectValue ?? [:]).filter { !Schema.reservedNames.contains($0.key) })
        let size = editable.serializedBytes().count
        let mode = form?.nonEmpty("mode").flatMap(Mode.init(rawValue:)) ?? .merge
        return Model(
            user: user, editable: size <= UsersPage.maximumRecordBytes,
            record: form?["record"] ?? (size <= UsersPage.maximumRecordBytes ? editable.prettyPrinted() : ""),
            recordSize: DashboardText.size(size),
            modes: Mode.allCases.map { DashboardChoice(value: $0.rawValue, label: $0.label, selected: $0 == mode) },
            hasError: error != nil, error: error ?? "")
    }
}
