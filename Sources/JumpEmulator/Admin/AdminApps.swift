import GRDB
import Hummingbird

/// `/emulator/apps`: the API clients the Capture endpoints accept, each with its flow and schema.
struct AdminApps: Sendable {
    let emulator: Emulator

    func list() async throws -> JSONValue {
        ["apps": .array(try await emulator.apps.all().map(Self.json))]
    }

    /// `{"client_id","capture_app_id","flow_name"?,"flow_version"?,"locales"?,"thin_registration"?,
    ///   "engage_app_id"?,"flow"?,"schema"?,"client_secret"?,"password_recover_url"?}`; a custom flow is
    /// one flow document for every locale, or an object of flows keyed by locale. Without
    /// `client_secret` a random one is made (the answer shows it).
    func create(_ request: AdminRequest) async throws -> JSONValue {
        let clientId = try request.requiredString("client_id")
        let captureAppId = try request.requiredString("capture_app_id")
        let flowName = try request.string("flow_name") ?? DefaultFlow.name
        guard !flowName.contains("/"), !captureAppId.contains("/") else {
            throw AdminError.badRequest("capture_app_id and flow_name cannot contain '/'")
        }
        var locales = try Self.locales(request)
        var flowJSON: String?
        var flowVersion = try request.string("flow_version")
        if let flow = request.body["flow"], !flow.isNull {
            if locales == nil, flow["fields"] == nil, let keys = flow.objectValue?.keys {
                locales = keys.sorted()
            }
            guard AppConfig.flowsByLocale(flow, locales: locales ?? DefaultFlow.locales) != nil else {
                throw AdminError.badRequest("flow must be a flow document with fields, or flows keyed by locale")
            }
            flowJSON = flow.serialized()
            flowVersion = flowVersion ?? flow["version"]?.stringValue
        }
        var schemaJSON: String?
        if let schema = request.body["schema"], !schema.isNull {
            do {
                schemaJSON = try Schema.parse(schema).json.serialized()
            } catch {
                throw AdminError.badRequest("schema: \(error.message)")
            }
        }
        let row = AppRow(
            clientId: clientId, captureAppId: captureAppId, flowName: flowName,
            flowVersion: flowVersion ?? DefaultFlow.version,
            locales: JSONValue.array((locales ?? DefaultFlow.locales).map(JSONValue.string)).serialized(),
            thinRegistration: try request.bool("thin_registration") ?? false,
            engageAppId: try request.string("engage_app_id"), flowJSON: flowJSON, schemaJSON: schemaJSON,
            isDefault: false, clientSecret: try request.string("client_secret") ?? Tokens.randomURLSafe(byteCount: 24),
            passwordRecoverURL: try request.string("password_recover_url"))
        let inserted = try await emulator.store.write { db -> Bool in
            guard try AppRow.fetchOne(db, key: clientId) == nil else { return false }
            try row.insert(db)
            return true
        }
        guard inserted else { throw AdminError.conflict("app_exists", "an app with client_id \(clientId) exists") }
        emulator.apps.invalidate()
        return Self.json(AppConfig(row: row))
    }

    /// Deletes the app's users (their sessions and codes go with them); the app stays.
    func resetUsers(clientId: String) async throws -> JSONValue {
        let deleted = try await emulator.store.write { db -> Int? in
            guard try AppRow.fetchOne(db, key: clientId) != nil else { return nil }
            return try UserRow.filter(Column("client_id") == clientId).deleteAll(db)
        }
        guard let deleted else { throw AdminError.notFound("no app with client_id \(clientId)") }
        return ["client_id": .string(clientId), "deleted_users": .int(Int64(deleted))]
    }

    func delete(clientId: String) async throws -> JSONValue {
        let outcome = try await emulator.store.write { db -> Bool? in
            guard let row = try AppRow.fetchOne(db, key: clientId) else { return nil }
            guard !row.isDefault else { return false }
            try row.delete(db)
            return true
        }
        switch outcome {
        case nil: throw AdminError.notFound("no app with client_id \(clientId)")
        case false?: throw AdminError.conflict("default_app", "the default app cannot be deleted; use /emulator/reset")
        case true?:
            emulator.apps.invalidate()
            return ["deleted": 1]
        }
    }

    private static func locales(_ request: AdminRequest) throws(AdminError) -> [String]? {
        guard let value = request.body["locales"], !value.isNull else { return nil }
        guard let list = value.arrayValue?.compactMap(\.stringValue), !list.isEmpty,
            list.count == value.arrayValue?.count
        else {
            throw AdminError.badRequest("locales must be a non-empty array of strings")
        }
        return list
    }

    static func json(_ app: AppConfig) -> JSONValue {
        let row = app.row
        return [
            "client_id": .string(row.clientId),
            "capture_app_id": .string(row.captureAppId),
            "flow_name": .string(row.flowName),
            "flow_version": .string(row.flowVersion),
            "locales": .array(app.locales.map(JSONValue.string)),
            "thin_registration": .bool(row.thinRegistration),
            "engage_app_id": row.engageAppId.map(JSONValue.string) ?? .null,
            "default": .bool(row.isDefault),
            "custom_flow": .bool(row.flowJSON != nil),
            "custom_schema": .bool(row.schemaJSON != nil),
            "client_secret": row.clientSecret.map(JSONValue.string) ?? .null,
            "password_recover_url": row.passwordRecoverURL.map(JSONValue.string) ?? .null,
        ]
    }

    /// `{"write_with_token":[paths], "read"?: [...], ...}`: sets the access schemas of the app in one
    /// call (an empty list removes one), with the checks of `entityType.setAccessSchema`. Answers
    /// `{"client_id", "<access_type>":[canonical paths], ...}` for every type set.
    func setAccessSchema(clientId: String, _ request: AdminRequest) async throws -> JSONValue {
        guard let app = try await emulator.apps.app(clientId: clientId) else {
            throw AdminError.notFound("no app with client_id \(clientId)")
        }
        var given: [(AccessSchema.AccessType, AccessSchema)] = []
        for type in AccessSchema.AccessType.allCases {
            guard let value = request.body[type.rawValue], !value.isNull else { continue }
            do {
                given.append((type, try AccessSchema.parse(value.serialized(), schema: app.schema)))
            } catch {
                throw AdminError.invalidRecord(error)
            }
        }
        guard !given.isEmpty else {
            throw AdminError.badRequest("give write_with_token (or read, write, read_with_token) as a list of paths")
        }
        let settings = given
        try await emulator.store.write { db in
            for (type, access) in settings {
                _ = try AccessSchemaRow.filter(Column("client_id") == clientId && Column("access_type") == type.rawValue)
                    .deleteAll(db)
                if !access.paths.isEmpty {
                    try AccessSchemaRow(
                        clientId: clientId, accessType: type.rawValue,
                        attributes: JSONValue.array(access.paths.map(JSONValue.string)).serialized()
                    ).insert(db)
                }
            }
        }
        return try await accessSchemas(clientId: clientId)
    }

    /// `{"client_id", "<access_type>":[paths], ...}` for every access type that is set.
    func accessSchemas(clientId: String) async throws -> JSONValue {
        guard try await emulator.apps.app(clientId: clientId) != nil else {
            throw AdminError.notFound("no app with client_id \(clientId)")
        }
        let rows = try await emulator.store.read { db in
            try AccessSchemaRow.filter(Column("client_id") == clientId).fetchAll(db)
        }
        var answer: [String: JSONValue] = ["client_id": .string(clientId)]
        for row in rows {
            answer[row.accessType] = .array(row.paths.map(JSONValue.string))
        }
        return .object(answer)
    }
}
