import Foundation
import Hummingbird

/// `GET` / `PUT /v2/user/{user_id}/profile`: a user-scoped resource, so clients can test calls made
/// with an access token (only that user's) or the team key (any user of the team). The profile is a
/// free JSON object; the answer is `{"user_id","data":{...}}`.
struct ProfileEndpoints: Sendable {
    let emulator: Emulator

    func get(_ request: Request, userId: String) async throws -> JSONValue {
        let user = try await emulator.authorizeUser(request, userId: userId, allowUserToken: true)
        return Self.answer(user)
    }

    /// Merges the body's members into the stored profile (a shallow merge: a member given replaces the
    /// stored one, `null` removes it, members not given stay).
    func put(_ request: Request, _ context: EmulatorRequestContext, userId: String) async throws -> JSONValue {
        let user = try await emulator.authorizeUser(request, userId: userId, allowUserToken: true)
        let changes = try await JSONBody.object(request, context: context)
        let updated = try await emulator.store.write { db -> TokenUserRow? in
            guard var stored = try TokenUserRow.fetchOne(db, key: user.userId), !stored.isDeleted else { return nil }
            var data = stored.profileData
            for (key, value) in changes {
                if value.isNull { data.removeValue(forKey: key) } else { data[key] = value }
            }
            stored.profile = JSONValue.object(data).serialized()
            try stored.update(db)
            return stored
        }
        guard let updated else { throw DetailError.notFound("no user \(userId)") }
        return Self.answer(updated)
    }

    static func answer(_ user: TokenUserRow) -> JSONValue {
        ["user_id": .string(user.userId), "data": .object(user.profileData)]
    }
}
