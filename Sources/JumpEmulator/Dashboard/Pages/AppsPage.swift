import GRDB

/// `/emulator/ui/apps`: the Capture and Engage apps as the admin API lists them, secrets masked.
struct AppsPage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .apps)
        let captureApps: [CaptureApp]
        let engageApps: [EngageAppView]
    }

    struct CaptureApp: Sendable {
        let clientId: String
        let captureAppId: String
        let secret: String
        let flowName: String
        let flowVersion: String
        let customFlow: Bool
        let customSchema: Bool
        let locales: String
        let thinRegistration: Bool
        let engageAppId: String
        let recoverURL: String
        let isDefault: Bool
        let userCount: Int
    }

    struct EngageAppView: Sendable {
        let id: String
        let apiKey: String
        let providers: String
        let sharingProviders: String
        let customProviders: String
        let whitelistedDomains: String
        let isDefault: Bool
    }

    func model() async throws -> Model {
        let captureJSON = try await AdminApps(emulator: emulator).list()["apps"]?.arrayValue ?? []
        let engageJSON = try await AdminEngageApps(emulator: emulator).list()["engage_apps"]?.arrayValue ?? []
        let userCounts = try await emulator.store.read { db in
            try Row.fetchAll(db, sql: "SELECT client_id, COUNT(*) AS n FROM users GROUP BY client_id")
                .reduce(into: [String: Int]()) { counts, row in counts[row["client_id"]] = row["n"] }
        }
        let captureApps = captureJSON.map { app -> CaptureApp in
            let clientId = app["client_id"]?.stringValue ?? ""
            return CaptureApp(
                clientId: clientId, captureAppId: app["capture_app_id"]?.stringValue ?? "",
                secret: app["client_secret"]?.stringValue == nil ? "none" : DashboardText.masked,
                flowName: app["flow_name"]?.stringValue ?? "", flowVersion: app["flow_version"]?.stringValue ?? "",
                customFlow: app["custom_flow"]?.boolValue ?? false, customSchema: app["custom_schema"]?.boolValue ?? false,
                locales: DashboardText.list(Self.strings(app["locales"])),
                thinRegistration: app["thin_registration"]?.boolValue ?? false,
                engageAppId: app["engage_app_id"]?.stringValue ?? "none",
                recoverURL: app["password_recover_url"]?.stringValue ?? "the emulator's /password_recover",
                isDefault: app["default"]?.boolValue ?? false, userCount: userCounts[clientId] ?? 0)
        }
        let engageApps = engageJSON.map { app in
            EngageAppView(
                id: app["engage_app_id"]?.stringValue ?? "", apiKey: DashboardText.masked,
                providers: DashboardText.list(Self.strings(app["providers"])),
                sharingProviders: DashboardText.list(Self.strings(app["sharing_providers"])),
                customProviders: DashboardText.list((app["custom_provider_info"]?.objectValue ?? [:]).keys.sorted()),
                whitelistedDomains: DashboardText.list(Self.strings(app["whitelisted_domains"])),
                isDefault: app["default"]?.boolValue ?? false)
        }
        return Model(captureApps: captureApps, engageApps: engageApps)
    }

    private static func strings(_ value: JSONValue?) -> [String] {
        (value?.arrayValue ?? []).compactMap(\.stringValue)
    }
}
