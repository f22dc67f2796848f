/// `POST /entity.create`: `type_name`, `attributes` (a JSON object), `include_record` → `{"stat":"ok",
/// "id":N,"uuid":"..."}`, plus `result` (the new record) with `include_record=true`. API client
/// credentials only. The record goes through the checks of `entity.update` and registration
/// (223, 234, 341, 342, 361, 362, 363; `Emulator.createRecord`); a `password` string is stored as a
/// bcrypt hash.
struct EntityCreateEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireOwner(call)
        let value = try EntityUpdateEndpoint.readValue(call.params)
        // Hash a new password before the transaction: bcrypt is slow on purpose.
        var passwordHash: String?
        if let password = RecordUpdater.passwordText(in: value, at: .root) {
            passwordHash = await emulator.passwords.hash(password)
        }
        let (user, attributes) = try await emulator.createRecord(value, app: app, preparedPasswordHash: passwordHash)
        var answer: [String: JSONValue] = ["stat": "ok", "id": .int(user.id ?? 0), "uuid": .string(user.uuid)]
        if EntityUpdateEndpoint.includeRecord(call.params) {
            answer["result"] = RecordShaper(schema: app.schema).shape(attributes, reserved: user.reserved)
        }
        return .object(answer)
    }
}
