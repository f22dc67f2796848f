import Foundation
import Hummingbird

/// `/v2/user...`: a team's backend creates users, mints their sign-in tokens, revokes their tokens
/// and deletes them with its API key; `GET /v2/user/{user_id}` also takes that user's access token.
struct TokenUserEndpoints: Sendable {
    let emulator: Emulator

    /// `POST /v2/user` `{"client_user_id"}` → `{"user_id","client_user_id"}`; a `client_user_id`
    /// the team already has is 400 `user_exists` with that user's id.
    func create(_ request: Request, _ context: EmulatorRequestContext) async throws -> JSONValue {
        let team = try await emulator.requireTeam(request)
        let body = try await JSONBody.object(request, context: context)
        guard let clientUserId = body["client_user_id"]?.stringValue, !clientUserId.isEmpty else {
            throw DetailError.invalidRequest("client_user_id is required (a non-empty string)")
        }
        let now = emulator.clock.now()
        let created = try await emulator.store.write { db in
            try TokenUsers.create(teamId: team.teamId, clientUserId: clientUserId, now: now, in: db)
        }
        switch created {
        case .created(let user):
            return ["user_id": .string(user.userId), "client_user_id": .string(user.clientUserId)]
        case .exists(let user):
            throw DetailError(status: .badRequest, errorType: "user_exists",
                              message: "the team already has a user with client_user_id \(clientUserId)",
                              extras: ["user_id": .string(user.userId)])
        }
    }

    /// `GET /v2/user/{user_id}` → `{"user_id","client_user_id","team_id"}`.
    func get(_ request: Request, userId: String) async throws -> JSONValue {
        try await emulator.authorizeUser(request, userId: userId, allowUserToken: true).json
    }

    /// `DELETE /v2/user/{user_id}` → `{"success":true}`; the user's tokens stop working.
    func delete(_ request: Request, userId: String) async throws -> JSONValue {
        let user = try await emulator.authorizeUser(request, userId: userId, allowUserToken: false)
        let now = emulator.clock.now()
        _ = try await emulator.store.write { db in try TokenUsers.delete(userId: user.userId, now: now, in: db) }
        return ["success": true]
    }

    /// `POST /v2/user/{user_id}/revoke_tokens` → `{"success":true}`: every refresh token (and access
    /// token) of the user is revoked; the next refresh answers `reauthentication_required`.
    func revokeTokens(_ request: Request, userId: String) async throws -> JSONValue {
        let user = try await emulator.authorizeUser(request, userId: userId, allowUserToken: false)
        let now = emulator.clock.now()
        _ = try await emulator.store.write { db in
            try TokenGrants.revokeAll(userId: user.userId, reason: .revokeTokens, now: now, in: db)
        }
        return ["success": true]
    }

    /// `POST /v2/user/{user_id}/sign_in_token` (no body) → `{"user_id","sign_in_token"}`.
    func signInToken(_ request: Request, userId: String) async throws -> JSONValue {
        let user = try await emulator.authorizeUser(request, userId: userId, allowUserToken: false)
        let minted = try await emulator.mintSignInToken(for: user)
        return ["user_id": .string(user.userId), "sign_in_token": .string(minted.envelope)]
    }
}

extension Emulator {
    /// A sign-in token for `user`, valid for the configured lifetime on the emulator clock.
    func mintSignInToken(for user: TokenUserRow, lifetime: Int? = nil) async throws -> SignInTokenMinter.Minted {
        let team = try await store.read { db in try TeamRow.fetchOne(db, key: user.teamId) }
        guard let team else { throw DetailError.notFound("the user's team no longer exists") }
        return try SignInTokenMinter.mint(
            user: user, team: team, now: clock.now(), lifetime: lifetime ?? signInTokenSettings.signInTokenLifetime,
            key: signingKey)
    }
}

/// JSON request bodies of the `/v2` API: an object, or nothing (`{}`).
enum JSONBody {
    static func object(_ request: Request, context: EmulatorRequestContext) async throws -> [String: JSONValue] {
        let text = try await RequestBodies.text(request, context: context)
        if text.allSatisfy(\.isWhitespace) { return [:] }
        guard let object = JSONValue.parse(text)?.objectValue else {
            throw DetailError.invalidRequest("the body must be a JSON object")
        }
        return object
    }
}
