/// The users page's forms, through `AdminUsers` (the admin API's own code): the fields become the members
/// `POST /emulator/users` and `PATCH /emulator/users/{uuid}` take, so the schema, uniqueness and password
/// are checked and stored as there.
extension DashboardActions {
    private var users: AdminUsers { AdminUsers(emulator: emulator) }

    /// `client_id`, `email`, `password`?, `display_name`? and `record`? (a JSON object); returns the new
    /// user's uuid.
    func createUser(_ form: FormParams) async throws -> String {
        var body: [String: JSONValue] = [:]
        for name in ["client_id", "email", "password"] {
            if let value = form.nonEmpty(name) { body[name] = .string(value) }
        }
        var record = try Self.jsonObject(form.nonEmpty("record")) ?? [:]
        if let displayName = form.nonEmpty("display_name") {
            // Either one may be what the person meant: refuse rather than pick.
            if let given = record["displayName"], given != .string(displayName) {
                throw AdminError.badRequest("the display name is given twice, in its field and in the record")
            }
            record["displayName"] = .string(displayName)
        }
        if !record.isEmpty { body["record"] = .object(record) }
        let created = try await users.create(Self.adminRequest(body))
        return created["user"]?["uuid"]?.stringValue ?? ""
    }

    /// `record` (the JSON the edit page shows) and `mode` (`merge`: `entity.update`, `replace`:
    /// `entity.replace`).
    func editUser(uuid: String, _ form: FormParams) async throws {
        guard let record = try Self.jsonObject(form.nonEmpty("record")) else {
            throw AdminError.badRequest("the record is required (a JSON object)")
        }
        guard let mode = UserEditPage.Mode(rawValue: form.nonEmpty("mode") ?? UserEditPage.Mode.merge.rawValue) else {
            throw AdminError.badRequest("mode must be merge or replace")
        }
        _ = try await users.update(uuid: uuid, Self.adminRequest(["record": .object(record), "replace": .bool(mode == .replace)]))
    }

    /// Only from the confirmation page (`confirm=yes`): a stray post deletes nothing.
    func deleteUser(uuid: String, _ form: FormParams) async throws {
        try Self.requireConfirmation(form)
        _ = try await users.delete(uuid: uuid)
    }

    /// Only from the confirmation page (`confirm=yes`), like `deleteUser`.
    func reset(_ form: FormParams) async throws {
        try Self.requireConfirmation(form)
        _ = try await AdminControl(emulator: emulator).reset()
    }

    private static func requireConfirmation(_ form: FormParams) throws(AdminError) {
        guard form["confirm"] == "yes" else {
            throw AdminError.badRequest("confirm with the button of the confirmation page (confirm=yes)")
        }
    }

    /// A textarea's JSON object; nil when the field is empty.
    private static func jsonObject(_ text: String?) throws(AdminError) -> [String: JSONValue]? {
        guard let text else { return nil }
        guard let value = JSONValue.parse(text) else { throw AdminError.badRequest("the record is not valid JSON") }
        guard let object = value.objectValue else { throw AdminError.badRequest("the record must be a JSON object") }
        return object
    }
}
