/// `GET /signin/device?token=..` (or `?error=..`): the end of a browser sign-in in
/// "token_profile" mode, read by the client (docs/protocol.md §4.5). Always HTTP 200 with `rpx_result`.
struct EngageDeviceEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ params: FormParams) async throws -> JSONValue {
        if let error = params.nonEmpty("error") { return Self.fail(error) }
        let token = params.nonEmpty("token") ?? ""
        let now = emulator.clock.now().timeIntervalSince1970
        guard let row = try await emulator.store.read({ db in try EngageTokens.valid(token, now: now, in: db) }) else {
            return Self.fail("Authentication failed")
        }
        let profile = row.profile
        var result: [String: JSONValue] = [
            "stat": "ok",
            "token": .string(row.token),
            "device_token": row.deviceToken.map(JSONValue.string) ?? .null,
            "preferred_username": profile["preferredUsername"] ?? .null,
            "provider": .string(row.provider),
            "auth_info": ["stat": "ok", "profile": .object(profile)],
        ]
        if let photo = profile["photo"] { result["photo"] = photo }
        return ["rpx_result": .object(result)]
    }

    static func fail(_ message: String) -> JSONValue {
        ["rpx_result": ["stat": "fail", "error": .string(message)]]
    }
}
