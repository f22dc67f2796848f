/// What the user pages (edit, delete) say about a user above their forms, as `GET /emulator/users/{uuid}`
/// answers it.
struct UserFacts: Sendable {
    let uuid: String
    let email: String
    let clientId: String
    let created: String
    let lastUpdated: String
    let activeSessions: Int64

    /// The facts and the record; `AdminError.notFound` for an unknown uuid.
    static func load(uuid: String, emulator: Emulator) async throws -> (UserFacts, JSONValue) {
        let answer = try await AdminUsers(emulator: emulator).get(uuid: uuid)
        let record = answer["user"] ?? .object([:])
        let facts = UserFacts(
            uuid: record["uuid"]?.stringValue ?? uuid, email: record["email"]?.stringValue ?? "(no email)",
            clientId: answer["client_id"]?.stringValue ?? "", created: record["created"]?.stringValue ?? "",
            lastUpdated: record["lastUpdated"]?.stringValue ?? "", activeSessions: answer["active_sessions"]?.intValue ?? 0)
        return (facts, record)
    }
}
