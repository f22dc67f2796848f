import GRDB
import Hummingbird

/// `/emulator/apps`: the API clients the Capture endpoints accept, each with its flow and schema.
struct AdminApps: Sendable {
    let emulator: Emulator

    func list() async throws -> JSONValue {
        ["apps": .array(try await emulator.apps.all().map(Self.json))]
    }

    /// `{"client_id","capture_app_id","flow_name"?,"flow_version"?,"locales"?,"thin_registration"?,
    ///   "engage_app_id"?,"flow"?,"schema"?}`; a custom flow is one flow document for every locale, or
    /// an object of flows keyed by locale.
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
            isDefault: false)
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
        ]
    }
}
