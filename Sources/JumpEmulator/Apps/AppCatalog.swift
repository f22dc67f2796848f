import GRDB

/// Looks apps up by client id, caching the decoded configuration (schema and flows are parsed once,
/// not on every request). Any change to the apps table calls `invalidate()`.
final class AppCatalog: Sendable {
    private let store: Store
    private let cache = Locked<[String: AppConfig]>([:])

    init(store: Store) {
        self.store = store
    }

    func app(clientId: String) async throws -> AppConfig? {
        if let cached = cache.withLock({ $0[clientId] }) { return cached }
        guard let row = try await store.read({ db in try AppRow.fetchOne(db, key: clientId) }) else { return nil }
        let config = AppConfig(row: row)
        cache.withLock { $0[clientId] = config }
        return config
    }

    /// The app whose flow is served under `/widget_data/flows/{captureAppId}/{flowName}/...`.
    func app(captureAppId: String, flowName: String) async throws -> AppConfig? {
        let row = try await store.read { db in
            try AppRow.filter(Column("capture_app_id") == captureAppId && Column("flow_name") == flowName)
                .order(Column("is_default").desc, Column("client_id")).fetchOne(db)
        }
        return row.map(AppConfig.init(row:))
    }

    func all() async throws -> [AppConfig] {
        try await store.read { db in
            try AppRow.order(Column("is_default").desc, Column("client_id")).fetchAll(db)
        }.map(AppConfig.init(row:))
    }

    func invalidate() {
        cache.withLock { $0.removeAll() }
    }
}
