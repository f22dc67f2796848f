import GRDB

/// `GET /emulator`: counts of what the emulator holds, each linking to its page, and the clock.
struct OverviewPage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .overview)
        let baseURL: String
        let now: String
        let shifted: Bool
        let offset: String
        let stats: [Stat]
    }

    struct Stat: Sendable {
        let key: String
        let label: String
        let number: String
        let href: String
    }

    func model() async throws -> Model {
        let now = emulator.clock.now().timeIntervalSince1970
        let captureApps = try await emulator.apps.all().count
        let (engageApps, users, identities, emails, liveTokens) = try await emulator.store.read { db in
            (try EngageApp.all(in: db).count, try UserRow.fetchCount(db), try EngageIdentityRow.fetchCount(db),
             try EmailRow.fetchCount(db),
             try SessionRow.active(now: now).fetchCount(db))
        }
        let requests = emulator.counters.snapshot.values.reduce(0, +)
        let stats = [
            Stat(key: "apps", label: "Capture apps (and \(engageApps) Engage)", number: "\(captureApps)",
                 href: DashboardNav.apps.path),
            Stat(key: "users", label: "Users", number: "\(users)", href: DashboardNav.users.path),
            Stat(key: "identities", label: "Engage test identities", number: "\(identities)",
                 href: DashboardNav.identities.path),
            Stat(key: "emails", label: "Emails in the outbox", number: "\(emails)", href: DashboardNav.outbox.path),
            Stat(key: "tokens", label: "Live access tokens", number: "\(liveTokens)", href: DashboardNav.tokens.path),
            Stat(key: "faults", label: "Armed faults", number: "\(emulator.faults.pending.count)",
                 href: DashboardNav.faults.path),
            Stat(key: "requests", label: "Requests counted", number: "\(requests)", href: DashboardNav.counters.path),
        ]
        let offsetText = DashboardText.offset(emulator.clock.offsetSeconds)
        return Model(
            baseURL: emulator.publicBaseURL, now: DashboardText.time(now), shifted: offsetText != "none",
            offset: offsetText, stats: stats)
    }
}
