/// What the user pages (edit, delete) say about a user above their forms, as `GET /emulator/users/{uuid}`
/// answers it.
struct UserFacts: Sendable {
    let uuid: String
    let email: String
    let clientId: String
    let created: String
    let lastUpdated: String
    let activeSessions: Int64
    /// The sessions the user's clients hold (the newest access token of each sign-in), newest first.
    let sessions: [HeldSession]
    let hasSessions: Bool

    struct HeldSession: Sendable {
        let clientId: String
        let issued: String
        let expires: String
        let state: String
        let stateClass: String
        let refresh: String
    }

    /// The facts and the record; `AdminError.notFound` for an unknown uuid.
    static func load(uuid: String, emulator: Emulator) async throws -> (UserFacts, JSONValue) {
        let answer = try await AdminUsers(emulator: emulator).get(uuid: uuid)
        let record = answer["user"] ?? .object([:])
        let sessions = (answer["sessions"]?.arrayValue ?? []).map(HeldSession.init)
        let facts = UserFacts(
            uuid: record["uuid"]?.stringValue ?? uuid, email: record["email"]?.stringValue ?? "(no email)",
            clientId: answer["client_id"]?.stringValue ?? "", created: record["created"]?.stringValue ?? "",
            lastUpdated: record["lastUpdated"]?.stringValue ?? "", activeSessions: answer["active_sessions"]?.intValue ?? 0,
            sessions: sessions, hasSessions: !sessions.isEmpty)
        return (facts, record)
    }
}

extension UserFacts.HeldSession {
    /// From one entry of the admin API's "sessions".
    init(_ entry: JSONValue) {
        let live = entry["live"]?.boolValue ?? false
        clientId = entry["client_id"]?.stringValue ?? ""
        issued = DashboardText.time(entry["issued_at"]?.doubleValue ?? 0)
        expires = DashboardText.time(entry["expires_at"]?.doubleValue ?? 0)
        state = live ? "live" : "expired"
        stateClass = live ? "good" : "warn"
        refresh = switch entry["refresh"]?.stringValue {
        case "signed": "signed refresh"
        case "oauth": "OAuth refresh token"
        default: "none"
        }
    }
}
