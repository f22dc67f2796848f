import GRDB

/// `POST /entityType.setAccessSchema` and `POST /entityType.getAccessSchema`: which attributes an
/// API client may read or write. Both authenticate the calling client (`client_id` +
/// `client_secret`, Basic, or a janrain signature; parameters from the POST body only); `for_client_id` names the client whose schema it is (default: the
/// caller). Only `write_with_token` is enforced by the emulator: it limits what the access tokens
/// issued to that client may write with `entity.update`, `entity.replace` and `entity.delete`.
struct AccessSchemaEndpoints: Sendable {
    let emulator: Emulator

    /// `type_name`, `access_type`, `attributes` (JSON array of paths; `[]` removes the schema),
    /// `for_client_id`? → `{"stat":"ok"}`.
    func set(_ call: CaptureCall) async throws -> JSONValue {
        let (target, accessType) = try await resolve(call)
        let access = try AccessSchema.parse(try call.required("attributes"), schema: target.schema)
        try await emulator.store.write { db in
            if access.paths.isEmpty {
                _ = try AccessSchemaRow.filter(Column("client_id") == target.clientId && Column("access_type") == accessType.rawValue)
                    .deleteAll(db)
            } else {
                try AccessSchemaRow(
                    clientId: target.clientId, accessType: accessType.rawValue,
                    attributes: JSONValue.array(access.paths.map(JSONValue.string)).serialized()
                ).save(db)
            }
        }
        return ["stat": "ok"]
    }

    /// `type_name`, `access_type`, `for_client_id`? → `{"stat":"ok","schema":{"name","attr_defs"},
    /// "attributes":[paths]}`: Capture's answer (the schema reduced to the allowed attributes; the
    /// whole schema when none is set) plus the stored paths, `[]` when none is set.
    func get(_ call: CaptureCall) async throws -> JSONValue {
        let (target, accessType) = try await resolve(call)
        let access = try await emulator.accessSchema(clientId: target.clientId, type: accessType)
        let schema = access.map { $0.filter(target.schema) } ?? target.schema
        return [
            "stat": "ok", "schema": schema.json,
            "attributes": .array((access?.paths ?? []).map(JSONValue.string)),
        ]
    }

    /// The app whose schema is read or written, and the access type.
    private func resolve(_ call: CaptureCall) async throws -> (AppConfig, AccessSchema.AccessType) {
        let caller = try await emulator.requireClientCredentials(call)
        var target = caller
        if let forClientId = call.params.nonEmpty("for_client_id"), forClientId != caller.clientId {
            guard let other = try await emulator.apps.app(clientId: forClientId) else {
                throw CaptureError.invalidArgument("for_client_id", "unknown client \(forClientId)")
            }
            target = other
        }
        let typeName = call.params.nonEmpty("type_name") ?? target.schema.name
        guard typeName == target.schema.name else { throw CaptureError.unknownEntityType(typeName) }
        let typeText = try call.required("access_type")
        guard let accessType = AccessSchema.AccessType(rawValue: typeText) else {
            let known = AccessSchema.AccessType.allCases.map(\.rawValue).joined(separator: ", ")
            throw CaptureError.invalidArgument("access_type", "access_type must be one of \(known)")
        }
        return (target, accessType)
    }
}
