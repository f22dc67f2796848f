import Foundation
import GRDB

/// Who calls `/entity`, `/entity.update`, `/entity.replace` or `/entity.delete`, and on whose record.
///
/// - A user's access token (`access_token` or `Authorization: OAuth`): that user's record; the
///   token's client's `write_with_token` access schema limits what it may write.
/// - The API client's own credentials (`client_id` + `client_secret`, Basic, or a signature) with
///   `uuid` or `id` naming a record of that client's app (and `type_name`, when sent, naming its
///   entity type): any record of the app; `write_with_token` does not apply, it limits tokens only.
///   Such a call reads the POST body only (`ParameterLocation`).
struct EntityCaller: Sendable {
    enum Credential: Sendable {
        case accessToken(AuthenticatedSession)
        case owner
    }

    let credential: Credential
    let app: AppConfig
    let user: UserRow
    /// The call as the endpoint should read it (the body only for owner calls).
    let call: CaptureCall

    var userId: Int64 { user.id ?? 0 }
}

extension Emulator {
    /// Resolves the caller: a token when one is sent; else the client's credentials when they are
    /// presented; else 100 `access_token`, as before owner calls existed.
    func entityCaller(_ call: CaptureCall) async throws -> EntityCaller {
        if call.accessToken != nil || !call.presentsClientCredentials {
            let signedIn = try await authenticate(call)
            return EntityCaller(credential: .accessToken(signedIn), app: signedIn.app, user: signedIn.user, call: call)
        }
        let ownerCall = call.bodyOnly()
        do {
            let app = try await requireClientCredentials(ownerCall)
            let user = try await ownerTarget(ownerCall, app: app)
            return EntityCaller(credential: .owner, app: app, user: user, call: ownerCall)
        } catch let error as CaptureError {
            throw ParameterLocation.explain(error, for: ownerCall)
        }
    }

    /// The record an owner call names: `uuid`, or `id`; both may be sent if they name the same
    /// record. `type_name` must be the app's entity type (222). Neither is 100 `uuid`; an unknown
    /// record (or one of another app) is 310 record_not_found.
    func ownerTarget(_ call: CaptureCall, app: AppConfig) async throws -> UserRow {
        if let typeName = call.params.nonEmpty("type_name"), typeName != app.schema.name {
            throw CaptureError.unknownEntityType(typeName)
        }
        let uuid = call.params.nonEmpty("uuid")
        let id: Int64?
        if let text = call.params.nonEmpty("id") {
            guard let number = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                throw CaptureError.invalidArgument("id", "id must be an integer")
            }
            id = number
        } else {
            id = nil
        }
        guard uuid != nil || id != nil else {
            throw CaptureError(code: 100, error: "missing_argument",
                               description: "missing required argument: uuid (or id) naming the record",
                               extras: ["argument_name": "uuid"])
        }
        let clientId = app.clientId
        let found = try await store.read { db -> UserRow? in
            var request = UserRow.filter(Column("client_id") == clientId)
            if let uuid { request = request.filter(Column("uuid") == uuid) }
            if let id { request = request.filter(Column("id") == id) }
            return try request.fetchOne(db)
        }
        guard let found else {
            throw CaptureError.recordNotFound(uuid.map { "uuid \($0)" } ?? "id \(id ?? 0)")
        }
        return found
    }
}
