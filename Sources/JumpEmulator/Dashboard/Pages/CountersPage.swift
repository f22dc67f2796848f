/// `/emulator/ui/counters`: `GET /emulator/counters` as a table, busiest first.
struct CountersPage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .counters)
        let total: Int64
        let hasRows: Bool
        let rows: [Row]
    }

    struct Row: Sendable {
        let method: String
        let path: String
        let count: Int64
        let bytes: Int64
    }

    func model() -> Model {
        let answer = AdminControl(emulator: emulator).counters()
        let counts = answer["counters"]?.objectValue ?? [:]
        let bytes = answer["request_bytes"]?.objectValue ?? [:]
        let rows = counts.map { key, value in
            let parts = key.split(separator: " ", maxSplits: 1).map(String.init)
            return Row(
                method: parts.first ?? "", path: parts.count > 1 ? parts[1] : "", count: value.intValue ?? 0,
                bytes: bytes[key]?.intValue ?? 0)
        }
        .sorted { ($0.count, $1.method + $1.path) > ($1.count, $0.method + $0.path) }
        return Model(total: rows.reduce(0) { $0 + $1.count }, hasRows: !rows.isEmpty, rows: rows)
    }
}
