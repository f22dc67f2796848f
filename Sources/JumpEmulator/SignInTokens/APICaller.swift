import Foundation
import Hummingbird

/// Who is calling a `/v2` endpoint: a team's backend with its API key, or a signed-in user with an
/// access token from `/v1/token` (docs/protocol.md §12.7).
enum APICaller: Sendable {
    case team(TeamRow)
    case user(TokenGrants.Grant)
}

extension Emulator {
    /// Junction's own header name first, then the Vital SDKs' one, which the emulator also takes.
    /// (`HTTPFields.Element` is HTTPTypes' `HTTPField`, which Hummingbird does not re-export.)
    static let apiKeyHeaders: [HTTPFields.Element.Name] = [
        HTTPFields.Element.Name("x-jump-api-key")!, HTTPFields.Element.Name("x-vital-api-key")!,
    ]

    /// The API key when one is sent, else the bearer token. No credential at all is a 401 with the
    /// bearer challenge (the resource endpoints are bearer-protected, RFC 6750 §3.1).
    func apiCaller(_ request: Request) async throws -> APICaller {
        if let key = Self.apiKeyHeaders.lazy.compactMap({ request.headers[$0] }).first {
            let team = try await store.read { db in try TeamRow.find(apiKey: key, in: db) }
            guard let team else { throw DetailError.invalidAPIKey() }
            return .team(team)
        }
        guard let authorization = request.headers[.authorization] else {
            throw DetailError.unauthorizedBearer("send Authorization: Bearer <access_token> or the team's x-jump-api-key")
        }
        guard let token = Self.bearerToken(authorization) else {
            throw DetailError.unauthorizedBearer("the Authorization header must be Bearer <access_token>")
        }
        let now = clock.now()
        return .user(try await store.read { db in try TokenGrants.validate(accessToken: token, now: now, in: db) })
    }

    /// Team-level calls (create, delete, mint, revoke) are not open to a user's access token.
    func requireTeam(_ request: Request) async throws -> TeamRow {
        switch try await apiCaller(request) {
        case .team(let team): return team
        case .user: throw DetailError.forbidden("this call needs the team's API key; a user's access token cannot make it")
        }
    }

    /// The live user `userId` when the caller may act on it: the team key reaches every user of its
    /// team; an access token reaches only its own user (`allowUserToken`), else 403. A missing or
    /// deleted user is 404 to the team.
    func authorizeUser(_ request: Request, userId: String, allowUserToken: Bool) async throws -> TokenUserRow {
        switch try await apiCaller(request) {
        case .team(let team):
            let user = try await store.read { db in try TokenUserRow.find(id: userId, in: db) }
            guard let user, !user.isDeleted else { throw DetailError.notFound("no user \(userId)") }
            guard user.teamId == team.teamId else { throw DetailError.forbidden("the user belongs to another team") }
            return user
        case .user(let grant):
            guard allowUserToken else {
                throw DetailError.forbidden("this call needs the team's API key; a user's access token cannot make it")
            }
            guard grant.user.userId == userId.lowercased() else {
                throw DetailError.forbidden("an access token only reaches its own user's resources")
            }
            return grant.user
        }
    }

    /// `Bearer <token>` (the scheme is case-insensitive); nil for any other form.
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
