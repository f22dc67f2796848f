/// The dashboard's pages and their links, in the order the header shows them.
enum DashboardNav: String, CaseIterable, Sendable {
    case overview, apps, users, identities, outbox, tokens, clock, faults, counters

    /// Pages live under `/emulator/ui/` (the JSON admin API has `/emulator/<name>`); the overview is
    /// `/emulator` itself.
    static let prefix = AdminPaths.prefix + "/ui"

    var path: String {
        self == .overview ? AdminPaths.prefix : "\(Self.prefix)/\(rawValue)"
    }

    var label: String {
        switch self {
        case .overview: "Overview"
        case .apps: "Apps"
        case .users: "Users"
        case .identities: "Engage identities"
        case .outbox: "Outbox"
        case .tokens: "Access tokens"
        case .clock: "Clock"
        case .faults: "Faults"
        case .counters: "Counters"
        }
    }

    struct Link: Sendable {
        let href: String
        let label: String
        let current: Bool
    }

    static func links(current: DashboardNav) -> [Link] {
        allCases.map { Link(href: $0.path, label: $0.label, current: $0 == current) }
    }
}
