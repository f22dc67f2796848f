/// `POST /api/v2/auth_info` (apiKey, token, format=json): what an app's token URL server asks Engage about
/// a token (docs/protocol.md §4.7). Only the token's own app (by its API key) may read it.
struct EngageAuthInfoEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ params: FormParams) async throws -> JSONValue {
        let apiKey = params.nonEmpty("apiKey") ?? ""
        let token = params.nonEmpty("token") ?? ""
        let now = emulator.clock.now().timeIntervalSince1970
        return try await emulator.store.read { db -> JSONValue in
            guard !apiKey.isEmpty, let app = try EngageApp.find(apiKey: apiKey, in: db) else {
                return EngageFailure.invalid("apiKey").json
            }
            guard let row = try EngageTokens.valid(token, now: now, in: db), row.engageAppId == app.id else {
                return EngageFailure.dataNotFound.json
            }
            return ["stat": "ok", "profile": .object(row.profile), "provider": .string(row.provider)]
        }
    }
}
