import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

@Suite("Sign-in tokens: users and user-scoped resources")
struct SignInTokenAPITests {
    @Test func usersAreUniquePerClientUserId() async throws {
        try await Harness.run { h in
            let userId = try await h.createTokenUser("app-user-1")
            let (status, answer, _) = try await h.api(
                .post, "/v2/user", json: ["client_user_id": "app-user-1"], headers: Harness.apiKey())
            #expect(status == .badRequest)
            #expect(answer.errorType == "user_exists")
            #expect(answer["detail"]?["user_id"] == .string(userId))

            // Another team may use the same client_user_id.
            let (_, team) = try await h.admin(.post, "/teams", [:])
            let otherKey = try #require(team["api_key"]?.stringValue)
            #expect(try await h.createTokenUser("app-user-1", key: otherKey) != userId)

            let (bad, badAnswer, _) = try await h.api(.post, "/v2/user", json: [:], headers: Harness.apiKey())
            #expect(bad == .badRequest)
            #expect(badAnswer.errorType == "invalid_request")
            let (created, createdAnswer, _) = try await h.api(
                .post, "/v2/user", json: ["client_user_id": "app-user-2"], headers: Harness.apiKey())
            #expect(created == .ok)
            #expect(Set(createdAnswer.objectValue?.keys ?? [:].keys) == ["user_id", "client_user_id"])
        }
    }

    @Test func aUsersTokenReachesOnlyThatUser() async throws {
        try await Harness.run { h in
            let alice = try await h.signedInTokenUser("alice")
            let bob = try await h.signedInTokenUser("bob")
            let (status, answer, _) = try await h.profile(bob.userId, headers: Harness.bearer(alice.accessToken))
            #expect(status == .forbidden)
            #expect(answer.errorType == "forbidden")
            let (put, _, _) = try await h.api(
                .put, "/v2/user/\(bob.userId)/profile", json: ["x": 1], headers: Harness.bearer(alice.accessToken))
            #expect(put == .forbidden)
            #expect(try await h.api(.get, "/v2/user/\(bob.userId)", headers: Harness.bearer(alice.accessToken)).0 == .forbidden)
            // Team-level calls are closed to user tokens, even on the user itself.
            let (mint, _, _) = try await h.api(
                .post, "/v2/user/\(alice.userId)/sign_in_token", headers: Harness.bearer(alice.accessToken))
            #expect(mint == .forbidden)
            #expect(try await h.api(.delete, "/v2/user/\(alice.userId)", headers: Harness.bearer(alice.accessToken)).0 == .forbidden)
            let (create, _, _) = try await h.api(
                .post, "/v2/user", json: ["client_user_id": "carol"], headers: Harness.bearer(alice.accessToken))
            #expect(create == .forbidden)
        }
    }

    @Test func theProfileMergesWrites() async throws {
        try await Harness.run { h in
            let alice = try await h.signedInTokenUser("alice")
            let path = "/v2/user/\(alice.userId)/profile"
            let (status, first, _) = try await h.api(
                .put, path, json: ["name": "Alice", "steps": 10, "tags": ["a"]], headers: Harness.bearer(alice.accessToken))
            #expect(status == .ok)
            #expect(first == ["user_id": .string(alice.userId), "data": ["name": "Alice", "steps": 10, "tags": ["a"]]])
            let (_, second, _) = try await h.api(
                .put, path, json: ["steps": 12, "tags": nil], headers: Harness.bearer(alice.accessToken))
            #expect(second["data"] == ["name": "Alice", "steps": 12])
            #expect(try await h.profile(alice.userId, headers: Harness.bearer(alice.accessToken)).1 == second)

            let (bad, badAnswer, _) = try await h.request(
                .put, path, body: "[1]", contentType: "application/json", headers: Harness.bearer(alice.accessToken))
                .asAPI()
            #expect(bad == .badRequest)
            #expect(badAnswer.errorType == "invalid_request")
        }
    }

