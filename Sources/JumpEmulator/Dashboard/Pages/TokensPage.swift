import GRDB

/// `/emulator/ui/tokens`: Capture access tokens (the `sessions` table), newest first, each shortened, with
/// its state by the emulator clock: live, expired, or retired by a refresh (and what replaced it).
struct TokensPage: Sendable {
    let emulator: Emulator

    static let maximumShown = 300

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .tokens)
        let liveCount: Int
        let expiredCount: Int
        let retiredCount: Int
        let hasTokens: Bool
        let tokens: [Token]
        let truncated: Bool
        let shown: Int
    }

    struct Token: Sendable {
        let token: String
        let state: String
        let stateClass: String
        let isRetired: Bool
        let retiredAt: String
        let uuid: String
        let email: String
        let clientId: String
        let issued: String
        let expires: String
        let refresh: String
        let successor: String
    }

    func model() async throws -> Model {
        let now = emulator.clock.now().timeIntervalSince1970
        let limit = Self.maximumShown
        let (sessions, owners, counts) = try await emulator.store.read { db in
            let sessions = try SessionRow.order(Column("issued_at").desc, Column("access_token")).limit(limit).fetchAll(db)
            let ids = Array(Set(sessions.map(\.userId)))
            let owners = try UserRow.filter(ids.contains(Column("id"))).fetchAll(db)
                .reduce(into: [Int64: UserRow]()) { found, user in if let id = user.id { found[id] = user } }
            let retired = try SessionRow.filter(Column("retired") == true).fetchCount(db)
            let live = try SessionRow.active(now: now).fetchCount(db)
            let total = try SessionRow.fetchCount(db)
            return (sessions, owners, (live: live, expired: total - live - retired, retired: retired, total: total))
        }
        let tokens = sessions.map { session in
            let owner = owners[session.userId]
            let state: (String, String) =
                session.retired ? ("retired", "plain") : session.expiresAt > now ? ("live", "good") : ("expired", "warn")
            return Token(
                token: DashboardText.shortToken(session.accessToken), state: state.0, stateClass: state.1,
                isRetired: session.retired, retiredAt: session.retiredAt.map(DashboardText.time) ?? "",
                uuid: owner?.uuid ?? "", email: owner.flatMap { $0.attributes["email"]?.stringValue } ?? "(no email)",
                clientId: session.clientId, issued: DashboardText.time(session.issuedAt),
                expires: DashboardText.time(session.expiresAt),
                refresh: session.refreshToken != nil ? "OAuth refresh token"
                    : session.refreshSecret != nil ? "signed refresh" : "none",
                successor: session.successor.map(DashboardText.shortToken) ?? "")
        }
        return Model(
            liveCount: counts.live, expiredCount: counts.expired, retiredCount: counts.retired, hasTokens: !tokens.isEmpty,
            tokens: tokens, truncated: counts.total > tokens.count, shown: tokens.count)
    }
}
