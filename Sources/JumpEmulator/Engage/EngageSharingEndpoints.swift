/// The sharing calls (docs/protocol.md §4.8): `/api/v2/activity`, `/api/v2/set_status`,
/// `/social/record_activity` and `/openid/get_urls`. Shares are stored for tests to read; queued share
/// errors answer instead when there are any for the provider.
struct EngageSharingEndpoints: Sendable {
    let emulator: Emulator

    enum Share: Sendable {
        case activity
        case status
    }

    /// `device_token`, `provider` (default: the device token's), and `activity` (a JSON object with
    /// `action`) or `status` (non-empty).
    func share(_ kind: Share, _ params: FormParams) async throws -> JSONValue {
        let deviceToken = params.nonEmpty("device_token") ?? ""
        let now = emulator.clock.now().timeIntervalSince1970
        return try await emulator.store.write { db -> JSONValue in
            guard !deviceToken.isEmpty, let token = try EngageTokenRow.find(deviceToken: deviceToken, in: db),
                let app = try EngageApp.find(token.engageAppId, in: db)
            else { return EngageFailure.reauthenticate.json }
            let provider = params.nonEmpty("provider") ?? token.provider
            guard provider == token.provider, app.isSharingProvider(provider) else {
                return EngageFailure.invalid("provider").json
            }
            if let queued = try EngageShareErrorRow.take(provider: provider, in: db) { return queued.json }
            var row = EngageActivityRow(
                id: nil, engageAppId: app.id, provider: provider, identifier: token.identifier, kind: "",
                activityJson: nil, status: nil, device: params["device"], appName: params["app_name"], created: now)
            switch kind {
            case .activity:
                guard let activity = params["activity"].flatMap(JSONParser.parse), activity.objectValue != nil,
                    let action = activity["action"], !action.isNull
                else { return EngageFailure.invalid("activity").json }
                row.kind = EngageActivityRow.Kind.activity.rawValue
                row.activityJson = activity.serialized()
            case .status:
                guard let status = params.nonEmpty("status") else { return EngageFailure.missing("status").json }
                row.kind = EngageActivityRow.Kind.status.rawValue
                row.status = status
            }
            try row.insert(db)
            return ["stat": "ok"]
        }
    }

    /// Email and SMS shares the client reports (`method=email|sms`); the SDKs ignore the answer.
    func recordActivity(_ params: FormParams) async throws -> JSONValue {
        let method = params.nonEmpty("method")?.lowercased() ?? "unknown"
        let now = emulator.clock.now().timeIntervalSince1970
        let row = EngageActivityRow(
            id: nil, engageAppId: params.nonEmpty("appId") ?? params.nonEmpty("applicationId"), provider: nil,
            identifier: nil, kind: String(method.prefix(64)), activityJson: nil, status: nil, device: params["device"],
            appName: params["app_name"], created: now)
        try await emulator.store.write { db in
            var row = row
            try row.insert(db)
        }
        return ["stat": "ok"]
    }

    /// `urls` = `{"activity":[..],"email":[..],"sms":[..]}` -> `{"urls":{"activity":{long:short},...}}`.
    func getURLs(_ params: FormParams, base: String) async throws -> JSONValue {
        guard let request = params["urls"].flatMap(JSONParser.parse)?.objectValue else {
            return EngageFailure.invalid("urls").json
        }
        let now = emulator.clock.now().timeIntervalSince1970
        let urls = try await emulator.store.write { db in
            try EngageShortURLs.shorten(request, base: base, now: now, in: db)
        }
        return ["urls": urls]
    }
}
