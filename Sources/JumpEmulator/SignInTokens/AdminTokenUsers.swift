import Foundation
import GRDB

/// `/emulator/token_users`: users of the sign-in-token API made, inspected, revoked and deleted
/// without an API key.
struct AdminTokenUsers: Sendable {
    let emulator: Emulator

    /// `{"client_user_id"?, "team_id"?}` (default: a generated id, the default team).
    func create(_ request: AdminRequest) async throws -> JSONValue {
        let teamId = try request.string("team_id")?.lowercased() ?? TeamRow.defaultTeamId
        let clientUserId = try request.string("client_user_id") ?? "emulator-" + Tokens.randomURLSafe(byteCount: 9)
        guard !clientUserId.isEmpty else { throw AdminError.badRequest("client_user_id must not be empty") }
        let now = emulator.clock.now()
        let created = try await emulator.store.write { db -> TokenUsers.Created? in
            guard try TeamRow.fetchOne(db, key: teamId) != nil else { return nil }
            return try TokenUsers.create(teamId: teamId, clientUserId: clientUserId, now: now, in: db)
        }
        switch created {
        case nil:
            throw AdminError.notFound("no team \(teamId)")
        case .exists(let user)?:
            throw AdminError(status: .conflict, error: "user_exists",
                             message: "the team already has a user with client_user_id \(clientUserId)",
                             extras: ["user_id": .string(user.userId)])
        case .created(let user)?:
            return try await shown(user)
        }
    }

    /// `{"token_users":[...]}`, deleted ones included.
    func list() async throws -> JSONValue {
        let users = try await emulator.store.read { db in
            try TokenUserRow.order(Column("created"), Column("user_id")).fetchAll(db)
        }
        var shownUsers: [JSONValue] = []
        for user in users { shownUsers.append(try await shown(user)) }
        return ["token_users": .array(shownUsers)]
    }

    func get(userId: String) async throws -> JSONValue {
        try await shown(try await find(userId))
    }

    /// `{"user_id","revoked_token_families":N}`.
    func revoke(userId: String) async throws -> JSONValue {
        let user = try await find(userId)
        let now = emulator.clock.now()
        let revoked = try await emulator.store.write { db in
            try TokenGrants.revokeAll(userId: user.userId, reason: .revokeTokens, now: now, in: db)
        }
        return ["user_id": .string(user.userId), "revoked_token_families": .int(Int64(revoked))]
    }

    /// `{"deleted":1}`; the user stays listed as deleted so its tokens keep saying why they fail.
    func delete(userId: String) async throws -> JSONValue {
        let now = emulator.clock.now()
        let deleted = try await emulator.store.write { db in try TokenUsers.delete(userId: userId, now: now, in: db) }
        guard deleted else { throw AdminError.notFound("no live token user \(userId)") }
        return ["deleted": 1]
    }

    /// `{"lifetime_seconds"?}` → `{"user_id","sign_in_token","user_token","jti","expires_at"}`: a
    /// token for tests, minted without the team key.
    func signInToken(userId: String, _ request: AdminRequest) async throws -> JSONValue {
        let user = try await find(userId)
        guard !user.isDeleted else { throw AdminError.conflict("user_deleted", "the user was deleted") }
        let lifetime = try request.int("lifetime_seconds")
        if let lifetime, !(1...SignInTokenSettings.maximumSignInTokenLifetime).contains(lifetime) {
            throw AdminError.badRequest("lifetime_seconds must be 1...\(SignInTokenSettings.maximumSignInTokenLifetime)")
        }
        let minted = try await emulator.mintSignInToken(for: user, lifetime: lifetime)
        return [
            "user_id": .string(user.userId), "sign_in_token": .string(minted.envelope),
            "user_token": .string(minted.userToken), "jti": .string(minted.jti),
            "expires_at": .int(Int64(minted.expiresAt)),
        ]
    }

    private func find(_ userId: String) async throws -> TokenUserRow {
        let user = try await emulator.store.read { db in try TokenUserRow.find(id: userId, in: db) }
        guard let user else { throw AdminError.notFound("no token user \(userId)") }
        return user
    }

    /// The user, its profile and what its tokens look like.
    private func shown(_ user: TokenUserRow) async throws -> JSONValue {
        let now = emulator.clock.now()
        let tokens = try await emulator.store.read { db in try TokenGrants.summary(userId: user.userId, now: now, in: db) }
        var members = tokens.objectValue ?? [:]
        members["user_id"] = .string(user.userId)
        members["client_user_id"] = .string(user.clientUserId)
        members["team_id"] = .string(user.teamId)
        members["deleted"] = .bool(user.isDeleted)
        members["profile"] = .object(user.profileData)
        return .object(members)
    }
}