    @Test func theTeamKeyReachesEveryUserOfItsTeam() async throws {
        try await Harness.run { h in
            let alice = try await h.createTokenUser("alice")
            let bob = try await h.createTokenUser("bob")
            for userId in [alice, bob] {
                let (status, profile, _) = try await h.api(
                    .put, "/v2/user/\(userId)/profile", json: ["seen": true], headers: Harness.apiKey())
                #expect(status == .ok)
                #expect(profile["data"] == ["seen": true])
                let vitalHeader = Harness.header("x-vital-api-key", Harness.teamKey)
                #expect(try await h.profile(userId, headers: vitalHeader).1["data"] == ["seen": true])
                let (getStatus, user, _) = try await h.api(.get, "/v2/user/\(userId)", headers: Harness.apiKey())
                #expect(getStatus == .ok)
                #expect(user["team_id"] == .string(Harness.defaultTeamId))
            }

            // Not another team's users, and not unknown ones.
            let (_, team) = try await h.admin(.post, "/teams", [:])
            let otherKey = try #require(team["api_key"]?.stringValue)
            #expect(try await h.profile(alice, headers: Harness.apiKey(otherKey)).0 == .forbidden)
            let (missing, missingBody, _) = try await h.profile(UUID().uuidString.lowercased(), headers: Harness.apiKey())
            #expect(missing == .notFound)
            #expect(missingBody.errorType == "not_found")
            #expect(try await h.profile(alice, headers: Harness.apiKey("wrong")).0 == .unauthorized)
        }
    }

    @Test func missingOrMalformedCredentialsAre401WithAChallenge() async throws {
        try await Harness.run { h in
            let alice = try await h.createTokenUser("alice")
            for headers in [HTTPFields(), Harness.bearer("no-such-token"), Harness.header("authorization", "Basic abc")] {
                let (status, answer, response) = try await h.profile(alice, headers: headers)
                #expect(status == .unauthorized)
                #expect(answer.errorType == "invalid_token")
                #expect(answer["detail"]?["message"]?.stringValue?.isEmpty == false)
                #expect(response.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")
            }
        }
    }

    @Test func unknownPathsAnswerInTheDetailShape() async throws {
        try await Harness.run { h in
            let (status, answer, _) = try await h.api(.get, "/v2/nothing/here", headers: Harness.apiKey())
            #expect(status == .notFound)
            #expect(answer.errorType == "not_found")
        }
    }

    @Test func theseEndpointsAreCountedByLiteralPath() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("alice")
            _ = try await h.refreshGrant(session.refreshToken)
            _ = try await h.profile(session.userId, headers: Harness.bearer(session.accessToken))
            let counters = try await h.admin(.get, "/counters").1["counters"]
            #expect(counters?["POST /v2/user"] == 1)
            #expect(counters?["POST /v2/user/\(session.userId)/sign_in_token"] == 1)
            #expect(counters?["POST /v1/token"] == 2)
            #expect(counters?["GET /v2/user/\(session.userId)/profile"] == 1)
        }
    }

    @Test func faultsApplyToTheTokenEndpoint() async throws {
        try await Harness.run { h in
            let session = try await h.signedInTokenUser("alice")
            _ = try await h.admin(.post, "/faults", ["kind": "http_500", "path": "/v1/token"])
            let failed = try await h.refreshGrant(session.refreshToken)
            #expect(failed.0 == .internalServerError)
            // The failed attempt never reached the endpoint: the token is still unused.
            let (status, answer) = try await h.refreshGrant(session.refreshToken)
            #expect(status == .ok)
            #expect(answer["refresh_token"] != .string(session.refreshToken))
        }
    }
}

extension TestResponse {
    /// Status and JSON body, for calls made with `Harness.request`.
    func asAPI() -> (HTTPResponse.Status, JSONValue, TestResponse) {
        (status, JSONValue.parse(String(buffer: body)) ?? .null, self)
    }
}
